/*
 * What keeps a cached compile's header lookups finding what they found:
 * a header found in search folder k stays found there while no folder
 * searched before it gets a file of the same name.  The compiler's own
 * -v report gives the search folders in order (quote, -I, -isystem,
 * built-in, -idirafter), and the ones it ignored because they did not
 * exist (created later, they would be searched: counted as first).
 * A quoted include looks in its includer's folder before any: that
 * folder counts as first too, and where who included whom is not known
 * (a .d file), every folder of a file the compile read does.  So for each
 * file read below search folder k under name N, each earlier folder's
 * N must stay absent; those paths are what shadow_paths() gives.
 * Precise names, not folder mtimes: a build writing objects beside the
 * sources must not make every entry stale.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"
#include "path.h"
#include "shadow.h"

#define MAX_ABSENT 200000	/* more: the entry is not worth caching */

struct dirs {
	char **v;
	size_t len, cap;
};

static void add_dir(struct dirs *d, const char *cwd, const char *text, size_t len)
{
	char *s = xstrndup(text, len), *path = fold_path(join_path(cwd, s));

	free(s);
	for (size_t i = 0; i < d->len; i++)
		if (!strcmp(d->v[i], path)) {
			free(path);
			return;
		}
	grow(&d->v, &d->cap, d->len + 1, sizeof(*d->v));
	d->v[d->len++] = path;
}

/* The -v report: search folders in order into ordered, ignored ones
 * into first. */
static void parse_verbose(const char *text, const char *cwd, struct dirs *ordered,
			  struct dirs *first)
{
	static const char ignored[] = "ignoring nonexistent directory \"";
	int in_list = 0;

	for (const char *s = text ? text : "", *nl; *s; s = nl + 1) {
		size_t len;

		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		len = (size_t)(nl - s);
		if (!strncmp(s, ignored, sizeof(ignored) - 1) && len > sizeof(ignored) &&
		    s[len - 1] == '"')
			add_dir(first, cwd, s + sizeof(ignored) - 1, len - sizeof(ignored));
		else if (len > 20 && !strncmp(s + len - 20, " search starts here:", 20))
			in_list = 1;
		else if (!strncmp(s, "End of search list.", 19))
			in_list = 0;
		else if (in_list && len > 1 && s[0] == ' ')
			add_dir(ordered, cwd, s + 1, len - 1);
		if (!*nl)
			break;
	}
}

struct absent {
	void *tree;
	size_t len;
	int only_absent;		/* shadow_paths(): those absent now */
	void (*fn)(const char *path, void *arg);
	void *arg;
	/* Store time: is a path one of the files read?  Then each
	 * reading of a file's name is weighed instead of listed. */
	int (*is_dep)(const char *path, void *arg);
	int consistent;			/* the reading weighed has no shadow now */
};

static void must_stay_absent(struct absent *a, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (a->is_dep) {
		if (!a->is_dep(path, a->arg) && !shadow_still_absent(path))
			a->consistent = 0;
		free(path);
		return;
	}
	if ((!a->only_absent || shadow_still_absent(path)) &&
	    *(char **)tsearch(path, &a->tree, (int (*)(const void *, const void *))strcmp) == path) {
		a->fn(path, a->arg);
		a->len++;
		return;
	}
	free(path);
}

/*
 * dep under ordered->v[k]: each earlier folder's copy of its name, and
 * the first folders' (those searched before any: the includer's).  A
 * file below nested search folders (arch/x86/include and its uapi/) has
 * a reading per folder ("uapi/asm/x.h" or "asm/x.h"); bit p of readings
 * keeps the p-th.  With a->is_dep set, the readings a lookup could have
 * taken (no shadow of theirs exists now) are returned instead.
 */
static uint32_t shadows_of(struct absent *a, const char *dep, const struct dirs *ordered,
			   const struct dirs *first, const char *includer, uint32_t readings)
{
	uint32_t found = 0;

	for (size_t k = 0, p = 0; k < ordered->len; k++) {
		size_t n = strlen(ordered->v[k]);
		const char *name = dep + n + 1;

		if (strncmp(dep, ordered->v[k], n) || dep[n] != '/' || !*name)
			continue;
		if (p >= 32 || !(readings >> p++ & 1))
			continue;
		a->consistent = 1;
		for (size_t j = 0; j < first->len; j++)
			if (strcmp(first->v[j], ordered->v[k]))
				must_stay_absent(a, first->v[j], name);
		if (includer && strcmp(includer, ordered->v[k]))
			must_stay_absent(a, includer, name);
		for (size_t j = 0; j < k; j++)
			must_stay_absent(a, ordered->v[j], name);
		if (a->consistent)
			found |= 1u << (p - 1);
	}
	return found;
}

static void free_dirs(struct dirs *d)
{
	for (size_t i = 0; i < d->len; i++)
		free(d->v[i]);
	free(d->v);
}

/* An absolute path's folder ("/" for a file at the root); caller frees. */
static char *folder_of(const char *cwd, const char *path)
{
	char *abs = fold_path(join_path(cwd, path)), *slash = strrchr(abs, '/');

	if (slash)
		slash[slash > abs ? 0 : 1] = '\0';
	return abs;
}

static int shadows(struct absent *a, const char *verbose, const char *cwd, char **deps,
		   char **includers, size_t ndeps, uint32_t *readings)
{
	struct dirs ordered = { 0 }, first = { 0 };
	char **abs = xcalloc(ndeps + 1, sizeof(*abs));

	parse_verbose(verbose, cwd, &ordered, &first);
	for (size_t i = 0; i < ndeps; i++) {
		char *dir = folder_of(cwd, deps[i]);

		abs[i] = fold_path(join_path(cwd, deps[i]));
		if (!includers)		/* who included whom unknown: any file's folder */
			add_dir(&first, "/", dir, strlen(dir));
		free(dir);
	}
	for (size_t i = 0; i < ndeps && a->len <= MAX_ABSENT; i++) {
		char *inc = includers && includers[i] ? folder_of(cwd, includers[i]) : NULL;

		uint32_t r = shadows_of(a, abs[i], &ordered, &first, inc,
					readings && !a->is_dep ? readings[i] : UINT32_MAX);

		if (a->is_dep)
			readings[i] = r;
		free(inc);
	}
	for (size_t i = 0; i < ndeps; i++)
		free(abs[i]);
	free(abs);
	tdestroy(a->tree, free);
	free_dirs(&ordered);
	free_dirs(&first);
	return a->len > MAX_ABSENT ? -1 : 0;
}

int shadow_paths(const char *verbose, const char *cwd, char **deps, size_t ndeps,
		 void (*fn)(const char *path, void *arg), void *arg)
{
	struct absent a = { .only_absent = 1, .fn = fn, .arg = arg };

	return shadows(&a, verbose, cwd, deps, NULL, ndeps, NULL);
}

int shadow_candidates(const char *verbose, const char *cwd, char **deps, char **includers,
		      const uint32_t *readings, size_t ndeps,
		      void (*fn)(const char *path, void *arg), void *arg)
{
	struct absent a = { .fn = fn, .arg = arg };

	return shadows(&a, verbose, cwd, deps, includers, ndeps, (uint32_t *)readings);
}

void shadow_readings(const char *verbose, const char *cwd, char **deps, char **includers,
		     size_t ndeps, int (*is_dep)(const char *path, void *arg), void *arg,
		     uint32_t *readings)
{
	struct absent a = { .arg = arg, .is_dep = is_dep };

	shadows(&a, verbose, cwd, deps, includers, ndeps, readings);
}

int shadow_still_absent(const char *path)
{
	struct stat st;

	return lstat(path, &st) && (errno == ENOENT || errno == ENOTDIR);
}

char *cache_dir_unusable(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0777))
		return NULL;
	if (errno != EEXIST)
		return xasprintf("cannot make the cache folder %s: %s", dir, strerror(errno));
	if (stat(dir, &st))
		return xasprintf("cannot use the cache folder %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return xasprintf("--cache %s: not a folder", dir);
	if (access(dir, W_OK | X_OK))
		return xasprintf("cannot write to the cache folder %s: %s", dir, strerror(errno));
	return NULL;
}
