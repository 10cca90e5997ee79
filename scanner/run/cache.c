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

/* An entry's lists: libclang's -v report, the files read, and who
 * included whom (indices into dep; NONE for the source file). */
#define NONE UINT32_MAX

struct lists {
	char *verbose;
	char **dep, **hex;
	uint32_t ndeps;
	char **edge_dep, **edge_inc;	/* dep's strings */
	uint32_t nedges;
};

static void lists_free(struct lists *l)
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
	if (r->bad || n > (size_t)(r->end - r->p) / 8)
		goto bad;
	l->edge_dep = xcalloc(n + 1, sizeof(*l->edge_dep));
	l->edge_inc = xcalloc(n + 1, sizeof(*l->edge_inc));
	for (l->nedges = 0; l->nedges < n && !r->bad; l->nedges++) {
		uint32_t dep = wire_get_u32(r), inc = wire_get_u32(r);

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

	if (!s->appeared && !bsearch(&path, s->deps, s->ndeps, sizeof(*s->deps), by_path) &&
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
		qsort(s.deps, s.ndeps, sizeof(*s.deps), by_path);
		fresh = !shadow_candidates(l.verbose, tu->directory, l.edge_dep, l.edge_inc,
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
	int rc = entry_read(path, &e, &why), hit = 0;

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
	int rc = entry_read(path, &e, &why);

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

/* ---- an entry written, in the worker ------------------------------------ */

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
 * libclang cannot give them. */
static uint32_t intern(struct deps *d, CXFile file)
{
	CXString name = clang_getFileName(file);
	unsigned char md[EVP_MAX_MD_SIZE];
	size_t size = 0;
	const char *text = clang_getFileContents(d->ctu, file, &size);
	struct seen key, **slot, *x;

	if (!clang_getCString(name) || !text) {
		clang_disposeString(name);
		d->ok = 0;		/* read, but not to be checked later */
		return NONE;
	}
	key.path = fold_path(join_path(d->dir, clang_getCString(name)));
	clang_disposeString(name);
	slot = tsearch(&key, &d->seen, by_path);
	if (*slot != &key) {
		free(key.path);
		return (*slot)->index;
	}
	*slot = x = xmalloc(sizeof(*x));
	x->path = key.path;
	x->index = d->l.ndeps;
	grow(&d->l.dep, &d->cap, d->l.ndeps + 1, sizeof(*d->l.dep));
	d->l.hex = xrealloc(d->l.hex, d->cap * sizeof(*d->l.hex));
	d->l.dep[x->index] = x->path;
	d->l.hex[x->index] = xmalloc(HEX_LEN + 1);
	EVP_Digest(text, size, md, NULL, EVP_sha256(), NULL);
	to_hex(md, d->l.hex[d->l.ndeps++]);
	return x->index;
}

static void each_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData arg)
{
	struct deps *d = arg;
	uint32_t dep = intern(d, file), inc = NONE;
	CXFile includer = NULL;

	if (depth) {
		clang_getFileLocation(stack[0], &includer, NULL, NULL, NULL);
		inc = includer ? intern(d, includer) : NONE;
		if (inc == NONE)
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

/* The entry's lists; -1 when there are too many paths to check later. */
static int put_lists(struct buf *b, struct deps *d)
{
	char **dep = xcalloc(d->l.nedges + 1, sizeof(*dep));
	char **inc = xcalloc(d->l.nedges + 1, sizeof(*inc));
	int rc;

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
		dep[i] = d->l.dep[d->edge_dep[i]];
		inc[i] = d->edge_inc[i] == NONE ? NULL : d->l.dep[d->edge_inc[i]];
	}
	/* What a lookup will ask: not too much. */
	rc = shadow_candidates(d->l.verbose, d->dir, dep, inc, d->l.nedges, no_shadow_check, NULL);
	free(dep);
	free(inc);
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
		wire_put_str(&b, version_id());
		if (!put_lists(&b, &d)) {
			wire_put_u32(&b, (uint32_t)msg->len);
			buf_add(&b, msg->p, msg->len);
			EVP_Digest(b.p, b.len, md, NULL, EVP_sha256(), NULL);
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
