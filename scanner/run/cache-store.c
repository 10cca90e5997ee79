/*
 * The worker's side of the scan cache (cache.c says what an entry is):
 * after a clean parse, the files libclang read with their bytes'
 * SHA-256 and who included whom, libclang's -v search list for the same
 * argv, and the message about to be sent, written atomically.
 */
#include <errno.h>
#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/evp.h>
#include "core/core.h"
#include "cache.h"
#include "entry.h"
#include "wire.h"

/* Files read before the source file (kbuild's -include of a header that
 * pulls in dozens): they change no search folder, so the -v parse goes
 * without them.  Joined (-includeFILE) or with the name after it. */
static const char *const forced[] = { "-include", "-imacros", "-include-pch" };

static int forced_words(const char *arg)
{
	for (size_t i = 0; i < sizeof(forced) / sizeof(*forced); i++)
		if (!strcmp(arg, forced[i]))
			return 2;
	for (size_t i = 0; i < sizeof(forced) / sizeof(*forced); i++)
		if (!strncmp(arg, forced[i], strlen(forced[i])))
			return 1;
	return 0;
}

/*
 * libclang's own header search list for tu's argv: its -v report of a
 * parse of the same command with the source file empty (no include is
 * followed), read from standard error.  NULL if it cannot be had.
 */
static char *search_list(CXIndex index, const struct tu *tu)
{
	const char **argv = xcalloc(tu->argc + 2, sizeof(*argv));
	struct CXUnsavedFile empty = { tu->file, "", 0 };
	CXTranslationUnit ctu = NULL;
	FILE *f = tmpfile();
	int saved = dup(2), argc = 0;
	char *text = NULL;

	for (int i = 0; i < tu->argc; i++) {
		int skip = i ? forced_words(tu->argv[i]) : 0;

		if (skip)
			i += skip - 1;
		else
			argv[argc++] = tu->argv[i];
	}
	argv[argc++] = "-v";
	fflush(stderr);
	if (f && saved >= 0 && dup2(fileno(f), 2) == 2) {
		clang_parseTranslationUnit2FullArgv(index, NULL, argv, argc, &empty, 1, 0, &ctu);
		fflush(stderr);
		dup2(saved, 2);
		if (ctu)
			clang_disposeTranslationUnit(ctu);
		rewind(f);
		text = read_all(f, NULL);
		if (ferror(f) || !ctu) {
			free(text);
			text = NULL;
		}
	}
	if (saved >= 0)
		close(saved);
	if (f)
		fclose(f);
	free(argv);
	return text;
}

struct deps {
	CXTranslationUnit ctu;
	const char *dir;
	struct lists l;			/* as lists_read() gives them, but */
	uint32_t *edge_dep, *edge_inc;	/* ...edges as indices */
	size_t cap, edge_cap;
	void *seen;			/* path -> index: a header is visited
					 * for each includer */
	int ok;
};

struct seen {
	char *path;			/* l.dep's */
	uint32_t index;
};

/* file's index in the list, added with its bytes' SHA-256; NONE if
 * libclang cannot give them.  The bytes are asked for once per file:
 * clang_getFileContents() finds the file's buffer by a search of every
 * source location entry (macro expansions included), so a kernel TU's
 * second question about a header costs as much as the first. */
static uint32_t intern(struct deps *d, CXFile file)
{
	CXString name = clang_getFileName(file);
	unsigned char md[EVP_MAX_MD_SIZE];
	size_t size = 0;
	const char *text;
	struct seen key, **slot, *x;

	if (!clang_getCString(name)) {
		clang_disposeString(name);
		d->ok = 0;		/* read, but not to be checked later */
		return NONE;
	}
	key.path = fold_path(join_path(d->dir, clang_getCString(name)));
	clang_disposeString(name);
	slot = tfind(&key, &d->seen, entry_by_path);
	if (slot) {
		free(key.path);
		return (*slot)->index;
	}
	if (!(text = clang_getFileContents(d->ctu, file, &size))) {
		free(key.path);
		d->ok = 0;
		return NONE;
	}
	slot = tsearch(&key, &d->seen, entry_by_path);
	*slot = x = xmalloc(sizeof(*x));
	x->path = key.path;
	x->index = d->l.ndeps;
	grow(&d->l.dep, &d->cap, d->l.ndeps + 1, sizeof(*d->l.dep));
	d->l.hex = xrealloc(d->l.hex, d->cap * sizeof(*d->l.hex));
	d->l.dep[x->index] = x->path;
	d->l.hex[x->index] = xmalloc(HEX_LEN + 1);
	EVP_Digest(text, size, md, NULL, EVP_sha256(), NULL);
	entry_hex(md, d->l.hex[d->l.ndeps++]);
	return x->index;
}

static void each_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData arg)
{
	struct deps *d = arg;
	uint32_t dep = intern(d, file), inc = NONE;
	CXFile includer = NULL;

	if (depth) {
		/* A file forced by -include (kbuild's kconfig.h) is included
		 * from the command line, no file: named by the argv, as the
		 * source file is.  Only an includer that cannot be read makes
		 * the entry one not to keep. */
		clang_getFileLocation(stack[0], &includer, NULL, NULL, NULL);
		if (includer && (inc = intern(d, includer)) == NONE)
			d->ok = 0;
	}
	if (dep == NONE)
		return;
	grow(&d->edge_dep, &d->edge_cap, d->l.nedges + 1, sizeof(*d->edge_dep));
	d->edge_inc = xrealloc(d->edge_inc, d->edge_cap * sizeof(*d->edge_inc));
	d->edge_dep[d->l.nedges] = dep;
	d->edge_inc[d->l.nedges++] = inc;
}

static void no_shadow_check(const char *path, void *arg)
{
	(void)path;
	(void)arg;
}

static int read_by_parse(const char *path, void *arg)
{
	struct deps *d = arg;
	struct seen key = { (char *)path, 0 };

	return tfind(&key, &d->seen, entry_by_path) != NULL;
}

/* The entry's lists; -1 when there are too many paths to check later. */
static int put_lists(struct buf *b, struct deps *d)
{
	char **dep = xcalloc(d->l.nedges + 1, sizeof(*dep));
	char **inc = xcalloc(d->l.nedges + 1, sizeof(*inc));
	uint32_t *readings = xcalloc(d->l.nedges + 1, sizeof(*readings));
	int rc;

	for (uint32_t i = 0; i < d->l.nedges; i++) {
		dep[i] = d->l.dep[d->edge_dep[i]];
		inc[i] = d->edge_inc[i] == NONE ? NULL : d->l.dep[d->edge_inc[i]];
	}
	shadow_readings(d->l.verbose, d->dir, dep, inc, d->l.nedges, read_by_parse, d, readings);
	wire_put_str(b, d->l.verbose);
	wire_put_u32(b, d->l.ndeps);
	for (uint32_t i = 0; i < d->l.ndeps; i++) {
		wire_put_str(b, d->l.dep[i]);
		wire_put_str(b, d->l.hex[i]);
	}
	wire_put_u32(b, d->l.nedges);
	for (uint32_t i = 0; i < d->l.nedges; i++) {
		wire_put_u32(b, d->edge_dep[i]);
		wire_put_u32(b, d->edge_inc[i]);
		wire_put_u32(b, readings[i]);
	}
	/* What a lookup will ask: not too much. */
	rc = shadow_candidates(d->l.verbose, d->dir, dep, inc, readings, d->l.nedges,
			       no_shadow_check, NULL);
	free(dep);
	free(inc);
	free(readings);
	return rc;
}

/* Written under a temporary name beside it, then renamed. */
static void write_entry(const char *dir, const char *key, const struct buf *b)
{
	char *sub = xasprintf("%s/%.2s", dir, key), *path = entry_path(dir, key);
	char *tmp = xasprintf("%s/.%s.XXXXXX", sub, key);
	size_t done = 0;
	int fd;

	if (mkdir(sub, 0777) && errno != EEXIST)
		goto out;
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	fchmod(fd, 0644);
	while (done < b->len) {
		ssize_t w = write(fd, b->p + done, b->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (close(fd) || done < b->len || rename(tmp, path))
		unlink(tmp);
out:
	free(sub);
	free(path);
	free(tmp);
}

static void free_seen(void *p)
{
	free(p);		/* its path is d.l's */
}

void cache_store(const char *dir, const char *key, CXIndex index, CXTranslationUnit ctu,
		 const struct tu *tu, const struct buf *msg)
{
	struct deps d = { .ctu = ctu, .dir = tu->directory, .ok = 1 };
	unsigned char md[EVP_MAX_MD_SIZE];
	struct buf b = { 0 };

	clang_getInclusions(ctu, each_inclusion, &d);
	d.l.verbose = d.ok && d.l.ndeps ? search_list(index, tu) : NULL;
	if (d.l.verbose) {
		buf_add(&b, MAGIC, MAGIC_LEN);
		wire_put_str(&b, entry_version());
		if (!put_lists(&b, &d)) {
			wire_put_u32(&b, (uint32_t)msg->len);
			buf_add(&b, msg->p, msg->len);
			entry_seal(b.p, b.len, key, md);
			buf_add(&b, md, SHA_LEN);
			write_entry(dir, key, &b);
		}
	}
	tdestroy(d.seen, free_seen);
	lists_free(&d.l);
	free(d.edge_dep);
	free(d.edge_inc);
	buf_free(&b);
}
