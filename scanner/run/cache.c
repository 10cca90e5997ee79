/*
 * One entry per walk of a TU, DIR/<2 hex>/<key hex>, the key a SHA-256
 * of what decides the walk without reading a file (cache_key()).  The
 * entry holds the worker's message as it went over the wire (wire.c)
 * and what keeps it valid: the SHA-256 of every file the parse read
 * (libclang's inclusion list, hashed from the bytes libclang parsed, so
 * a file edited during the parse makes the entry stale, never wrong),
 * and every path that, created, would be found before a header it read
 * (core/shadow.c, from libclang's own -v search list for the same argv).
 *
 *   "CSCACHE\n"  version  deps (path, SHA-256 hex)...  absent paths...
 *   message  SHA-256 of all that
 *
 * Entries are written whole under a temporary name and renamed: shards
 * and concurrent scans share a folder without locks, a reader sees an
 * old entry or a new one.  One that is not whole, not ours or not of
 * this version is a miss with a note, never half used.  Content hashes,
 * not mtimes: a checkout that rewrites files unchanged costs nothing.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "wire.h"

#define MAGIC		"CSCACHE\n"
#define MAGIC_LEN	8
#define ENTRY_FORMAT	"1"
#define SHA_LEN		32
#define HEX_LEN		(2 * SHA_LEN)

static void to_hex(const unsigned char *md, char *hex)
{
	for (int i = 0; i < SHA_LEN; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
}

/* Which charscan and which libclang: an entry of another is not read. */
static const char *version_id(void)
{
	static char *id;

	if (!id) {
		CXString v = clang_getClangVersion();

		id = xasprintf("charscan " CHARSCAN_VERSION "; %s; entry " ENTRY_FORMAT,
			       clang_getCString(v));
		clang_disposeString(v);
	}
	return id;
}

static void add_str(EVP_MD_CTX *ctx, const char *s)
{
	EVP_DigestUpdate(ctx, s ? s : "", s ? strlen(s) + 1 : 0);
	EVP_DigestUpdate(ctx, s ? "" : "\1", 1);
}

/* What the second walk is told, in the words the wire and store use. */
static void add_recs(EVP_MD_CTX *ctx, const struct xrec *const *v, size_t n)
{
	uint32_t count = (uint32_t)n;

	EVP_DigestUpdate(ctx, &count, sizeof(count));
	for (size_t i = 0; i < n; i++) {
		char *line = xrec_line(v[i]);

		add_str(ctx, v[i]->tu);
		add_str(ctx, line);
		free(line);
	}
}

void cache_key(const struct tu *tu, const struct engine_opts *o, const struct xtu_ctx *ctx,
	       char hex[CACHE_KEY_HEX])
{
	EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	uint32_t opts[2] = { o->breaks_mask, (uint32_t)o->explain };

	EVP_DigestInit_ex(md_ctx, EVP_sha256(), NULL);
	add_str(md_ctx, version_id());
	EVP_DigestUpdate(md_ctx, o->enabled, sizeof(o->enabled));
	EVP_DigestUpdate(md_ctx, opts, sizeof(opts));
	add_str(md_ctx, tu->file);
	add_str(md_ctx, tu->directory);
	for (int i = 0; i < tu->argc; i++)
		add_str(md_ctx, tu->argv[i]);
	add_str(md_ctx, ctx ? "second walk" : "first walk");
	if (ctx) {
		add_recs(md_ctx, ctx->seeds, ctx->nseeds);
		add_recs(md_ctx, ctx->resolved, ctx->nresolved);
		add_recs(md_ctx, ctx->rets, ctx->nrets);
	}
	EVP_DigestFinal_ex(md_ctx, md, NULL);
	EVP_MD_CTX_free(md_ctx);
	to_hex(md, hex);
}

static char *entry_path(const char *dir, const char *key)
{
	return xasprintf("%s/%.2s/%s", dir, key, key);
}

/* ---- an entry read back ------------------------------------------------ */

struct cache_entry {
	struct wire_reader r;
	char *data;
	size_t len;
	const char *msg;		/* the worker's message */
	uint32_t msg_len;
	const char *io_why;		/* why it could not be read */
};

/* NULL when the entry is whole, ours and of this version; else why not. */
static const char *entry_open(struct cache_entry *e)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	char *version;
	int foreign;

	if (e->len < MAGIC_LEN || memcmp(e->data, MAGIC, MAGIC_LEN))
		return "is not a charscan cache entry";
	e->r = (struct wire_reader){ e->data + MAGIC_LEN, e->data + e->len, 0 };
	version = wire_get_str(&e->r);
	foreign = !e->r.bad && version && strcmp(version, version_id());
	free(version);
	if (foreign)
		return "was written by another version of charscan or libclang";
	if (e->len < MAGIC_LEN + SHA_LEN)
		return "is truncated or corrupt";
	EVP_Digest(e->data, e->len - SHA_LEN, md, NULL, EVP_sha256(), NULL);
	if (e->r.bad || memcmp(md, e->data + e->len - SHA_LEN, SHA_LEN))
		return "is truncated or corrupt";
	e->r.end -= SHA_LEN;
	return NULL;
}

/* The message, after the lists have been read. */
static int entry_message(struct cache_entry *e)
{
	e->msg_len = wire_get_u32(&e->r);
	if (e->r.bad || (size_t)(e->r.end - e->r.p) != e->msg_len)
		return -1;
	e->msg = e->r.p;
	return 0;
}

/* 0 with e filled; -1 quietly (no entry); -2 with *why. */
static int entry_read(const char *path, struct cache_entry *e, const char **why)
{
	memset(e, 0, sizeof(*e));
	e->data = read_input(path, LIMIT_REPORT, &e->len, &e->io_why);
	if (!e->data) {
		if (errno == ENOENT)
			return -1;
		*why = "cannot be read";
		return -2;
	}
	if ((*why = entry_open(e))) {
		free(e->data);
		return -2;
	}
	return 0;
}

/* ---- what a scan has read once ----------------------------------------- */

struct digest {
	char *path;
	int ok;
	char hex[HEX_LEN + 1];
};

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A regular file's bytes hashed; 0 when it cannot be read whole. */
static int hash_file(const char *path, char *hex)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	EVP_MD_CTX *ctx;
	unsigned char md[EVP_MAX_MD_SIZE];
	char chunk[65536];
	struct stat st;
	ssize_t n = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			EVP_DigestUpdate(ctx, chunk, (size_t)n);
	EVP_DigestFinal_ex(ctx, md, NULL);
	EVP_MD_CTX_free(ctx);
	close(fd);
	to_hex(md, hex);
	return n == 0;
}

static int same_bytes(struct scan_cache *c, const char *path, const char *hex)
{
	struct digest key = { (char *)path, 0, "" }, **slot;

	slot = tsearch(&key, &c->digests, by_path);
	if (*slot == &key) {
		struct digest *d = xcalloc(1, sizeof(*d));

		d->path = xstrdup(path);
		d->ok = hash_file(path, d->hex);
		*slot = d;
	}
	return (*slot)->ok && !strcmp((*slot)->hex, hex);
}

struct absent {
	char *path;
	int absent;
};

static int still_absent(struct scan_cache *c, const char *path)
{
	struct absent key = { (char *)path, 0 }, **slot;

	slot = tsearch(&key, &c->absents, by_path);
	if (*slot == &key) {
		struct absent *a = xmalloc(sizeof(*a));

		a->path = xstrdup(path);
		a->absent = shadow_still_absent(path);
		*slot = a;
	}
	return (*slot)->absent;
}

/* 1 when every file is as the parse read it and no shadow appeared. */
static int entry_fresh(struct scan_cache *c, struct cache_entry *e)
{
	uint32_t n = wire_get_u32(&e->r);
	int fresh = 1;

	for (uint32_t i = 0; i < n && !e->r.bad; i++) {
		char *path = wire_get_str(&e->r), *hex = wire_get_str(&e->r);

		if (fresh && (!path || !hex || !same_bytes(c, path, hex)))
			fresh = 0;
		free(path);
		free(hex);
	}
	n = wire_get_u32(&e->r);
	for (uint32_t i = 0; i < n && !e->r.bad; i++) {
		char *path = wire_get_str(&e->r);

		if (fresh && (!path || !still_absent(c, path)))
			fresh = 0;
		free(path);
	}
	return fresh && !e->r.bad;
}

int cache_lookup(struct scan_cache *c, const char *key, const struct tu *tu, struct buf *msg,
		 struct notices *n)
{
	char *path = entry_path(c->dir, key);
	const char *why = NULL;
	struct cache_entry e;
	int rc = entry_read(path, &e, &why), hit = 0;

	if (!rc && entry_fresh(c, &e)) {
		if (entry_message(&e))
			why = "is truncated or corrupt";
		else
			hit = 1;
	}
	if (hit) {
		buf_add(msg, e.msg, e.msg_len);
		c->hits++;
	} else if (why) {
		notice_add(n, "note", tu->file, "%s: cache entry %s %s%s%s; TU parsed again",
			   tu->file, path, why, e.io_why ? ": " : "", e.io_why ? e.io_why : "");
	}
	if (!rc)
		free(e.data);
	free(path);
	return hit;
}

void cache_parsed(struct scan_cache *c, size_t tu_index, size_t ntus)
{
	if (!c->parsed) {
		c->parsed = xcalloc(ntus ? ntus : 1, 1);
		c->ntus = ntus;
	}
	if (tu_index < c->ntus && !c->parsed[tu_index]) {
		c->parsed[tu_index] = 1;
		c->nparsed++;
	}
}

int cache_deps(const char *dir, const char *key, void (*fn)(const char *path, void *arg),
	       void *arg)
{
	char *path = entry_path(dir, key);
	const char *why;
	struct cache_entry e;
	uint32_t n;

	if (entry_read(path, &e, &why)) {
		free(path);
		return -1;
	}
	free(path);
	n = wire_get_u32(&e.r);
	for (uint32_t i = 0; i < n && !e.r.bad; i++) {
		char *dep = wire_get_str(&e.r), *hex = wire_get_str(&e.r);

		if (dep && !e.r.bad)
			fn(dep, arg);
		free(dep);
		free(hex);
	}
	free(e.data);
	return 0;
}

static void free_digest(void *p)
{
	struct digest *d = p;

	free(d->path);
	free(d);
}

static void free_absent(void *p)
{
	struct absent *a = p;

	free(a->path);
	free(a);
}

void cache_free(struct scan_cache *c)
{
	tdestroy(c->digests, free_digest);
	tdestroy(c->absents, free_absent);
	free(c->parsed);
	c->digests = c->absents = NULL;
	c->parsed = NULL;
}

/* ---- an entry written, in the worker ------------------------------------ */

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
	int saved = dup(2);
	char *text = NULL;

	memcpy(argv, tu->argv, tu->argc * sizeof(*argv));
	argv[tu->argc] = "-v";
	fflush(stderr);
	if (f && saved >= 0 && dup2(fileno(f), 2) == 2) {
		clang_parseTranslationUnit2FullArgv(index, NULL, argv, tu->argc + 1, &empty, 1, 0,
						    &ctu);
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
	char **path;
	char **hex;
	size_t len, cap;
	void *seen;			/* the paths, once each (a header is often
					 * visited for each includer) */
	int ok;
};

static void each_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData arg)
{
	struct deps *d = arg;
	CXString name = clang_getFileName(file);
	unsigned char md[EVP_MAX_MD_SIZE];
	size_t size = 0;
	const char *text = clang_getFileContents(d->ctu, file, &size);
	char *path;

	(void)stack;
	(void)depth;
	if (!clang_getCString(name) || !text) {
		d->ok = 0;		/* read, but not to be checked later */
		clang_disposeString(name);
		return;
	}
	path = fold_path(join_path(d->dir, clang_getCString(name)));
	clang_disposeString(name);
	if (*(char **)tsearch(path, &d->seen, (int (*)(const void *, const void *))strcmp) !=
	    path) {
		free(path);
		return;
	}
	grow(&d->path, &d->cap, d->len + 1, sizeof(*d->path));
	d->hex = xrealloc(d->hex, d->cap * sizeof(*d->hex));
	d->path[d->len] = path;
	d->hex[d->len] = xmalloc(HEX_LEN + 1);
	EVP_Digest(text, size, md, NULL, EVP_sha256(), NULL);
	to_hex(md, d->hex[d->len++]);
}

struct absent_list {
	struct buf b;
	uint32_t len;
};

static void put_absent(const char *path, void *arg)
{
	struct absent_list *a = arg;

	wire_put_str(&a->b, path);
	a->len++;
}

/* The entry's lists: deps, then the paths that must stay absent. */
static int put_lists(struct buf *b, struct deps *d, const char *verbose)
{
	struct absent_list absent = { { 0 }, 0 };
	int rc;

	wire_put_u32(b, (uint32_t)d->len);
	for (size_t i = 0; i < d->len; i++) {
		wire_put_str(b, d->path[i]);
		wire_put_str(b, d->hex[i]);
	}
	rc = shadow_paths(verbose, d->dir, d->path, d->len, put_absent, &absent);
	wire_put_u32(b, absent.len);
	buf_add(b, absent.b.p, absent.b.len);
	buf_free(&absent.b);
	return rc;
}

/* Written under a temporary name beside it, then renamed. */
static void write_entry(const char *dir, const char *key, const struct buf *b)
{
	char *sub = xasprintf("%s/%.2s", dir, key), *path = entry_path(dir, key);
	char *tmp = xasprintf("%s/.%s.XXXXXX", sub, key);
	int fd;

	if (mkdir(sub, 0777) && errno != EEXIST)
		goto out;
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	fchmod(fd, 0644);
	for (size_t done = 0; done < b->len; ) {
		ssize_t w = write(fd, b->p + done, b->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (close(fd) || rename(tmp, path))
		unlink(tmp);
out:
	free(sub);
	free(path);
	free(tmp);
}

static void no_free(void *p)
{
	(void)p;		/* the paths are d.path's */
}

void cache_store(const char *dir, const char *key, CXIndex index, CXTranslationUnit ctu,
		 const struct tu *tu, const struct buf *msg)
{
	struct deps d = { .ctu = ctu, .dir = tu->directory, .ok = 1 };
	unsigned char md[EVP_MAX_MD_SIZE];
	struct buf b = { 0 };
	char *verbose;

	clang_getInclusions(ctu, each_inclusion, &d);
	verbose = d.ok && d.len ? search_list(index, tu) : NULL;
	if (verbose) {
		buf_add(&b, MAGIC, MAGIC_LEN);
		wire_put_str(&b, version_id());
		if (!put_lists(&b, &d, verbose)) {
			wire_put_u32(&b, (uint32_t)msg->len);
			buf_add(&b, msg->p, msg->len);
			EVP_Digest(b.p, b.len, md, NULL, EVP_sha256(), NULL);
			buf_add(&b, md, SHA_LEN);
			write_entry(dir, key, &b);
		}
	}
	tdestroy(d.seen, no_free);
	for (size_t i = 0; i < d.len; i++) {
		free(d.path[i]);
		free(d.hex[i]);
	}
	free(d.path);
	free(d.hex);
	free(verbose);
	buf_free(&b);
}
