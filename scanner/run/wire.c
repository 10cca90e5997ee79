/*
 * Fields in a fixed order, integers as 32-bit host order, strings with
 * a length (~0 for NULL).  The message ends with a trailer, so a worker
 * killed half-way is told from one that finished.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "wire.h"

#define TRAILER 0x43534557u	/* "WESC" */


void wire_put_u32(struct buf *b, uint32_t v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	wire_put_u32(b, s ? (uint32_t)n : UINT32_MAX);
	if (s)
		buf_add(b, s, n);
}

static void put_loc(struct buf *b, const struct loc *l)
{
	wire_put_str(b, l->path);
	wire_put_u32(b, l->line);
	wire_put_u32(b, l->col);
	wire_put_u32(b, l->end_line);
	wire_put_u32(b, l->end_col);
	wire_put_u32(b, l->ucol);
	wire_put_u32(b, l->end_ucol);
}

static void put_finding(struct buf *b, const struct finding *x)
{
	wire_put_u32(b, x->rule);
	put_loc(b, &x->loc);
	wire_put_str(b, x->message);
	wire_put_str(b, x->function);
	wire_put_str(b, x->snippet);
	wire_put_str(b, x->operand);
	wire_put_u32(b, x->expanded_line);
	wire_put_u32(b, x->breaks);
	wire_put_u32(b, x->confidence);
	wire_put_str(b, x->origin);
	wire_put_u32(b, x->pass);
	wire_put_u32(b, x->nrelated);
	for (int i = 0; i < x->nrelated; i++) {
		put_loc(b, &x->related[i].loc);
		wire_put_str(b, x->related[i].message);
		wire_put_str(b, x->related[i].label);
	}
	wire_put_u32(b, x->has_fix);
	if (x->has_fix) {
		put_loc(b, &x->fix.loc);
		wire_put_str(b, x->fix.text);
		wire_put_str(b, x->fix.deleted);
		wire_put_str(b, x->fix.description);
	}
}

void wire_put(struct buf *b, const struct findings *f, const struct notices *n,
	      const struct xrecs *x, unsigned failed)
{
	wire_put_u32(b, failed);
	wire_put_u32(b, (uint32_t)n->len);
	for (size_t i = 0; i < n->len; i++) {
		wire_put_str(b, n->v[i].level);
		wire_put_str(b, n->v[i].path);
		wire_put_str(b, n->v[i].message);
	}
	wire_put_u32(b, (uint32_t)f->len);
	for (size_t i = 0; i < f->len; i++)
		put_finding(b, &f->v[i]);
	wire_put_u32(b, (uint32_t)x->len);
	for (size_t i = 0; i < x->len; i++) {
		char *line = xrec_line(&x->v[i]);

		wire_put_str(b, line);
		free(line);
	}
	wire_put_u32(b, TRAILER);
}

/* ---- reading: every read checks what is left ------------------------ */

uint32_t wire_get_u32(struct wire_reader *r)
{
	uint32_t v = 0;

	if (r->end - r->p < (ptrdiff_t)sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

char *wire_get_str(struct wire_reader *r)
{
	uint32_t n = wire_get_u32(r);
	char *s;

	if (n == UINT32_MAX || r->bad)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	s = xstrndup(r->p, n);
	r->p += n;
	return s;
}

/* A string every reader of a finding dereferences: NULL is a broken message. */
static char *get_needed(struct wire_reader *r)
{
	char *s = wire_get_str(r);

	if (!s)
		r->bad = 1;
	return s;
}

static void get_loc(struct wire_reader *r, struct loc *l)
{
	l->path = get_needed(r);
	l->line = wire_get_u32(r);
	l->col = wire_get_u32(r);
	l->end_line = wire_get_u32(r);
	l->end_col = wire_get_u32(r);
	l->ucol = wire_get_u32(r);
	l->end_ucol = wire_get_u32(r);
}

static void get_finding(struct wire_reader *r, struct finding *x)
{
	uint32_t rule = wire_get_u32(r), nrelated, conf;

	x->rule = rule < NR_RULES ? (enum rule_id)rule : (r->bad = 1, 0);
	get_loc(r, &x->loc);
	x->message = get_needed(r);
	x->function = wire_get_str(r);
	x->snippet = wire_get_str(r);
	x->operand = wire_get_str(r);
	x->expanded_line = wire_get_u32(r);
	x->breaks = (enum breaks)(wire_get_u32(r) & BREAKS_EITHER);
	conf = wire_get_u32(r);
	x->confidence = conf < NR_CONFIDENCES ? (enum confidence)conf : (r->bad = 1, CONF_NONE);
	x->origin = wire_get_str(r);
	x->pass = wire_get_u32(r) != 0;
	nrelated = wire_get_u32(r);
	if (nrelated > MAX_RELATED) {
		nrelated = 0;
		r->bad = 1;
	}
	x->nrelated = (int)nrelated;
	for (int i = 0; i < x->nrelated; i++) {
		char *label;

		get_loc(r, &x->related[i].loc);
		x->related[i].message = get_needed(r);
		label = wire_get_str(r);
		x->related[i].label = related_label(label);
		free(label);
	}
	x->has_fix = wire_get_u32(r) != 0;
	if (x->has_fix) {
		get_loc(r, &x->fix.loc);
		x->fix.text = get_needed(r);
		x->fix.deleted = get_needed(r);
		x->fix.description = get_needed(r);
	}
}

int wire_get(const struct buf *b, struct findings *f, struct notices *n, struct xrecs *x,
	     unsigned *failed)
{
	struct wire_reader r = { b->p, b->p + b->len, 0 };
	struct findings fs = { 0 };
	struct notices ns = { 0 };
	struct xrecs xs = { 0 };
	uint32_t count;

	*failed = wire_get_u32(&r);
	count = wire_get_u32(&r);
	for (uint32_t i = 0; i < count && !r.bad; i++) {
		struct notice *x;

		grow(&ns.v, &ns.cap, ns.len + 1, sizeof(*ns.v));
		x = &ns.v[ns.len++];
		x->level = get_needed(&r);
		x->path = wire_get_str(&r);
		x->message = get_needed(&r);
	}
	count = wire_get_u32(&r);
	for (uint32_t i = 0; i < count && !r.bad; i++)
		get_finding(&r, findings_add(&fs));
	count = wire_get_u32(&r);
	for (uint32_t i = 0; i < count && !r.bad; i++) {
		char *line = get_needed(&r);

		grow(&xs.v, &xs.cap, xs.len + 1, sizeof(*xs.v));
		if (line && !xrec_parse(line, &xs.v[xs.len]))
			xs.len++;
		else
			r.bad = 1;
		free(line);
	}
	if (wire_get_u32(&r) != TRAILER || r.p != r.end)
		r.bad = 1;
	if (r.bad) {
		findings_free(&fs);
		notices_free(&ns);
		xrecs_free(&xs);
		return -1;
	}
	findings_move(f, &fs);
	notices_move(n, &ns);
	xrecs_move(x, &xs, NULL);
	return 0;
}
