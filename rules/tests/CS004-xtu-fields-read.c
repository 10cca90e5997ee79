/*
 * The reads of CS004-xtu-fields-store.c's fields: the name copied as
 * bytes, the level compared as a number; the signature nowhere (never
 * read keeps the finding: nothing shows it bytes).
 */
#include "xtu-table.h"

void xf_copy_name(char *out, const struct xf_table *t)
{
	strcpy(out, t->name);
}

int xf_level_negative(const struct xf_table *t)
{
	return t->level < 0;		/* expect: CS002 */
}

/* The name handed to a static helper that reads it as a number: the
 * join cannot see into it, so it counts as a number. */
static int xf_first_negative(const char *p)
{
	return p[0] < 0;			/* expect: CS002 */
}

int xf_other_name(const struct xf_other *o)
{
	return xf_first_negative(o->tag);
}

void xf_copy_tag(char *out, const struct xf_other *o)
{
	strcpy(out, o->tag);
}

void xf_copy_stateid(struct xf_stateid *d, const struct xf_stateid *s)
{
	memcpy(d->data, s->data, sizeof(d->data));
}

int xf_same_other(const struct xf_stateid *a, const struct xf_stateid *b)
{
	return !memcmp(a->other, b->other, sizeof(a->other));
}

unsigned int xf_seqid(const struct xf_stateid *s)
{
	return s->seqid;
}

int xf_hi_negative(const struct xf_pair *p)
{
	return p->hi < 0;			/* expect: CS002 */
}

void xf_copy_box(char *out, const struct xf_boxed *b)
{
	memcpy(out, b->raw, sizeof(b->raw));
}

int xf_in_negative(const struct xf_boxed *b)
{
	return b->in.x[0] < 0;			/* expect: CS002 */
}

/* Only b is read, as bytes: a, never read, keeps its store. */
void xf_copy_b(char *out, const struct xf_two *t)
{
	memcpy(out, t->b, sizeof(t->b));
}

int xf_same_id(const xf_id_t *x, const xf_id_t *y)
{
	return !memcmp(x->data, y->data, sizeof(x->data));
}
