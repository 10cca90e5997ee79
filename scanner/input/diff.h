/*
 * --diff REV: what `git diff REV` changed, which TUs that touches (their
 * own file, or a header they include according to their dependency
 * files or, without one, the scan cache's list), and whether a finding is on a changed line.
 */
#ifndef CHARSCAN_DIFF_H
#define CHARSCAN_DIFF_H

#include <stddef.h>
#include "compdb.h"
#include "core/core.h"

struct line_range { unsigned first, last; };

struct changed_file {
	char *path;			/* absolute */
	struct line_range *v;		/* lines added or changed */
	size_t len, cap;
};

struct changes {
	char *top;			/* the work tree's root */
	struct changed_file *v;
	size_t len, cap;
};

/* Run git (argv, no shell) in dir; -1 with *err if it fails. */
int diff_load(const char *rev, const char *dir, struct changes *ch, char **err);
/* Where a TU with no dependency file may find the files it read (a
 * scan's cache): list() gives each through fn and returns 0, or -1 when
 * it knows nothing of tu. */
struct dep_source {
	int (*list)(const struct tu *tu, void *arg, void (*fn)(const char *path, void *fn_arg),
		    void *fn_arg);
	void *arg;
};

struct diff_counts {
	size_t without_deps;		/* kept: no dependency list (a header changed) */
	size_t from_source;		/* judged by src's lists */
};

/* Keep only the TUs the change touches (src NULL: dependency files only). */
void diff_select(struct compdb *db, const struct changes *ch, const struct dep_source *src,
		 struct diff_counts *counts);
/* Drop the findings that are not on a changed line. */
void diff_filter(struct findings *f, const struct changes *ch);
void changes_free(struct changes *ch);

#endif
