/*
 * The configuration file: .charscan in the source root, or --config FILE.
 * One "key = value" per line, '#' starts a comment:
 *
 *	rules = -CS008,-CS002		as --rules
 *	level.CS004 = note		a rule's level (id or name)
 *	exclude = drivers/staging/	"dir/": everything below dir, else a
 *	exclude = *_test.c		glob on the path below the source
 *					root; '*' crosses '/'; repeatable
 *	fail-on = error			as --fail-on
 *	signedness = unsigned		as --signedness
 *
 * The command line wins over the file.
 */
#ifndef CHARSCAN_CONFIG_H
#define CHARSCAN_CONFIG_H

#include <stddef.h>
#include "core/core.h"

struct config {
	char *path;			/* the file read, or NULL */
	char *rules, *fail_on, *signedness;
	const char *level[NR_RULES];	/* NULL: the catalogue's */
	char **exclude;
	unsigned *exclude_line;		/* the line of each exclude */
	size_t nexclude, cap, line_cap;
};

/* 0 if read (or absent and !must_exist), -1 with *err "file:line: why". */
int config_load(const char *path, int must_exist, struct config *c, char **err);
/* The line of the first exclude matching relpath (below the source
 * root), or 0. */
unsigned config_excludes(const struct config *c, const char *relpath);
void config_free(struct config *c);

#endif
