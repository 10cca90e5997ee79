/*
 * The summary store a sharded scan leaves for its merge: one file per
 * shard, DIR/shard-K-of-N.sum, each a header (magic, version, K, N, the
 * scan's key, its options in words), one record per line (summary.c's
 * text form) and an end line with the record count, so a truncated file
 * is told from a short one.  Written to a temporary file and renamed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "summary.h"
#include "core/core.h"

#define STORE_MAGIC "charscan-summaries"
#define STORE_VERSION 5	/* 2: D and C records are sets of name hashes;
				 * 3: an A record may carry a computed value;
				 * 4: the options in words after the key */

uint64_t xstore_key(const struct compdb *db, const char *opts)
{
	uint64_t h = fnv1a(opts, strlen(opts));

	for (size_t i = 0; i < db->len; i++)
		h = h * 1099511628211ULL ^ fnv1a(db->tu[i].file, strlen(db->tu[i].file) + 1);
	return h;
}

/* Before the scan, not after it: a file that can be created there. */
int xstore_probe(const char *dir, char **err)
{
	char *probe = xasprintf("%s/.probe-%ld", dir, (long)getpid());
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0) {
		*err = xasprintf("cannot write the summary store %s: %s", dir, strerror(errno));
	} else {
		unlink(probe);
		close(fd);
	}
	free(probe);
	return fd < 0 ? -1 : 0;
}

int xstore_write(const char *dir, unsigned k, unsigned n, uint64_t key, const char *opts,
		 const struct xrecs *r, char **err)
{
	char *path = xasprintf("%s/shard-%u-of-%u.sum", dir, k, n);
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int rc = -1;

	if (!f) {
		*err = xasprintf("cannot write the summary store %s: %s", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, "%s\t%d\t%u\t%u\t%016llx\t%s\n", STORE_MAGIC, STORE_VERSION, k, n,
		(unsigned long long)key, opts);
	for (size_t i = 0; i < r->len; i++) {
		char *line = xrec_line(&r->v[i]);

		fprintf(f, "%s\n", line);
		free(line);
	}
	fprintf(f, "end\t%zu\n", r->len);
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		*err = xasprintf("cannot write the summary store %s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(path);
	free(tmp);
	return rc;
}

/* One shard's file: its records appended to r; k and n from its header. */
static int read_shard(const char *path, uint64_t *key, char **opts, unsigned *k,
		      unsigned *n, struct xrecs *r, char **err)
{
	const char *why;
	char *line, *next;
	size_t count = 0, len, first = r->len;
	int version, rc = -1, ended = 0, at = 0;
	unsigned long long h;
	char *text = read_input(path, LIMIT_REPORT, &len, &why);

	if (!text) {
		*err = xasprintf("%s: %s", path, why);
		return -1;
	}
	if (strlen(text) != len) {
		*err = xasprintf("%s: unreadable or not text", path);
		goto out;
	}
	line = text;
	next = strchr(line, '\n');
	if (!next || (*next = 0, sscanf(line, STORE_MAGIC "\t%d\t%u\t%u\t%llx\t%n", &version, k,
					n, &h, &at) != 4) || version != STORE_VERSION || !at) {
		*err = xasprintf("%s: not a charscan %d summary store", path, STORE_VERSION);
		goto out;
	}
	*key = h;
	free(*opts);
	*opts = xstrdup(line + at);
	for (line = next + 1; *line; line = next + 1) {
		struct xrec x;
		size_t want;

		if (!(next = strchr(line, '\n')))
			break;
		*next = 0;
		if (sscanf(line, "end\t%zu", &want) == 1) {
			ended = want == count;
			break;
		}
		if (xrec_parse(line, &x)) {
			*err = xasprintf("%s: malformed record %zu", path, count + 1);
			goto out;
		}
		grow(&r->v, &r->cap, r->len + 1, sizeof(*r->v));
		r->v[r->len++] = x;
		count++;
	}
	if (!ended) {
		*err = xasprintf("%s: truncated (no end line for its %zu records)", path, count);
		goto out;
	}
	rc = 0;
out:
	if (rc)
		while (r->len > first)
			xrec_free(&r->v[--r->len]);
	free(text);
	return rc;
}

/* The first option (a word of the header's options) that differs. */
static char *option_differs(const char *dir, const char *theirs, const char *mine)
{
	size_t t, m;

	for (;; theirs += t + (theirs[t] == ' '), mine += m + (mine[m] == ' ')) {
		t = strcspn(theirs, " ");
		m = strcspn(mine, " ");
		if (t != m || strncmp(theirs, mine, t))
			return xasprintf("summary store %s was made with %.*s, this run has %.*s: "
					 "give --resolve the options the shards had", dir,
					 (int)t, theirs, (int)m, mine);
		if (!t)
			return NULL;
	}
}

/* Why a shard file made with key h and options theirs is not this
 * run's (key, opts): another option, or another database. */
static char *not_this_scan(const char *dir, const char *name, uint64_t h, const char *theirs,
			   uint64_t key, const char *opts)
{
	char *why = opts ? option_differs(dir, theirs, opts) : NULL;

	if (why || h == key)
		return why;
	if (!opts)
		return xasprintf("summary store %s: %s was made by another scan than the reports "
				 "(another database or other options)", dir, name);
	return xasprintf("summary store %s: %s was made from another database (another "
			 "set of TUs): remove the store and scan again", dir, name);
}

int xstore_read(const char *dir, uint64_t key, const char *opts, struct xrecs *r, char **err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned char *seen = NULL;
	unsigned total = 0, found = 0;
	int rc = -1;
	uint64_t first_key = 0;
	char *theirs = NULL;

	if (!d) {
		*err = xasprintf("summary store %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		unsigned k, n, hk, hn;
		uint64_t h;
		char *path, tail;

		if (sscanf(e->d_name, "shard-%u-of-%u.su%c", &k, &n, &tail) != 3 || tail != 'm' ||
		    strchr(e->d_name, '.') != strrchr(e->d_name, '.'))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (read_shard(path, &h, &theirs, &hk, &hn, r, err)) {
			char *why = *err;

			*err = xasprintf("summary store %s", why);
			free(why);
			free(path);
			goto out;
		}
		free(path);
		if (key && (*err = not_this_scan(dir, e->d_name, h, theirs, key, opts)))
			goto out;
		if (hk != k || hn != n || !k || k > n || (total && n != total) ||
		    (found && h != first_key)) {
			*err = xasprintf("summary store %s: %s does not belong with the rest "
					 "(another scan, database or shard count): remove the "
					 "store and scan again", dir, e->d_name);
			goto out;
		}
		if (!total)
			seen = xcalloc((total = n) + 1, 1);
		first_key = h;
		if (seen[k]++)
			continue;
		found++;
	}
	if (!total || found != total) {
		*err = xasprintf("summary store %s: %u of %u shards' files", dir, found, total);
		goto out;
	}
	rc = 0;
out:
	if (rc)
		xrecs_free(r);
	free(seen);
	free(theirs);
	closedir(d);
	return rc;
}
