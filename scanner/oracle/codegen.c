/*
 * One TU through the codegen oracle: the entry's own argv (never a shell)
 * plus -S -gline-tables-only and each signedness, assembly to stdout;
 * functions paired by name and their instruction streams diffed; every
 * instruction's .loc line is "covered", and those of the instructions
 * outside the common subsequence are "changed", less the ones that only
 * moved (the same instruction deleted on one side, inserted on the
 * other).  A function that exists in one compile only has all its lines
 * changed.
 *
 * Results are cached per TU under a key of compiler, argv and the source
 * file's bytes; the entry also lists every file the compile read (its
 * -MD dependency file) with size and mtime, and a change to any of them
 * makes the entry stale; and every path that, created, would shadow a
 * header it read (core/shadow.c: from the compile's -v search list), and
 * whose appearance makes it stale too.  A cache entry that does not read back whole is
 * ignored, never half used.
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "asm.h"
#include "codegen.h"
#include "core/core.h"

#define CACHE_MAGIC "charscan-codegen 6"	/* a new normalisation: a new number */
#define MAX_EDITS 4000		/* per function; beyond it all is changed */
#define DETAIL_MAX 240

/* ---- interned paths ---------------------------------------------------- */

static void *interned;
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

const char *cg_intern(const char *path)
{
	char **slot;

	pthread_mutex_lock(&intern_lock);
	slot = tfind(path, &interned, cmp_str);
	if (!slot)
		slot = tsearch(xstrdup(path), &interned, cmp_str);
	pthread_mutex_unlock(&intern_lock);
	return *slot;
}

void cg_intern_free(void)
{
	tdestroy(interned, free);
	interned = NULL;
}

/* ---- line lists ---------------------------------------------------------- */

static struct cg_line *add_line(struct cg_lines *l, const char *path, unsigned line)
{
	struct cg_line *x;

	grow(&l->v, &l->cap, l->len + 1, sizeof(*l->v));
	x = &l->v[l->len++];
	memset(x, 0, sizeof(*x));
	x->path = path;
	x->line = line;
	return x;
}

static void append_detail(struct cg_line *x, char sign, const char *text)
{
	size_t have = x->detail ? strlen(x->detail) : 0;
	char *d;

	if (have >= DETAIL_MAX)
		return;
	d = xasprintf("%s%s%c%s", have ? x->detail : "", have ? " | " : "", sign, text);
	free(x->detail);
	x->detail = d;
}

static int cmp_line(const void *a, const void *b)
{
	const struct cg_line *x = a, *y = b;
	int c = x->path == y->path ? 0 : strcmp(x->path, y->path);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* x is the same line as into, from the other compile or another TU. */
static void fold(struct cg_line *into, struct cg_line *x)
{
	if (x->changed && !into->changed) {
		into->changed = 1;
		into->function = x->function;
		into->detail = x->detail;
		return;
	}
	if (x->changed && into->detail && x->detail && strlen(into->detail) < DETAIL_MAX &&
	    !strstr(into->detail, x->detail)) {
		char *d = xasprintf("%s | %s", into->detail, x->detail);

		free(into->detail);
		into->detail = d;
	}
	free(x->function);
	free(x->detail);
}

void cg_lines_finish(struct cg_lines *l)
{
	size_t n = 0;

	qsort(l->v, l->len, sizeof(*l->v), cmp_line);
	for (size_t i = 0; i < l->len; i++) {
		if (n && !cmp_line(&l->v[n - 1], &l->v[i]))
			fold(&l->v[n - 1], &l->v[i]);
		else
			l->v[n++] = l->v[i];
	}
	l->len = n;
}

const struct cg_line *cg_lines_find(const struct cg_lines *l, const char *path,
				    unsigned line)
{
	struct cg_line key = { .path = path, .line = line };

	return bsearch(&key, l->v, l->len, sizeof(*l->v), cmp_line);
}

void cg_lines_move(struct cg_lines *dst, struct cg_lines *src)
{
	if (src->len) {
		grow(&dst->v, &dst->cap, dst->len + src->len, sizeof(*dst->v));
		memcpy(dst->v + dst->len, src->v, src->len * sizeof(*src->v));
		dst->len += src->len;
	}
	free(src->v);
	memset(src, 0, sizeof(*src));
}

void cg_lines_free(struct cg_lines *l)
{
	for (size_t i = 0; i < l->len; i++) {
		free(l->v[i].function);
		free(l->v[i].detail);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- one function, one TU ---------------------------------------------- */

/* The TU's lines, first as (file index, line) per asm file table. */
struct tu_lines {
	struct cg_lines lines;
	const struct asm_unit *u;
};

static void mark(struct tu_lines *t, const struct insn *in, int changed, char sign,
		 const char *fn)
{
	const char *path;
	struct cg_line *x;

	if (!in->line || in->file >= t->u->nfiles || !t->u->files[in->file])
		return;
	path = cg_intern(t->u->files[in->file]);
	/* Runs of one line are common: fold into the last entry. */
	x = t->lines.len && t->lines.v[t->lines.len - 1].path == path &&
	    t->lines.v[t->lines.len - 1].line == in->line ? &t->lines.v[t->lines.len - 1]
							  : add_line(&t->lines, path, in->line);
	if (!changed)
		return;
	if (!x->changed) {
		x->changed = 1;
		free(x->function);
		x->function = xstrdup(fn);
	}
	append_detail(x, sign, in->text);
}

static uint64_t *hashes(const struct asm_func *f)
{
	uint64_t *h = xmalloc((f ? f->len : 0) * sizeof(*h) + 1);

	for (size_t i = 0; f && i < f->len; i++)
		h[i] = f->v[i].hash;
	return h;
}

struct marked {
	uint64_t hash;
	size_t at;
};

static int cmp_marked(const void *x, const void *y)
{
	const struct marked *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* The marked elements of h, sorted by hash (then place). */
static struct marked *marked_list(const uint64_t *h, const unsigned char *mark, size_t n,
				  size_t *len)
{
	struct marked *v = xmalloc((n + 1) * sizeof(*v));

	*len = 0;
	for (size_t i = 0; i < n; i++)
		if (mark[i])
			v[(*len)++] = (struct marked){ h[i], i };
	qsort(v, *len, sizeof(*v), cmp_marked);
	return v;
}

/*
 * An instruction deleted in one compile and inserted, the same, in the
 * other was moved (scheduled elsewhere), not changed: unmark such pairs,
 * so that what stays marked is what differs.
 */
static void unmark_moves(const uint64_t *ha, unsigned char *del, size_t n,
			 const uint64_t *hb, unsigned char *ins, size_t m)
{
	size_t la, lb, i = 0, j = 0;
	struct marked *a = marked_list(ha, del, n, &la), *b = marked_list(hb, ins, m, &lb);

	while (i < la && j < lb) {
		if (a[i].hash < b[j].hash) {
			i++;
		} else if (a[i].hash > b[j].hash) {
			j++;
		} else {
			del[a[i++].at] = 0;
			ins[b[j++].at] = 0;
		}
	}
	free(a);
	free(b);
}

static void diff_function(struct tu_lines *ts, struct tu_lines *tu_, const char *name,
			  const struct asm_func *a, const struct asm_func *b)
{
	size_t n = a ? a->len : 0, m = b ? b->len : 0;
	uint64_t *ha = hashes(a), *hb = hashes(b);
	unsigned char *del = xmalloc(n + 1), *ins = xmalloc(m + 1);

	seqdiff(ha, n, hb, m, del, ins, MAX_EDITS);
	unmark_moves(ha, del, n, hb, ins, m);
	for (size_t i = 0; i < n; i++)
		mark(ts, &a->v[i], del[i], '-', name);
	for (size_t j = 0; j < m; j++)
		mark(tu_, &b->v[j], ins[j], '+', name);
	free(ha);
	free(hb);
	free(del);
	free(ins);
}

static void diff_units(const struct asm_unit *s, const struct asm_unit *u,
		       struct cg_lines *out)
{
	struct tu_lines ts = { .u = s }, tu_ = { .u = u };
	struct cg_lines local = { 0 };

	for (size_t i = 0; i < s->nfn; i++)
		diff_function(&ts, &tu_, s->fn[i].name, &s->fn[i], asm_find(u, s->fn[i].name));
	for (size_t j = 0; j < u->nfn; j++)
		if (!asm_find(s, u->fn[j].name))
			diff_function(&ts, &tu_, u->fn[j].name, NULL, &u->fn[j]);
	cg_lines_move(&local, &ts.lines);
	cg_lines_move(&local, &tu_.lines);
	cg_lines_finish(&local);
	cg_lines_move(out, &local);
}

/* ---- compiling --------------------------------------------------------- */

static const char *compiler_of(const struct tu *tu, const struct cg_opts *o)
{
	const char *base = strrchr(tu->cc_argv[0], '/');

	if (o->compiler)
		return o->compiler;
	base = base ? base + 1 : tu->cc_argv[0];
	return strstr(base, "clang") ? tu->cc_argv[0] : "clang";
}

/* argv for one signedness: the build's own compile, writing nothing but
 * the assembly to stdout (and our dependency file), ours last. */
static char **signed_argv(const struct tu *tu, const char *cc, const char *sign,
			  const char *depfile)
{
	char **av = compile_argv(tu, 12);
	int n = 0;

	while (av[n])
		n++;
	av[0] = (char *)cc;
	av[n++] = "-S";
	av[n++] = "-gline-tables-only";
	av[n++] = (char *)sign;
	av[n++] = "-o";
	av[n++] = "-";
	if (depfile) {		/* for the cache: what it read, where it searched */
		av[n++] = "-v";
		av[n++] = "-MD";
		av[n++] = "-MF";
		av[n++] = (char *)depfile;
	}
	return av;
}

/* The compiler's first "error:" line, or its first line. */
static char *first_error(const char *text, const char *fallback)
{
	const char *e = text ? strstr(text, "error:") : NULL, *start, *end;

	if (!e)
		return xstrdup(fallback);
	for (start = e; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(e, '\n');
	return xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

/* verbose: if not NULL, the compiler's standard error on success. */
static int compile(char **argv, const char *dir, const struct spawn_limits *lim,
		   struct asm_unit *u, char **verbose, char **err)
{
	char *out, *errtext = NULL, *why = NULL;
	size_t len;
	int rc = spawn_limited(argv, dir, lim, &out, &len, &errtext, &why);

	if (rc) {
		*err = rc == SPAWN_LATE ? xstrdup(why) : first_error(errtext, why);
		free(errtext);
		free(why);
		return rc;
	}
	if (verbose)
		*verbose = errtext;
	else
		free(errtext);
	asm_parse(out, dir, u);
	free(out);
	return 0;
}

/* ---- the cache ---------------------------------------------------------- */

static char *cache_key(const struct tu *tu, const char *cc)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen;
	char *hex, *src;
	size_t len = 0;
	/* Not blocked by a FIFO in the source file's place: only a regular
	 * file's bytes are read (the compile of anything else is bounded
	 * by --tu-timeout). */
	int fd = open(tu->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	EVP_DigestUpdate(ctx, cc, strlen(cc) + 1);
	for (int i = 1; tu->cc_argv[i]; i++)
		EVP_DigestUpdate(ctx, tu->cc_argv[i], strlen(tu->cc_argv[i]) + 1);
	if (f) {
		src = read_all(f, &len);
		EVP_DigestUpdate(ctx, src, len);
		free(src);
		fclose(f);
	} else if (fd >= 0) {
		close(fd);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	hex = xmalloc(2 * mdlen + 1);
	for (unsigned i = 0; i < mdlen; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return hex;
}

/* A make-style dependency file's prerequisites, one callback each. */
static void each_dep(const char *text, void (*fn)(const char *path, void *), void *arg)
{
	const char *s = strchr(text ? text : "", ':');
	char *word = xmalloc(strlen(text ? text : "") + 1), *w = word;

	for (s = s ? s + 1 : ""; ; s++) {
		if (*s == '\\' && s[1] == '\n') {
			s++;
			continue;
		}
		if (*s == '\\' && s[1] == ' ') {
			*w++ = *++s;
			continue;
		}
		if (!*s || *s == ' ' || *s == '\t' || *s == '\n') {
			*w = '\0';
			if (w > word)
				fn(word, arg);
			w = word;
			if (!*s)
				break;
			continue;
		}
		*w++ = *s;
	}
	free(word);
}

struct entry_writer {
	FILE *f;
	const char *dir;
	char **deps;
	size_t ndeps, cap;
	int ok;
};

static void write_dep(const char *dep, void *arg)
{
	struct entry_writer *w = arg;
	char *path = join_path(w->dir, dep);
	struct stat st;

	if (stat(path, &st) || strpbrk(path, "\t\n"))
		w->ok = 0;
	else
		fprintf(w->f, "dep\t%lld\t%ld\t%lld\t%s\n", (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec, (long long)st.st_size, path);
	grow(&w->deps, &w->cap, w->ndeps + 1, sizeof(*w->deps));
	w->deps[w->ndeps++] = path;
}

static void write_absent(const char *path, void *arg)
{
	struct entry_writer *w = arg;

	if (strpbrk(path, "\t\n"))
		w->ok = 0;
	else
		fprintf(w->f, "absent\t%s\n", path);
}

static void cache_write(const char *cache_dir, const char *key, const struct tu *tu,
			const char *deps, const char *verbose, const struct cg_lines *l,
			size_t from)
{
	char *path = xasprintf("%s/%s", cache_dir, key), *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	struct entry_writer w = { .dir = tu->directory, .ok = fd >= 0 };

	if (fd >= 0 && (w.f = fdopen(fd, "w"))) {
		fprintf(w.f, "%s\n", CACHE_MAGIC);
		each_dep(deps, write_dep, &w);
		if (shadow_paths(verbose, tu->directory, w.deps, w.ndeps, write_absent, &w))
			w.ok = 0;
		for (size_t i = from; i < l->len && w.ok; i++) {
			const struct cg_line *x = &l->v[i];

			if (strpbrk(x->path, "\t\n"))
				w.ok = 0;
			fprintf(w.f, "line\t%u\t%u\t%s\t%s\t%s\n", x->line, x->changed,
				x->function ? x->function : "", x->detail ? x->detail : "", x->path);
		}
		fputs("end\n", w.f);
		w.ok &= !ferror(w.f);
		w.ok &= !fclose(w.f);
	}
	for (size_t i = 0; i < w.ndeps; i++)
		free(w.deps[i]);
	free(w.deps);
	if (w.ok && !rename(tmp, path))
		tmp[0] = '\0';
	if (tmp[0])
		unlink(tmp);
	free(tmp);
	free(path);
}

static char *field(char **s)
{
	char *f = *s, *tab = strchr(f, '\t');

	if (tab) {
		*tab = '\0';
		*s = tab + 1;
	} else {
		*s = f + strlen(f);
	}
	return f;
}

static int dep_fresh(char *rest)
{
	long long sec = atoll(field(&rest)), size;
	long nsec = atol(field(&rest));
	struct stat st;

	size = atoll(field(&rest));
	return !stat(rest, &st) && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec &&
	       st.st_size == size;
}

static int read_line_entry(char *rest, struct cg_lines *l)
{
	unsigned line = (unsigned)atol(field(&rest)), changed = (unsigned)atol(field(&rest));
	char *fn = field(&rest), *detail = field(&rest);
	struct cg_line *x;

	if (!*rest || !line)
		return -1;
	x = add_line(l, cg_intern(rest), line);
	x->changed = changed;
	if (changed) {
		x->function = xstrdup(fn);
		x->detail = xstrdup(detail);
	}
	return 0;
}

/* 1 when a whole, fresh entry was read into out; 0 otherwise. */
static int cache_read(const char *cache_dir, const char *key, struct cg_lines *out)
{
	char *path = xasprintf("%s/%s", cache_dir, key), *text, *s, *nl;
	const char *why;
	struct cg_lines l = { 0 };
	int ok = 0;

	text = read_input(path, LIMIT_REPORT, NULL, &why);
	free(path);
	if (!text)
		return 0;
	s = text;
	if (strncmp(s, CACHE_MAGIC "\n", sizeof(CACHE_MAGIC)))
		goto out;
	for (s += sizeof(CACHE_MAGIC); (nl = strchr(s, '\n')); s = nl + 1) {
		*nl = '\0';
		if (!strcmp(s, "end")) {
			ok = !nl[1];
			break;
		}
		if (!strncmp(s, "dep\t", 4) ? !dep_fresh(s + 4) :
		    !strncmp(s, "absent\t", 7) ? !shadow_still_absent(s + 7) :
		    !strncmp(s, "line\t", 5) ? read_line_entry(s + 5, &l) : 1)
			break;
	}
out:
	free(text);
	if (ok)
		cg_lines_move(out, &l);
	cg_lines_free(&l);
	return ok;
}

/* ---- the TU ------------------------------------------------------------- */

int codegen_tu(const struct tu *tu, const struct cg_opts *o, struct cg_lines *out,
	       char **err)
{
	const char *cc = compiler_of(tu, o);
	char *key = o->cache_dir ? cache_key(tu, cc) : NULL;
	char depfile[] = "/tmp/charscan-dep.XXXXXX";
	struct asm_unit s, u;
	char **av_s, **av_u, *deps = NULL, *verbose = NULL;
	int fd, rc;
	size_t from = out->len;

	if (key && cache_read(o->cache_dir, key, out)) {
		free(key);
		return 0;
	}
	if (key) {
		/* Named now, written by the compiler, read back by name. */
		if ((fd = mkstemp(depfile)) < 0)
			die("mkstemp: %s", strerror(errno));
		close(fd);
	}
	av_s = signed_argv(tu, cc, "-fsigned-char", key ? depfile : NULL);
	av_u = signed_argv(tu, cc, "-funsigned-char", NULL);
	if (!(rc = compile(av_s, tu->directory, &o->lim, &s, key ? &verbose : NULL, err))) {
		if (!(rc = compile(av_u, tu->directory, &o->lim, &u, NULL, err))) {
			diff_units(&s, &u, out);
			asm_free(&u);
		}
		asm_free(&s);
	}
	if (key && !rc) {
		FILE *f = fopen(depfile, "r");

		if (f) {
			deps = read_all(f, NULL);
			fclose(f);
			cache_write(o->cache_dir, key, tu, deps, verbose, out, from);
		}
	}
	if (key)
		unlink(depfile);
	free(deps);
	free(verbose);
	free(av_s);
	free(av_u);
	free(key);
	return rc;
}
