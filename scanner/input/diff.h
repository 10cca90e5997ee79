/*
 * --diff REV: what `git diff REV` changed, which TUs that touches (their
 * own file, or a header they include according to their dependency
 * files), and whether a finding is on a changed line.
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
/* Keep only the TUs the change touches.  Returns how many were kept
 * without dependency information (because some header changed). */
size_t diff_select(struct compdb *db, const struct changes *ch);
/* Drop the findings that are not on a changed line. */
void diff_filter(struct findings *f, const struct changes *ch);
void changes_free(struct changes *ch);

#endif
