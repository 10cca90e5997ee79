/* Paths whose appearance would change which header a compile finds. */
#ifndef CHARSCAN_SHADOW_H
#define CHARSCAN_SHADOW_H

#include <stddef.h>

/*
 * verbose: the compiler's -v report (its search list); deps: the files
 * the compile read, relative to cwd.  fn() gets each path that does not
 * exist now and, created, would be found before a file of deps (once
 * each).  -1 when there are too many to be worth keeping.
 */
int shadow_paths(const char *verbose, const char *cwd, char **deps, size_t ndeps,
		 void (*fn)(const char *path, void *arg), void *arg);

#endif
