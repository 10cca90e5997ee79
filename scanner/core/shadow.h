/*
 * What keeps a cached answer for one compile (confirm's --cache) or one
 * libclang parse (a scan's --cache) valid: the paths whose appearance
 * would change which header it finds, and the cache folder itself.
 */
#ifndef CHARSCAN_SHADOW_H
#define CHARSCAN_SHADOW_H

#include <stddef.h>
#include <stdint.h>

/*
 * verbose: the compiler's (or libclang's) -v report (its search list); deps: the files
 * the compile read, relative to cwd.  fn() gets each path that does not
 * exist now and, created, would be found before a file of deps (once
 * each).  -1 when there are too many to be worth keeping.
 */
int shadow_paths(const char *verbose, const char *cwd, char **deps, size_t ndeps,
		 void (*fn)(const char *path, void *arg), void *arg);
/*
 * The same paths, whether absent now or not, for deps[i] included by
 * includers[i] (a file; NULL: none, the main file): a caller that kept
 * verbose, deps and includers asks again later whether any appeared
 * (a path that is itself in deps is covered by its bytes).  A dep
 * included from several files is given once for each.
 */
int shadow_candidates(const char *verbose, const char *cwd, char **deps, char **includers,
		      const uint32_t *readings, size_t ndeps,
		      void (*fn)(const char *path, void *arg), void *arg);
/*
 * When the parse is kept: for each deps[i], the readings of its name a
 * lookup could have taken (bit p: the name below the p-th search folder
 * that holds it), those with no shadow now but files in deps (is_dep).
 * Nested search folders give a file several readings; the others had a
 * file in the way, so a later shadow_candidates() with these readings
 * asks only about what could change the lookup.  NULL readings there:
 * every reading.
 */
void shadow_readings(const char *verbose, const char *cwd, char **deps, char **includers,
		     size_t ndeps, int (*is_dep)(const char *path, void *arg), void *arg,
		     uint32_t *readings);

/* Still absent: created since, path would be found instead of a header
 * the compile read. */
int shadow_still_absent(const char *path);
/* Why a cache folder cannot be used (made if missing), or NULL. */
char *cache_dir_unusable(const char *dir);

#endif
