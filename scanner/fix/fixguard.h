/* What a report may ask of charscan fix: the tree it may write in, the
 * files below it, the one change charscan's fixes make (fixguard.c). */
#ifndef CHARSCAN_FIXGUARD_H
#define CHARSCAN_FIXGUARD_H

#include <stddef.h>
#include "core/core.h"

struct fix_tree {
	char *real;		/* the tree, resolved */
	char *report_root;	/* the report's %SRCROOT%, paths rebased from it */
};

/* given: --srcroot or NULL.  0, or -1 with *err. */
int fix_tree_open(struct fix_tree *t, const char *given, const char *report_root, char **err);
void fix_tree_free(struct fix_tree *t);
char *fix_tree_resolve(const struct fix_tree *t, const char *path, const char **why, int *gone);
/* NULL when x's fix is a change charscan makes, else why not. */
const char *fix_shape(const struct finding *x);
/* [start, end) of a line of len bytes is a "char" keyword a fix may change. */
int fix_whole_token(const char *line, size_t len, size_t start, size_t end);

#endif
