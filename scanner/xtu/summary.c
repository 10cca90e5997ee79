/*
 * Cross-TU summaries: the records, their one-line text form (the wire
 * and the store share it) and the plan that joins them.  Functions are
 * matched by name: C has one namespace for external linkage, and a name
 * defined in two TUs of a database (two programs, two configurations)
 * is left alone.  The store that keeps records between a sharded scan
 * and its merge is xstore.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "core/core.h"

struct xrec *xrecs_add(struct xrecs *r, char kind, const char *name)
{
	struct xrec *x;

	grow(&r->v, &r->cap, r->len + 1, sizeof(*r->v));
	x = &r->v[r->len++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->name = name ? xstrdup(name) : NULL;
	return x;
}

static int is_set(char kind)
{
	return kind == X_DEF || kind == X_CALL;
}

uint64_t xname_hash(const char *name)
{
	return fnv1a(name, strlen(name));
}

/* Where h is, or goes, in the ascending set. */
static size_t set_slot(const struct xrec *x, uint64_t h)
{
	size_t lo = 0, hi = x->nset;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x->set[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int set_has(const struct xrec *x, uint64_t h)
{
	size_t k = set_slot(x, h);

	return k < x->nset && x->set[k] == h;
}

void xrecs_add_name(struct xrecs *r, char kind, const char *name)
{
	uint64_t h = xname_hash(name);
	struct xrec *x = NULL;
	size_t k;

	for (size_t i = 0; i < r->len && !x; i++)
		if (r->v[i].kind == kind)
			x = &r->v[i];
	if (!x)
		x = xrecs_add(r, kind, NULL);
	k = set_slot(x, h);
	if (k < x->nset && x->set[k] == h)
		return;
	grow(&x->set, &x->setcap, x->nset + 1, sizeof(*x->set));
	memmove(x->set + k + 1, x->set + k, (x->nset - k) * sizeof(*x->set));
	x->set[k] = h;
	x->nset++;
}

void xrec_free(struct xrec *x)
{
	free(x->tu);
	free(x->name);
	free(x->set);
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

/* A set: its hashes in hex, ascending, comma-separated. */
static void put_set(struct line *l, const struct xrec *x)
{
	put(l, "\t", 1);
	for (size_t i = 0; i < x->nset; i++) {
		char n[24];

		snprintf(n, sizeof(n), "%s%016llx", i ? "," : "", (unsigned long long)x->set[i]);
		put(l, n, strlen(n));
	}
}

char *xrec_line(const struct xrec *x)
{
	struct line l = { 0 };
	char kind[2] = { x->kind, 0 };

	put(&l, kind, 1);
	put_field(&l, x->tu);
	if (is_set(x->kind)) {
		put_set(&l, x);
		return l.p;
	}
	put_field(&l, x->name);
	if (x->kind != X_DEF && x->kind != X_CALL) {
		put_uint(&l, x->arg);
		put_field(&l, x->text);
		put_field(&l, x->loc.path);
		put_uint(&l, x->loc.line);
		put_uint(&l, x->loc.col);
		put_uint(&l, x->loc.end_line);
		put_uint(&l, x->loc.end_col);
	}
	if (x->kind == X_RET || (x->kind == X_ARG && x->d))
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

/* A set's hashes: 16 hex digits each, strictly ascending. */
static int parse_set(const char *s, struct xrec *x)
{
	while (*s) {
		char *end;
		unsigned long long h;

		if (strspn(s, "0123456789abcdef") != 16)
			return -1;
		errno = 0;
		h = strtoull(s, &end, 16);
		if (errno || end - s != 16 || (*end && *end != ',') || (*end && !end[1]) ||
		    (x->nset && h <= x->set[x->nset - 1]))
			return -1;
		grow(&x->set, &x->setcap, x->nset + 1, sizeof(*x->set));
		x->set[x->nset++] = h;
		s = *end ? end + 1 : end;
	}
	return x->nset ? 0 : -1;
}

/* D and C have 3 fields, A, W and F 10 (A 11 for a computed value),
 * R 11. */
int xrec_parse(char *line, struct xrec *x)
{
	char *f[12];
	int n = split_fields(line, f, 12), want;

	memset(x, 0, sizeof(*x));
	if (n < 3 || strlen(f[0]) != 1 || !strchr("DARCWFGP", f[0][0]) || !*f[2])
		return -1;
	x->kind = f[0][0];
	want = x->kind == X_RET ? 11 : is_set(x->kind) ? 3 : 10;
	if (n != want && !(x->kind == X_ARG && n == 11))
		return -1;
	x->tu = *f[1] ? xstrdup(f[1]) : NULL;
	if (is_set(x->kind)) {
		if (parse_set(f[2], x))
			goto bad;
		return 0;
	}
	x->name = xstrdup(f[2]);
	if (n > 3) {
		x->text = xstrdup(f[4]);
		x->loc.path = xstrdup(f[5]);
		if (uint_field(f[3], &x->arg) || !*f[5] || uint_field(f[6], &x->loc.line) ||
		    uint_field(f[7], &x->loc.col) || uint_field(f[8], &x->loc.end_line) || uint_field(f[9], &x->loc.end_col))
			goto bad;
		if ((x->kind == X_WRITE && x->arg >= NR_XWRITES) ||
		    (x->kind == X_READ && x->arg >= NR_RULES))
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

/* The returners, sorted by name and TU. */
static const struct xrec **returners(const struct xrecs *r, size_t *n)
{
	const struct xrec **v = xcalloc(r->len + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == X_RET && r->v[i].tu)
			v[(*n)++] = &r->v[i];
	qsort(v, *n, sizeof(*v), by_name);
	return v;
}

/* A name with external linkage, and a TU that defines it. */
struct def {
	uint64_t h;
	const char *tu;
};

static int by_hash(const void *a, const void *b)
{
	const struct def *x = a, *y = b;

	return x->h != y->h ? (x->h < y->h ? -1 : 1) : strcmp(x->tu, y->tu);
}

/* Every D set's names with their TU, sorted. */
static struct def *definitions(const struct xrecs *r, size_t *n)
{
	struct def *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i];

		if (x->kind != X_DEF || !x->tu)
			continue;
		grow(&v, &cap, *n + x->nset + 1, sizeof(*v));
		for (size_t k = 0; k < x->nset; k++)
			v[(*n)++] = (struct def){ x->set[k], x->tu };
	}
	if (*n)
		qsort(v, *n, sizeof(*v), by_hash);
	return v;
}

/* The one TU that defines the name hashed h, or NULL (none, or several). */
static const char *defined_in(const struct def *defs, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (defs[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || defs[lo].h != h)
		return NULL;
	for (size_t m = lo + 1; m < n && defs[m].h == h; m++)
		if (strcmp(defs[m].tu, defs[lo].tu))
			return NULL;
	return defs[lo].tu;
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

/* A widened char, or a value computed from one, passed into a body in
 * another TU: judged there, and the caller's CS010 note goes. */
static void plan_escape(struct xtu_plan *p, const struct tu_index *ix, const struct def *defs,
			size_t ndef, const struct xrec *x, int explain)
{
	const char *def = defined_in(defs, ndef, xname_hash(x->name));
	struct xtu_ctx *c;

	if (!def || !strcmp(def, x->tu))
		return;
	if (!x->d)		/* a computed value has no note to drop */
		push(&p->drop, &p->ndrop, x);
	if ((c = ctx_of(p, ix, p->ntus, def)))
		push(&c->seeds, &c->nseeds, x);
	if ((!x->d || explain) && (c = ctx_of(p, ix, p->ntus, x->tu)))
		push(&c->resolved, &c->nresolved, x);
}

/* A widened char returned to callers in other TUs: each TU whose C set
 * names a returner defined once, elsewhere, follows it. */
static void plan_returns(struct xtu_plan *p, const struct tu_index *ix, const struct def *defs,
			 size_t ndef, const struct xrecs *r)
{
	size_t nret, n = 0;
	const struct xrec **rets = returners(r, &nret);
	uint64_t *h = xcalloc(nret + 1, sizeof(*h));

	for (size_t i = 0; i < nret; i++) {
		const char *def = defined_in(defs, ndef, xname_hash(rets[i]->name));

		if ((n && !strcmp(rets[n - 1]->name, rets[i]->name)) || !def ||
		    strcmp(def, rets[i]->tu))
			continue;
		h[n] = xname_hash(rets[i]->name);
		rets[n++] = rets[i];
	}
	for (size_t i = 0; n && i < r->len; i++) {
		const struct xrec *x = &r->v[i];
		struct xtu_ctx *c;

		if (x->kind != X_CALL || !x->tu || !(c = ctx_of(p, ix, p->ntus, x->tu)))
			continue;
		for (size_t k = 0; k < n; k++)
			if (strcmp(rets[k]->tu, x->tu) && set_has(x, h[k]))
				push(&c->rets, &c->nrets, rets[k]);
	}
	free(h);
	free(rets);
}

void xtu_plan(const struct xrecs *r, const struct compdb *db, int explain, struct xtu_plan *p)
{
	size_t ndef, ntu = db ? db->len : 0;
	struct def *defs = definitions(r, &ndef);
	struct tu_index *ix = xcalloc(ntu + 1, sizeof(*ix));

	memset(p, 0, sizeof(*p));
	p->ntus = ntu;
	p->ctx = xcalloc(ntu + 1, sizeof(*p->ctx));
	for (size_t i = 0; i < ntu; i++)
		ix[i] = (struct tu_index){ db->tu[i].file, i };
	qsort(ix, ntu, sizeof(*ix), by_file);
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == X_ARG && r->v[i].tu)
			plan_escape(p, ix, defs, ndef, &r->v[i], explain);
	plan_returns(p, ix, defs, ndef, r);
	p->explain = explain;
	xtu_plan_fields(p, r);
	xtu_plan_buffers(p, r);
	for (size_t i = 0; i < ntu; i++)
		p->busy += xtu_busy(&p->ctx[i]);
	free(ix);
	free(defs);
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
	free(p->settled);
	free(p->unsettled);
	free(p->bytes);
	free(p->bytes_calls);
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
	xtu_drop_settled(f, p);
	xtu_explain_unsettled(f, p);
	xtu_drop_buffers(f, p);
}
