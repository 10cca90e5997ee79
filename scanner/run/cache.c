/*
 * One entry per walk of a TU, DIR/<2 hex>/<key hex>, the key a SHA-256
 * of what decides the walk without reading a file (cache_key()).  The
 * entry holds the worker's message as it went over the wire (wire.c)
 * and what keeps it valid: the SHA-256 of every file the parse read
 * (libclang's inclusion list, hashed from the bytes libclang parsed, so
 * a file edited during the parse makes the entry stale, never wrong),
 * and what it takes to name every path that, created, would be found
 * before a header it read: libclang's own -v search list for the same
 * argv and who included whom.  core/shadow.c names those paths both
 * when the entry is written and when it is read, so the entry stays
 * small (a kernel TU has thousands of them).
 *
 *   "CSCACHE\n"  version  -v report  files (path, SHA-256 hex)...
 *   inclusions (file, includer)...  message  SHA-256 of all that
 *
 * Entries are written whole under a temporary name and renamed: shards
 * and concurrent scans share a folder without locks, a reader sees an
 * old entry or a new one.  One that is not whole, not ours or not of
 * this version is a miss with a note, never half used.  Content hashes,
 * not mtimes: a checkout that rewrites files unchanged costs nothing.
 * A scan hashes each file and asks after each path once (the memos in
 * struct scan_cache): thousands of TUs share their headers.
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
#include "entry.h"
#include "wire.h"

#define ENTRY_FORMAT	"4"

void entry_hex(const unsigned char *md, char *hex)
{
	for (int i = 0; i < SHA_LEN; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
}

#define MAX_BINARY (256u << 20)

/* The running binary's SHA-256 in hex, or "?" when it cannot be read:
 * a charscan built anew between two scans (its analysis changed, the
 * version not) finds none of the other's entries. */
static const char *binary_digest(void)
{
	static char hex[2 * SHA_LEN + 1];
	unsigned char md[SHA_LEN];
	const char *why;
	size_t len;
	char *exe;

	if (*hex)
		return hex;
	exe = read_input("/proc/self/exe", MAX_BINARY, &len, &why);
	if (!exe || !EVP_Digest(exe, len, md, NULL, EVP_sha256(), NULL)) {
		free(exe);
		return "?";
	}
	free(exe);
	entry_hex(md, hex);
	return hex;
}

const char *entry_version(void)
{
	static char *id;

	if (!id) {
		CXString v = clang_getClangVersion();

		id = xasprintf("charscan " CHARSCAN_VERSION "; %s; entry " ENTRY_FORMAT "; binary %s",
			       clang_getCString(v), binary_digest());
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
	add_str(md_ctx, entry_version());
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
	entry_hex(md, hex);
}

char *entry_path(const char *dir, const char *key)
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
void entry_seal(const void *data, size_t len, const char *key, unsigned char *md)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx)
		die("out of memory");
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, data, len);
	EVP_DigestUpdate(ctx, key, strlen(key));
	EVP_DigestFinal_ex(ctx, md, NULL);
	EVP_MD_CTX_free(ctx);
}

static const char *entry_open(struct cache_entry *e, const char *key)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	char *version;
	int foreign;

	if (e->len < MAGIC_LEN || memcmp(e->data, MAGIC, MAGIC_LEN))
		return "is not a charscan cache entry";
	e->r = (struct wire_reader){ e->data + MAGIC_LEN, e->data + e->len, 0 };
	version = wire_get_str(&e->r);
	foreign = !e->r.bad && version && strcmp(version, entry_version());
	free(version);
	if (foreign)
		return "was written by another version of charscan or libclang";
	if (e->len < MAGIC_LEN + SHA_LEN)
		return "is truncated or corrupt";
	entry_seal(e->data, e->len - SHA_LEN, key, md);
	if (e->r.bad || memcmp(md, e->data + e->len - SHA_LEN, SHA_LEN))
		return "is truncated or corrupt, or not this TU's";
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
static int entry_read(const char *path, const char *key, struct cache_entry *e,
		      const char **why)
{
	memset(e, 0, sizeof(*e));
	e->data = read_input(path, LIMIT_REPORT, &e->len, &e->io_why);
	if (!e->data) {
		if (errno == ENOENT)
			return -1;
		*why = "cannot be read";
		return -2;
	}
	if ((*why = entry_open(e, key))) {
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

int entry_by_path(const void *a, const void *b)
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
	entry_hex(md, hex);
	return n == 0;
}

static int same_bytes(struct scan_cache *c, const char *path, const char *hex)
{
	struct digest key = { (char *)path, 0, "" }, **slot;

	slot = tsearch(&key, &c->digests, entry_by_path);
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

	slot = tsearch(&key, &c->absents, entry_by_path);
	if (*slot == &key) {
		struct absent *a = xmalloc(sizeof(*a));

		a->path = xstrdup(path);
		a->absent = shadow_still_absent(path);
		*slot = a;
	}
	return (*slot)->absent;
}

void lists_free(struct lists *l)
{
	for (uint32_t i = 0; i < l->ndeps; i++) {
		free(l->dep[i]);
		free(l->hex[i]);
	}
	free(l->verbose);
	free(l->dep);
	free(l->hex);
	free(l->edge_dep);
	free(l->edge_inc);
	free(l->edge_readings);
	memset(l, 0, sizeof(*l));
}

/* 0, or -1 (l emptied) when they do not read back whole. */
static int lists_read(struct wire_reader *r, struct lists *l)
{
	uint32_t n;

	memset(l, 0, sizeof(*l));
	l->verbose = wire_get_str(r);
	n = wire_get_u32(r);
	if (r->bad || n > (size_t)(r->end - r->p) / 8)
		goto bad;
	l->dep = xcalloc(n + 1, sizeof(*l->dep));
	l->hex = xcalloc(n + 1, sizeof(*l->hex));
	for (l->ndeps = 0; l->ndeps < n && !r->bad; l->ndeps++) {
		l->dep[l->ndeps] = wire_get_str(r);
		l->hex[l->ndeps] = wire_get_str(r);
	}
	n = wire_get_u32(r);
	if (r->bad || n > (size_t)(r->end - r->p) / 12)
		goto bad;
	l->edge_dep = xcalloc(n + 1, sizeof(*l->edge_dep));
	l->edge_inc = xcalloc(n + 1, sizeof(*l->edge_inc));
	l->edge_readings = xcalloc(n + 1, sizeof(*l->edge_readings));
	for (l->nedges = 0; l->nedges < n && !r->bad; l->nedges++) {
		uint32_t dep = wire_get_u32(r), inc = wire_get_u32(r);

		l->edge_readings[l->nedges] = wire_get_u32(r);
		if (dep >= l->ndeps || (inc != NONE && inc >= l->ndeps))
			r->bad = 1;
		else {
			l->edge_dep[l->nedges] = l->dep[dep];
			l->edge_inc[l->nedges] = inc == NONE ? NULL : l->dep[inc];
		}
	}
	for (uint32_t i = 0; i < l->ndeps; i++)
		if (!l->dep[i] || !l->hex[i])
			r->bad = 1;
	if (!r->bad && l->verbose)
		return 0;
bad:
	r->bad = 1;
	lists_free(l);
	return -1;
}

struct shadow_check {
	struct scan_cache *c;
	char **deps;			/* sorted */
	size_t ndeps;
	int appeared;
};

/* A path that must still be absent; a file the parse read is covered
 * by its bytes (#include_next finds the one after it). */
static void check_shadow(const char *path, void *arg)
{
	struct shadow_check *s = arg;

	if (!s->appeared && !bsearch(&path, s->deps, s->ndeps, sizeof(*s->deps), entry_by_path) &&
	    !still_absent(s->c, path))
		s->appeared = 1;
}

/* 1 when every file is as the parse read it and no shadow appeared. */
static int entry_fresh(struct scan_cache *c, struct cache_entry *e, const struct tu *tu)
{
	struct lists l;
	struct shadow_check s = { c, NULL, 0, 0 };
	int fresh = 1;

	if (lists_read(&e->r, &l))
		return 0;
	for (uint32_t i = 0; i < l.ndeps && fresh; i++)
		fresh = same_bytes(c, l.dep[i], l.hex[i]);
	if (fresh) {
		s.deps = xmalloc((l.ndeps + 1) * sizeof(*s.deps));
		memcpy(s.deps, l.dep, l.ndeps * sizeof(*s.deps));
		s.ndeps = l.ndeps;
		qsort(s.deps, s.ndeps, sizeof(*s.deps), entry_by_path);
		fresh = !shadow_candidates(l.verbose, tu->directory, l.edge_dep, l.edge_inc,
					   l.edge_readings,
					   l.nedges, check_shadow, &s) && !s.appeared;
		free(s.deps);
	}
	lists_free(&l);
	return fresh;
}

int cache_lookup(struct scan_cache *c, const char *key, const struct tu *tu, struct buf *msg,
		 struct notices *n)
{
	char *path = entry_path(c->dir, key);
	const char *why = NULL;
	struct cache_entry e;
	int rc = entry_read(path, key, &e, &why), hit = 0;

	if (!rc && entry_fresh(c, &e, tu)) {
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
	struct lists l;
	int rc = entry_read(path, key, &e, &why);

	free(path);
	if (rc)
		return -1;
	rc = lists_read(&e.r, &l);
	for (uint32_t i = 0; !rc && i < l.ndeps; i++)
		fn(l.dep[i], arg);
	if (!rc)
		lists_free(&l);
	free(e.data);
	return rc;
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
