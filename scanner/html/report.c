/*
 * charscan report REPORT.sarif -o DIR: the report read back with the
 * SARIF reader (sarif_load(), the one way charscan reads SARIF) and
 * written as static pages into DIR: a page per finding first, then the
 * list pages, index.html last, so that no page links to one not yet
 * written.  Pages an earlier, longer report left there are removed.
 *
 * A report is trusted with nothing: source is shown only from files
 * below the source tree (--srcroot DIR, or the report's %SRCROOT%),
 * through their real paths, so that a report naming /etc/shadow or
 * ../../secret puts no line of it on a page meant to be published.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "html.h"
#include "page.h"
#include "report.h"

const char *shown_path(const struct html_run *r, const char *path)
{
	return relative_path(path, r->in.srcroot);
}

const char *finding_level(const struct finding *x)
{
	return x->level ? x->level : rules[x->rule].level;
}

void list_page_name(char *buf, size_t size, size_t k)
{
	if (k <= 1)
		snprintf(buf, size, "index.html");
	else
		snprintf(buf, size, "list-%zu.html", k);
}

static int below(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return path[0] == '/';
	return !strncmp(path, root, n) && (path[n] == '/' || !path[n]);
}

/* The real path of the report's path below the tree, or NULL with *why;
 * the last answer kept: a page asks for many lines of one file. */
static const char *resolve(struct html_run *r, const char *path, const char **why)
{
	const char *rel = shown_path(r, path);
	char *full;

	if (r->asked && !strcmp(r->asked, path))
		goto out;
	free(r->asked);
	free(r->real);
	r->asked = xstrdup(path);
	r->real = NULL;
	if (rel == path && strcmp(r->in.srcroot, "/")) {
		r->why = "outside the report's %SRCROOT%: not shown";
		goto out;
	}
	if (!r->root) {
		r->why = "the source tree is missing";
		goto out;
	}
	full = join_path(r->root, rel);
	r->real = realpath(full, NULL);
	free(full);
	if (!r->real)
		r->why = errno == ENOENT ? "no such file in the source tree" : strerror(errno);
	else if (!below(r->real, r->root)) {
		r->why = "outside the source tree: not shown";
		free(r->real);
		r->real = NULL;
	}
out:
	*why = r->why;
	return r->real;
}

const char *source_line(struct html_run *r, const char *path, unsigned line, size_t *len,
			const char **why)
{
	const char *real = resolve(r, path, why), *text;

	if (!real)
		return NULL;
	if (!filecache_get(&r->src, real, len)) {
		*why = "unreadable (not a regular file, or too large)";
		return NULL;
	}
	if (!(text = filecache_line(&r->src, real, line, len)))
		*why = "the file is shorter now than when it was scanned";
	return text;
}

/* rel's top-level directory ("." for a file at the top); caller frees. */
static char *top_dir(const char *rel)
{
	const char *start = rel + (rel[0] == '/'), *slash = strchr(start, '/');

	if (!slash)
		return xstrdup(".");
	return xstrndup(rel, slash - rel);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_listed(const void *a, const void *b)
{
	return finding_cmp(*(const struct finding *const *)a, *(const struct finding *const *)b);
}

/* The findings listed, sorted, and the directory of each. */
static void select_findings(struct html_run *r)
{
	const struct findings *fs = &r->in.findings;
	char **names;

	r->list = xcalloc(fs->len + 1, sizeof(*r->list));
	for (size_t i = 0; i < fs->len; i++) {
		const struct finding *x = &fs->v[i];

		if (x->pass)
			r->passes++;
		else if (x->suppressed)
			r->suppressed++;
		else
			r->list[r->n++] = x;
	}
	qsort(r->list, r->n, sizeof(*r->list), cmp_listed);
	names = xcalloc(r->n + 1, sizeof(*names));
	for (size_t i = 0; i < r->n; i++)
		names[i] = top_dir(shown_path(r, r->list[i]->loc.path));
	r->dirs = xcalloc(r->n + 1, sizeof(*r->dirs));
	r->dir_of = xcalloc(r->n + 1, sizeof(*r->dir_of));
	{
		char **sorted = xcalloc(r->n + 1, sizeof(*sorted));

		memcpy(sorted, names, r->n * sizeof(*names));
		qsort(sorted, r->n, sizeof(*sorted), cmp_str);
		for (size_t i = 0; i < r->n; i++)
			if (!r->ndirs || strcmp(r->dirs[r->ndirs - 1], sorted[i]))
				r->dirs[r->ndirs++] = xstrdup(sorted[i]);
		free(sorted);
	}
	for (size_t i = 0; i < r->n; i++) {
		char **hit = bsearch(&names[i], r->dirs, r->ndirs, sizeof(*r->dirs), cmp_str);

		r->dir_of[i] = hit - r->dirs;
		free(names[i]);
	}
	free(names);
}

/* DIR and DIR/f made if missing; anything but a folder refused. */
static int make_dir(const char *path, char **err)
{
	struct stat st;

	if (mkdir(path, 0777) && errno != EEXIST) {
		*err = xasprintf("cannot make %s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(path, &st)) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*err = xasprintf("%s is %s, not a folder", path, file_kind(st.st_mode));
		return -1;
	}
	return 0;
}

/* A page we write: "list-K.html" (K >= 2) or, in f/, "N.html": its
 * number, or 0 for any other name. */
static size_t page_number(const char *name, const char *prefix)
{
	size_t n = strlen(prefix), k = 0;
	const char *p = name + n;

	if (strncmp(name, prefix, n) || *p < '1' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9' && k < (size_t)1 << 40; p++)
		k = k * 10 + (*p - '0');
	return strcmp(p, ".html") ? 0 : k;
}

/* A temporary of one of our pages, left by a run that died. */
static int stale_tmp(const char *name, const char *prefix)
{
	const char *html = strstr(name, ".html.");
	char *base;
	int ours;

	if (!html || !page_is_stale_tmp(name))
		return 0;
	base = xstrndup(name, html + 5 - name);
	ours = page_number(base, prefix) > 0;
	free(base);
	return ours;
}

/* Pages of an earlier report beyond this one's (list pages above last,
 * finding pages above n) and temporaries of runs that died.  Nothing
 * else in DIR is touched. */
static void remove_stale(const char *dir, const char *prefix, size_t last)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t k = page_number(e->d_name, prefix);

		if (k > last || stale_tmp(e->d_name, prefix)) {
			char *path = join_path(dir, e->d_name);

			unlink(path);
			free(path);
		}
	}
	if (d)
		closedir(d);
}

static int write_pages(struct html_run *r, char **err)
{
	char *fdir = join_path(r->dir, "f");
	int rc = make_dir(r->dir, err) || make_dir(fdir, err) ? -1 : 0;

	for (size_t i = 0; i < r->n && !rc; i++)
		rc = write_finding(r, i, err);
	if (!rc)
		rc = pages_sync(fdir, err);
	if (!rc)
		rc = write_index(r, err);
	if (!rc) {
		remove_stale(fdir, "", r->n);
		remove_stale(r->dir, "list-", (r->n + PER_PAGE - 1) / PER_PAGE);
	}
	free(fdir);
	return rc;
}

static void run_free(struct html_run *r)
{
	for (size_t i = 0; i < r->ndirs; i++)
		free(r->dirs[i]);
	free(r->dirs);
	free(r->dir_of);
	free(r->list);
	free(r->root);
	free(r->asked);
	free(r->real);
	filecache_free(&r->src);
	sarif_in_free(&r->in);
}

int report_command(const struct options *o)
{
	struct html_run r = { .o = o, .dir = o->out, .input = o->files[0] };
	char *err = NULL;
	const char *root;
	int rc = EXIT_USAGE;

	if (sarif_load(r.input, &r.in, &err))
		goto out;
	root = o->srcroot ? o->srcroot : r.in.srcroot;
	if (!(r.root = realpath(root, NULL))) {
		err = xasprintf("source tree %s: %s", root, strerror(errno));
		if (o->srcroot)
			goto out;
		/* A report read away from its tree: pages without source. */
		complain("report: %s; the pages show no source (--srcroot DIR)", err);
		free(err);
		err = NULL;
	} else if (!o->srcroot && !root_is_here(r.root)) {
		/* The report's own root names any folder: trusted only here. */
		complain("report: the report's %%SRCROOT%% (%s) is not the current folder or "
			 "below it; the pages show no source (--srcroot DIR)", root);
		free(r.root);
		r.root = NULL;
	}
	select_findings(&r);
	if (write_pages(&r, &err))
		goto out;
	if (!o->quiet) {
		fprintf(stderr, "charscan: report: %zu findings, %zu list pages, in ", r.n,
			(r.n + PER_PAGE - 1) / PER_PAGE + !r.n);
		fput_clean(stderr, r.dir);
		fputc('\n', stderr);
	}
	rc = EXIT_CLEAN;
out:
	if (err)
		complain("report: %s", err);
	free(err);
	run_free(&r);
	return rc;
}
