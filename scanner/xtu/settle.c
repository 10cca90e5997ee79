/*
 * The join of the field records (analysis/fields.c): which plain char
 * fields and global variables every write the scan saw keeps in 0..127,
 * and so which findings on their reads go.  A field is settled when
 * the scan saw it written, no write is unknown, its struct is never
 * filled from raw bytes, and every field it is copied from is settled
 * too: the largest such set, so that fields copied from each other in
 * a circle (scsi_device's and scsi_target's scsi_level) settle
 * together.  A struct zeroed whole (kzalloc()) writes 0 to every
 * field; const tables are written by their initializer.  What the scan
 * does not see (a TU outside the database, a write through a pointer it
 * cannot follow) it cannot count: the settled findings say how many
 * writes they rest on.  The findings on fields that stay unsettled get
 * the write that keeps them as their origin; a user's byte or a
 * constant outside 0..127 makes them high.
 */
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "core/core.h"

struct field {
	const char *key;
	unsigned writes;
	int bad;
	const struct xrec *why;		/* the write that unsettles it */
	const struct xrec **copies;	/* XW_COPY: text is the field copied */
	size_t ncopies;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct field *)a)->key, ((const struct field *)b)->key);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct xrec *const *)a)->name, (*(const struct xrec *const *)b)->name);
}

static struct field *find(struct field *v, size_t n, const char *key)
{
	struct field k = { .key = key };

	return bsearch(&k, v, n, sizeof(*v), by_key);
}

/* How strongly a write keeps its field from settling, and says why:
 * a user's byte over a constant outside 0..127 over raw bytes over an
 * unknown value over a copy of a field not settled. */
static const int why_rank[NR_XWRITES] = {
	[XW_COPY] = 1, [XW_UNKNOWN] = 2, [XW_RAW] = 3, [XW_HIGH] = 4, [XW_USER] = 5,
};

static const struct xrec *stronger(const struct xrec *a, const struct xrec *b)
{
	return !a || (b && why_rank[b->arg] > why_rank[a->arg]) ? b : a;
}

static int is_whole(unsigned how)
{
	return how == XW_RAW || how == XW_USER || how == XW_ZERO;
}

/* The records of the struct a field's USR belongs to (c:@S@s@FI@f:
 * c:@S@s) filled whole: the strongest reason among them (NULL: none),
 * and in *zeroed whether one zeroes it. */
static const struct xrec *whole_struct(const struct xrec **whole, size_t nwhole, const char *key,
				       int *zeroed)
{
	const char *fi = NULL;
	const struct xrec *why = NULL;
	size_t lo = 0, hi = nwhole;
	char *rec;

	*zeroed = 0;
	for (const char *p = strstr(key, "@FI@"); p; p = strstr(p + 1, "@FI@"))
		fi = p;
	if (!fi)
		return NULL;
	rec = xstrndup(key, (size_t)(fi - key));
	while (lo < hi) {		/* the first record of the struct */
		size_t mid = (lo + hi) / 2;

		if (strcmp(whole[mid]->name, rec) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nwhole && !strcmp(whole[lo]->name, rec); lo++)
		if (whole[lo]->arg == XW_ZERO)
			*zeroed = 1;
		else
			why = stronger(why, whole[lo]);
	free(rec);
	return why;
}

/* One entry per field written, sorted by key; the structs filled whole
 * in *wholep (sorted by name, *nwholep of them). */
static struct field *fields_written(const struct xrecs *r, size_t *n, const struct xrec ***wholep,
				    size_t *nwholep)
{
	struct field *v = xcalloc(r->len + 1, sizeof(*v));
	const struct xrec **whole = xcalloc(r->len + 1, sizeof(*whole));
	size_t nwhole = 0, out = 0;
	int zeroed;

	*n = 0;
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == X_WRITE && is_whole(r->v[i].arg))
			whole[nwhole++] = &r->v[i];
		else if (r->v[i].kind == X_WRITE)
			v[(*n)++].key = r->v[i].name;
	qsort(whole, nwhole, sizeof(*whole), by_name);
	qsort(v, *n, sizeof(*v), by_key);
	for (size_t i = 0; i < *n; i++)
		if (!out || strcmp(v[out - 1].key, v[i].key))
			v[out++].key = v[i].key;
	*n = out;
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i];
		struct field *f;

		if (x->kind != X_WRITE || is_whole(x->arg) || x->arg >= NR_XWRITES ||
		    !(f = find(v, out, x->name)))
			continue;
		f->writes++;
		if (x->arg != XW_ASCII && x->arg != XW_COPY)
			f->why = stronger(f->why, x);
		if (x->arg == XW_COPY) {
			f->copies = xrealloc(f->copies, (f->ncopies + 1) * sizeof(*f->copies));
			f->copies[f->ncopies++] = x;
		}
	}
	for (size_t i = 0; i < out; i++) {
		v[i].why = stronger(v[i].why, whole_struct(whole, nwhole, v[i].key, &zeroed));
		v[i].bad = v[i].why != NULL;
	}
	*wholep = whole;
	*nwholep = nwhole;
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
				const struct xrec *c = v[i].copies[k];
				struct field *from = find(v, n, c->text ? c->text : "");

				if (!from || from->bad) {
					v[i].bad = changed = 1;
					v[i].why = c;
				}
			}
	}
}

static void add_read(struct field_read **v, size_t *n, size_t *cap, struct field_read r)
{
	grow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = r;
}

static int loc_cmp(const struct loc *a, const char *apath, unsigned arule, const struct loc *b,
		   const char *bpath, unsigned brule)
{
	int c = strcmp(apath, bpath);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return arule < brule ? -1 : arule > brule;
}

static int by_place(const void *a, const void *b)
{
	const struct xrec *x = ((const struct field_read *)a)->read;
	const struct xrec *y = ((const struct field_read *)b)->read;

	return loc_cmp(&x->loc, x->loc.path, x->arg, &y->loc, y->loc.path, y->arg);
}

void xtu_plan_fields(struct xtu_plan *p, const struct xrecs *r)
{
	size_t scap = 0, ucap = 0;
	size_t n, nwhole;
	const struct xrec **whole;
	struct field *v = fields_written(r, &n, &whole, &nwhole);

	settle(v, n);
	for (size_t i = 0; i < r->len; i++) {
		const struct xrec *x = &r->v[i], *why;
		struct field *f;
		int zeroed;

		if (x->kind != X_READ || !x->loc.path)
			continue;
		f = find(v, n, x->name);
		/* Written nowhere but whole: zeroed only is settled (0). */
		why = f ? f->why : whole_struct(whole, nwhole, x->name, &zeroed);
		if (why || (!f && !zeroed))
			add_read(&p->unsettled, &p->nunsettled, &ucap,
				 (struct field_read){ x, why, f ? f->writes : 0 });
		else
			add_read(&p->settled, &p->nsettled, &scap,
				 (struct field_read){ x, NULL, f ? f->writes : 1 });
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].copies);
	free(v);
	free(whole);
	/* A header's finding is read in every TU that includes it. */
	if (p->nsettled)
		qsort(p->settled, p->nsettled, sizeof(*p->settled), by_place);
	if (p->nunsettled)
		qsort(p->unsettled, p->nunsettled, sizeof(*p->unsettled), by_place);
}

/* The read among v[0..n) (sorted by place) at f's place and rule, or
 * NULL. */
static const struct field_read *read_at(const struct field_read *v, size_t n,
					const struct finding *f)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct xrec *x = v[mid].read;
		int c = loc_cmp(&x->loc, x->loc.path, x->arg, &f->loc,
				f->loc.path ? f->loc.path : "", (unsigned)f->rule);

		if (!c)
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
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
		const struct field_read *k = x->pass ? NULL : read_at(p->settled, p->nsettled, x);

		if (!k)
			continue;
		if (!p->explain) {
			drop[i] = any = 1;
			continue;
		}
		finding_make_pass(x, xasprintf("'%s': every write the scan sees of %s (%u) "
					       "stores 0..127: the same value either way",
					       x->operand ? x->operand : "value",
					       k->read->text, k->writes));
	}
	if (any)
		findings_drop(f, drop);
	free(drop);
}

/* The key of a union's plain char members (analysis/xbuffers.c), its
 * USR, an offset and "#chars" at end: c:@U@u@0#chars is "union u",
 * c:@S@rec@Ua@120#chars (an anonymous one) "a union in struct rec", as
 * is c:@SA@rec@Ua@120#chars (in a typedef'd anonymous struct). */
static char *union_words(const char *usr, const char *end)
{
	const char *u = NULL, *s = NULL, *e;

	for (const char *p = usr; (p = strchr(p, '@')) && p < end; p++) {
		if (p[1] == 'U')
			u = p;
		else if (p[1] == 'S' && p[2] == '@')
			s = p + 3;
		else if (p[1] == 'S' && p[2] == 'A' && p[3] == '@')
			s = p + 4;
	}
	if (u && u[2] == '@' && (e = strchr(u + 3, '@')) && e <= end)
		return xasprintf("union %.*s (as plain char)", (int)(e - u - 3), u + 3);
	if (!s || !(e = strchr(s, '@')) || e > end)
		return xstrdup("a union (as plain char)");
	return xasprintf("a union in struct %.*s (as plain char)", (int)(e - s), s);
}

/* A field's or global's USR in words: c:@S@cork@FI@priority is "field
 * 'priority' of struct cork", c:@g or c:file.c@g "variable 'g'". */
char *usr_words(const char *usr)
{
	const char *fi = strstr(usr, "@FI@"), *rec = NULL, *at, *chars = strstr(usr, "#chars");

	if (chars && !chars[6])
		return union_words(usr, chars);
	if (!fi)
		return xasprintf("variable '%s'", (at = strrchr(usr, '@')) ? at + 1 : usr);
	for (const char *p = usr; (p = strchr(p, '@')) && p < fi; p++)
		if (p[1] == 'S' || p[1] == 'U')
			rec = p;
	if (!rec || !(at = strchr(rec + 1, '@')) || at >= fi)
		return xasprintf("field '%s'", fi + 4);
	return xasprintf("field '%s' of %s %.*s", fi + 4, rec[1] == 'S' ? "struct" : "union",
			 (int)(fi - at - 1), at + 1);
}

/* A finding on a field that is not settled: its origin says why, and a
 * constant outside 0..127 written there makes it certain. */
static void say_why(struct finding *f, const struct xrec *read, const struct xrec *why)
{
	free(f->origin);
	if (!why) {
		f->origin = xasprintf("%s: no write of it in the scan, its bytes come from "
				      "memory charscan does not see written", read->text);
		return;
	}
	switch (why->arg) {
	case XW_HIGH:
		f->origin = xasprintf("%s: written %s at %s:%u", read->text, why->text,
				      base_name(why->loc.path), why->loc.line);
		f->confidence = CONF_HIGH;
		if (f->level)
			f->level = confidence_levels[CONF_HIGH];
		break;
	case XW_COPY: {
		char *from = usr_words(why->text ? why->text : "");

		f->origin = xasprintf("%s: a copy of %s at %s:%u, not every write of which "
				      "stores 0..127", read->text, from, base_name(why->loc.path),
				      why->loc.line);
		free(from);
		break;
	}
	case XW_USER:
		f->origin = xasprintf("%s: the struct is filled from user space at %s:%u", read->text,
				      base_name(why->loc.path), why->loc.line);
		f->confidence = CONF_HIGH;
		if (f->level)
			f->level = confidence_levels[CONF_HIGH];
		break;
	case XW_RAW:
		f->origin = xasprintf("%s: the struct is filled from raw bytes at %s:%u", read->text,
				      base_name(why->loc.path), why->loc.line);
		break;
	default:
		f->origin = xasprintf("%s: written a value charscan cannot bound at %s:%u",
				      read->text, base_name(why->loc.path), why->loc.line);
	}
}

/* Findings on fields that are not settled: what keeps each. */
void xtu_explain_unsettled(struct findings *f, const struct xtu_plan *p)
{
	for (size_t i = 0; p->nunsettled && i < f->len; i++) {
		const struct field_read *k = f->v[i].pass ? NULL :
					     read_at(p->unsettled, p->nunsettled, &f->v[i]);

		/* Sure already (a store of a constant): its own origin. */
		if (k && f->v[i].confidence != CONF_HIGH)
			say_why(&f->v[i], k->read, k->why);
	}
}
