/* What the pages of charscan report share: the report read, the findings
 * listed, the source tree they are shown from. */
#ifndef CHARSCAN_HTML_REPORT_H
#define CHARSCAN_HTML_REPORT_H

#include "core/core.h"
#include "sarif/sarif.h"

#define PER_PAGE 500		/* findings on one list page */

struct html_run {
	const struct options *o;
	struct sarif_in in;
	const char *dir;		/* -o DIR */
	const char *input;		/* the report's path */
	char *root;			/* where source is read (real path) */
	struct filecache src;
	char *asked, *real;		/* the last path resolved, and its answer */
	const char *why;
	const struct finding **list;	/* listed: no passes, no suppressed; sorted */
	size_t n;
	char **dirs;			/* their top-level directories, sorted */
	size_t ndirs;
	unsigned *dir_of;		/* list[i]'s directory, an index in dirs */
	size_t passes, suppressed;
};

/* x's path as the report names it: relative to its %SRCROOT%. */
const char *shown_path(const struct html_run *r, const char *path);
/* x's level: the result's, else its rule's. */
const char *finding_level(const struct finding *x);
/* Line `line` of the report's path, read below the source tree, without
 * its newline; NULL with *why if it cannot be shown. */
const char *source_line(struct html_run *r, const char *path, unsigned line, size_t *len,
			const char **why);
/* The list page k (1-based): index.html, list-2.html... */
void list_page_name(char *buf, size_t size, size_t k);

int write_index(struct html_run *r, char **err);		/* index.c */
int write_finding(struct html_run *r, size_t i, char **err);	/* finding.c */

#endif
