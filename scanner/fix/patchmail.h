/* charscan fix --patches: the fixed files as mails, one per subsystem. */
#ifndef CHARSCAN_PATCHMAIL_H
#define CHARSCAN_PATCHMAIL_H

#include <stddef.h>
#include "core/core.h"

/* A file with its fixes applied in memory (fix.c). */
struct fixed_file {
	const char *path;		/* absolute */
	const char *old;
	char *new;
	size_t old_len, new_len;
	const struct finding **findings;	/* the fixes in it */
	size_t nfindings;
};

/*
 * Write one git format-patch mail per subsystem into dir (created if
 * need be) for the files, paths relative to srcroot: what `git am` and
 * `quilt import` take.  In a kernel tree (MAINTAINERS and
 * scripts/get_maintainer.pl at srcroot) a subsystem is a MAINTAINERS
 * entry and each mail gets To: and Cc: from get_maintainer.pl; elsewhere
 * a subsystem is a directory.  Prints each mail's path; -1 on error.
 */
int patchmail_write(const char *dir, const char *srcroot, const struct fixed_file *files,
		    size_t n);

#endif
