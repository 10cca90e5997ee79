/*
 * The join of the field records (analysis/fields.c): which plain char
 * fields and global variables every write the scan saw keeps in 0..127,
 * and so which findings on their reads go.  A field is settled when
 * the scan saw it written, no write is unknown, its struct is never
 * filled from raw bytes, and every field it is copied from is settled
 * too: the largest such set, so that fields copied from each other in
 * a circle (scsi_device's and scsi_target's scsi_level) settle
 * together.  What the scan does not see (a TU outside the database, a
 * write through a pointer it cannot follow) it cannot count: the
 * settled findings say how many writes they rest on.
 */
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "core/core.h"

struct field {
	const char *key;
	unsigned writes;
	int bad;
	const char **copies;
	size_t ncopies;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct field *)a)->key, ((const struct field *)b)->key);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static struct field *find(struct field *v, size_t n, const char *key)
{
	struct field k = { .key = key };

	return bsearch(&k, v, n, sizeof(*v), by_key);
}

/* The struct a field's USR belongs to (c:@S@s@FI@f: c:@S@s) filled
 * from raw bytes somewhere? */
static int raw_struct(const char **raw, size_t nraw, const char *key)
{
	const char *fi = NULL;
	char *rec;
	int hit;

	for (const char *p = strstr(key, "@FI@"); p; p = strstr(p + 1, "@FI@"))
		fi = p;
	if (!fi || !nraw)
		return 0;
	rec = xstrndup(key, (size_t)(fi - key));
	hit = bsearch(&rec, raw, nraw, sizeof(*raw), by_str) != NULL;
	free(rec);
	return hit;
}

/* One entry per field written, sorted by key. */
static struct field *fields_written(const struct xrecs *r, size_t *n)
{
	struct field *v = xcalloc(r->len + 1, sizeof(*v));
	const char **raw = xcalloc(r->len + 1, sizeof(*raw));
	size_t nraw = 0, out = 0;

	*n = 0;
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == X_WRITE && r->v[i].arg == XW_RAW)
			raw[nraw++] = r->v[i].name;
		else if (r->v[i].kind == X_WRITE)
			v[(*n)++].key = r->v[i].name;
	qsort(raw, nraw, sizeof(*raw), by_str);
	qsort(v, *n, sizeof(*v), by_key);
	for (size_t i = 0; i < *n; i++)
		if (!out || strcmp(v[out - 1].key, v[i].key))
			v[out++].key = v[i].key;
	*n = out;
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i];
		struct field *f;

		if (x->kind != X_WRITE || x->arg == XW_RAW || !(f = find(v, out, x->name)))
			continue;
		f->writes++;
		f->bad |= x->arg == XW_UNKNOWN || x->arg >= NR_XWRITES;
		if (x->arg == XW_COPY) {
			f->copies = xrealloc(f->copies, (f->ncopies + 1) * sizeof(*f->copies));
			f->copies[f->ncopies++] = x->text ? x->text : "";
		}
	}
	for (size_t i = 0; i < out; i++)
		v[i].bad |= raw_struct(raw, nraw, v[i].key);
	free(raw);
	return v;
}

/* Unsettle each field copied from one that is not settled, until
 * nothing changes. */
static void settle(struct field *v, size_t n)
{
	for (int changed = 1; changed; ) {
		changed = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; !v[i].bad && k < v[i].ncopies; k++) {
				struct field *from = find(v, n, v[i].copies[k]);

				if (!from || from->bad)
					v[i].bad = changed = 1;
			}
	}
}

void xtu_plan_fields(struct xtu_plan *p, const struct xrecs *r)
{
	size_t n;
	struct field *v = fields_written(r, &n);

	settle(v, n);
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i];
		struct field *f;

		if (x->kind != X_READ || !x->loc.path || !(f = find(v, n, x->name)) || f->bad)
			continue;
		p->settled = xrealloc(p->settled, (p->nsettled + 1) * sizeof(*p->settled));
		p->nwrites = xrealloc(p->nwrites, (p->nsettled + 1) * sizeof(*p->nwrites));
		p->settled[p->nsettled] = x;
		p->nwrites[p->nsettled++] = f->writes;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].copies);
	free(v);
}

/* The settled read at f's place and rule, or -1. */
static long settled_at(const struct xtu_plan *p, const struct finding *f)
{
	for (size_t i = 0; i < p->nsettled; i++) {
		const struct xrec *x = p->settled[i];

		if (x->arg == (unsigned)f->rule && x->loc.line == f->loc.line &&
		    x->loc.col == f->loc.col && !strcmp(x->loc.path, f->loc.path ? f->loc.path : ""))
			return (long)i;
	}
	return -1;
}

/* Findings on settled fields: passes with explain, else gone. */
void xtu_drop_settled(struct findings *f, const struct xtu_plan *p)
{
	unsigned char *drop;
	int any = 0;

	if (!p->nsettled)
		return;
	drop = xcalloc(f->len + 1, 1);
	for (size_t i = 0; i < f->len; i++) {
		struct finding *x = &f->v[i];
		long k = x->pass ? -1 : settled_at(p, x);

		if (k < 0)
			continue;
		if (!p->explain) {
			drop[i] = any = 1;
			continue;
		}
		finding_make_pass(x, xasprintf("'%s': every write the scan sees of %s (%u) "
					       "stores 0..127: the same value either way",
					       x->operand ? x->operand : "value",
					       p->settled[k]->text, p->nwrites[k]));
	}
	if (any)
		findings_drop(f, drop);
	free(drop);
}
