/*
 * Cross-TU summaries: the records, their one-line text form (the wire
 * and the store share it), the plan that joins them, and the store a
 * sharded scan leaves for its merge.  Functions are matched by name: C
 * has one namespace for external linkage, and a name defined in two TUs
 * of a database (two programs, two configurations) is left alone.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "summary.h"
#include "util.h"

#define STORE_MAGIC "charscan-summaries"
#define STORE_VERSION 1

struct xrec *xrecs_add(struct xrecs *r, char kind, const char *name)
{
	struct xrec *x;

	grow(&r->v, &r->cap, r->len + 1, sizeof(*r->v));
	x = &r->v[r->len++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->name = xstrdup(name);
	return x;
}

static void xrec_free(struct xrec *x)
{
	free(x->tu);
	free(x->name);
	free(x->text);
	free(x->loc.path);
	free(x->d);
}

void xrecs_move(struct xrecs *dst, struct xrecs *src, const char *tu)
{
	for (size_t i = 0; i < src->len; i++) {
		grow(&dst->v, &dst->cap, dst->len + 1, sizeof(*dst->v));
		dst->v[dst->len] = src->v[i];
		if (tu) {
			free(dst->v[dst->len].tu);
			dst->v[dst->len].tu = xstrdup(tu);
		}
		dst->len++;
	}
	free(src->v);
	memset(src, 0, sizeof(*src));
}

void xrecs_free(struct xrecs *r)
{
	for (size_t i = 0; i < r->len; i++)
		xrec_free(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* ---- one record, one line ------------------------------------------------ */

struct line {
	char *p;
	size_t len, cap;
};

static void put(struct line *l, const char *s, size_t n)
{
	grow(&l->p, &l->cap, l->len + n + 1, 1);
	memcpy(l->p + l->len, s, n);
	l->len += n;
	l->p[l->len] = 0;
}

/* A field: tab first, then the text with \, tab and newline escaped. */
static void put_field(struct line *l, const char *s)
{
	put(l, "\t", 1);
	for (; s && *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : NULL;

		put(l, e ? e : s, e ? 2 : 1);
	}
}

static void put_uint(struct line *l, unsigned long long v)
{
	char n[24];

	snprintf(n, sizeof(n), "%llu", v);
	put_field(l, n);
}

/* A value, and a comma unless it is the last. */
static void put_val(struct line *l, val_t v, int last)
{
	char n[32];

	snprintf(n, sizeof(n), "%s%llu%s", v < 0 ? "-" : "",
		 (unsigned long long)(v < 0 ? -v : v), last ? "" : ",");
	put(l, n, strlen(n));
}

static void put_domain(struct line *l, const struct domain *d)
{
	put(l, "\t", 1);
	for (int b = 0; b < 256; b++)
		put_val(l, d->s[b], 0);
	for (int b = 0; b < 256; b++)
		put_val(l, d->u[b], b == 255);
}

char *xrec_line(const struct xrec *x)
{
	struct line l = { 0 };
	char kind[2] = { x->kind, 0 };

	put(&l, kind, 1);
	put_field(&l, x->tu);
	put_field(&l, x->name);
	if (x->kind == X_ARG || x->kind == X_RET) {
		put_uint(&l, x->arg);
		put_field(&l, x->text);
		put_field(&l, x->loc.path);
		put_uint(&l, x->loc.line);
		put_uint(&l, x->loc.col);
		put_uint(&l, x->loc.end_line);
		put_uint(&l, x->loc.end_col);
	}
	if (x->kind == X_RET)
		put_domain(&l, x->d);
	return l.p;
}

/* Split a line at its tabs (escaped ones are "\\t") and unescape each
 * field in place; the number of fields, or -1 if more than max. */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *s = line; s; ) {
		char *tab = strchr(s, '\t'), *in, *out;

		if (n == max)
			return -1;
		if (tab)
			*tab = 0;
		f[n++] = s;
		for (in = out = s; *in; in++)
			if (*in == '\\' && in[1]) {
				in++;
				*out++ = *in == 't' ? '\t' : *in == 'n' ? '\n' : *in;
			} else {
				*out++ = *in;
			}
		*out = 0;
		s = tab ? tab + 1 : NULL;
	}
	return n;
}

static int uint_field(const char *f, unsigned *v)
{
	char *end;
	unsigned long n;

	if (!*f)
		return -1;
	errno = 0;
	n = strtoul(f, &end, 10);
	if (*end || errno || n > 0xffffffffUL)
		return -1;
	*v = (unsigned)n;
	return 0;
}

static int parse_domain(char *s, struct domain *d)
{
	for (int i = 0; i < 512; i++) {
		int neg = *s == '-';
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(s + neg, &end, 10);
		if (end == s + neg || errno || *end != (i < 511 ? ',' : '\0'))
			return -1;
		(i < 256 ? d->s : d->u)[i & 255] = neg ? -(val_t)v : (val_t)v;
		s = end + 1;
	}
	return 0;
}

/* D and C have 3 fields, A 10, R 11. */
int xrec_parse(char *line, struct xrec *x)
{
	char *f[12];
	int n = split_fields(line, f, 12), want;

	memset(x, 0, sizeof(*x));
	if (n < 3 || strlen(f[0]) != 1 || !strchr("DARC", f[0][0]) || !*f[2])
		return -1;
	x->kind = f[0][0];
	want = x->kind == X_ARG ? 10 : x->kind == X_RET ? 11 : 3;
	if (n != want)
		return -1;
	x->tu = *f[1] ? xstrdup(f[1]) : NULL;
	x->name = xstrdup(f[2]);
	if (n > 3) {
		x->text = xstrdup(f[4]);
		x->loc.path = xstrdup(f[5]);
		if (uint_field(f[3], &x->arg) || !*f[5] || uint_field(f[6], &x->loc.line) ||
		    uint_field(f[7], &x->loc.col) || uint_field(f[8], &x->loc.end_line) || uint_field(f[9], &x->loc.end_col))
			goto bad;
	}
	if (n > 10) {
		x->d = xmalloc(sizeof(*x->d));
		if (parse_domain(f[10], x->d))
			goto bad;
	}
	return 0;
bad:
	xrec_free(x);
	memset(x, 0, sizeof(*x));
	return -1;
}

/* ---- the plan -------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	const struct xrec *x = *(const struct xrec *const *)a, *y = *(const struct xrec *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->tu ? x->tu : "", y->tu ? y->tu : "");
}

/* The records of one kind, sorted by name and TU. */
static const struct xrec **of_kind(const struct xrecs *r, char kind, size_t *n)
{
	const struct xrec **v = xcalloc(r->len + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == kind && r->v[i].tu)
			v[(*n)++] = &r->v[i];
	qsort(v, *n, sizeof(*v), by_name);
	return v;
}

/* The index of the first record named name in sorted v, or n. */
static size_t lookup(const struct xrec **v, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(v[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo]->name, name) ? lo : n;
}

/* The one TU that defines name, or NULL (none, or several). */
static const char *defined_in(const struct xrec **defs, size_t n, const char *name)
{
	size_t k = lookup(defs, n, name);

	if (k == n)
		return NULL;
	for (size_t m = k + 1; m < n && !strcmp(defs[m]->name, name); m++)
		if (strcmp(defs[m]->tu, defs[k]->tu))
			return NULL;
	return defs[k]->tu;
}

struct tu_index {
	const char *file;
	size_t i;
};

static int by_file(const void *a, const void *b)
{
	return strcmp(((const struct tu_index *)a)->file, ((const struct tu_index *)b)->file);
}

static struct xtu_ctx *ctx_of(struct xtu_plan *p, const struct tu_index *ix, size_t n,
			      const char *file)
{
	struct tu_index key = { file, 0 }, *hit;

	hit = bsearch(&key, ix, n, sizeof(*ix), by_file);
	return hit ? &p->ctx[hit->i] : NULL;
}

static void push(const struct xrec ***v, size_t *n, const struct xrec *x)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = x;
}

void xtu_plan(const struct xrecs *r, const struct compdb *db, struct xtu_plan *p)
{
	size_t ndef, nret, ntu = db ? db->len : 0;
	const struct xrec **defs = of_kind(r, X_DEF, &ndef), **rets = of_kind(r, X_RET, &nret);
	struct tu_index *ix = xcalloc(ntu + 1, sizeof(*ix));

	memset(p, 0, sizeof(*p));
	p->ntus = ntu;
	p->ctx = xcalloc(ntu + 1, sizeof(*p->ctx));
	for (size_t i = 0; i < ntu; i++)
		ix[i] = (struct tu_index){ db->tu[i].file, i };
	qsort(ix, ntu, sizeof(*ix), by_file);
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i];
		const char *def;
		size_t ret;
		struct xtu_ctx *c;

		if (!x->tu || (x->kind != X_ARG && x->kind != X_CALL))
			continue;
		def = defined_in(defs, ndef, x->name);
		if (!def || !strcmp(def, x->tu))
			continue;
		if (x->kind == X_ARG) {
			push(&p->drop, &p->ndrop, x);
			if ((c = ctx_of(p, ix, ntu, def)))
				push(&c->seeds, &c->nseeds, x);
			if ((c = ctx_of(p, ix, ntu, x->tu)))
				push(&c->resolved, &c->nresolved, x);
		} else if ((ret = lookup(rets, nret, x->name)) < nret &&
			   !strcmp(rets[ret]->tu, def) && (c = ctx_of(p, ix, ntu, x->tu))) {
			push(&c->rets, &c->nrets, rets[ret]);
		}
	}
	for (size_t i = 0; i < ntu; i++)
		p->busy += xtu_busy(&p->ctx[i]);
	free(ix);
	free(defs);
	free(rets);
}

void xtu_plan_free(struct xtu_plan *p)
{
	for (size_t i = 0; i < p->ntus; i++) {
		free(p->ctx[i].seeds);
		free(p->ctx[i].resolved);
		free(p->ctx[i].rets);
	}
	free(p->ctx);
	free(p->drop);
	memset(p, 0, sizeof(*p));
}

int xtu_busy(const struct xtu_ctx *c)
{
	return c->nseeds || c->nresolved || c->nrets;
}

int xtu_resolved(const struct xtu_ctx *c, const char *name, unsigned arg)
{
	for (size_t i = 0; c && i < c->nresolved; i++)
		if (c->resolved[i]->arg == arg && !strcmp(c->resolved[i]->name, name))
			return 1;
	return 0;
}

static int not_dropped(const struct finding *f, void *arg)
{
	const struct xtu_plan *p = arg;

	if (f->rule != CS010 || f->pass)
		return 1;
	for (size_t i = 0; i < p->ndrop; i++) {
		const struct loc *l = &p->drop[i]->loc;

		if (l->line == f->loc.line && l->col == f->loc.col &&
		    !strcmp(l->path, f->loc.path ? f->loc.path : ""))
			return 0;
	}
	return 1;
}

void xtu_drop(struct findings *f, const struct xtu_plan *p)
{
	if (p->ndrop)
		findings_filter(f, not_dropped, (void *)p);
}

/* ---- the store --------------------------------------------------------------- */

uint64_t xstore_key(const struct compdb *db, const void *opts, size_t optsize)
{
	uint64_t h = fnv1a(opts, optsize);

	for (size_t i = 0; i < db->len; i++)
		h = h * 1099511628211ULL ^ fnv1a(db->tu[i].file, strlen(db->tu[i].file) + 1);
	return h;
}

int xstore_write(const char *dir, unsigned k, unsigned n, uint64_t key,
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
	fprintf(f, "%s\t%d\t%u\t%u\t%016llx\n", STORE_MAGIC, STORE_VERSION, k, n,
		(unsigned long long)key);
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
static int read_shard(const char *path, uint64_t *key, unsigned *k, unsigned *n,
		      struct xrecs *r, char **err)
{
	FILE *f = fopen(path, "r");
	char *text, *line, *next;
	size_t count = 0, len, first = r->len;
	int version, rc = -1, ended = 0;
	unsigned long long h;

	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	text = read_all(f, &len);
	if (ferror(f) || strlen(text) != len) {
		*err = xasprintf("%s: unreadable or not text", path);
		goto out;
	}
	line = text;
	next = strchr(line, '\n');
	if (!next || (*next = 0, sscanf(line, STORE_MAGIC "\t%d\t%u\t%u\t%llx", &version, k, n,
					&h) != 4) || version != STORE_VERSION) {
		*err = xasprintf("%s: not a charscan %d summary store", path, STORE_VERSION);
		goto out;
	}
	*key = h;
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
	fclose(f);
	return rc;
}

int xstore_read(const char *dir, uint64_t key, struct xrecs *r, char **err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned char *seen = NULL;
	unsigned total = 0, found = 0;
	int rc = -1;
	uint64_t first_key = 0;

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
		if (read_shard(path, &h, &hk, &hn, r, err)) {
			char *why = *err;

			*err = xasprintf("summary store %s", why);
			free(why);
			free(path);
			goto out;
		}
		free(path);
		if (hk != k || hn != n || !k || k > n || (total && n != total) ||
		    (found && h != first_key) || (key && h != key)) {
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
	closedir(d);
	return rc;
}
