/*
 * A guard on an int: arch/x86/boot/video.c stores `key = getchar()`
 * into its char buffer only under
 *
 *	(key >= '0' && key <= '9') || (key >= 'A' && key <= 'Z') || ...
 *
 * An int can hold any value, not only the 256 a char's byte gives, so
 * the guard is judged on sets of values: each comparison of the value
 * with a constant is a set of intervals, && their intersection, || their
 * union, ! the complement.  Anything else is unknown: it may be true or
 * false for any value.  The condition lets only 0..127 through when the
 * values for which it can be (true, or false, as taken) all lie there.
 */
#include <limits.h>
#include "core/core.h"
#include "walk.h"

#define MAX_SPANS 16

struct set {
	long long lo[MAX_SPANS], hi[MAX_SPANS];	/* sorted, disjoint, closed */
	int n;
};

/* When the condition can be true (t) and when false (f). */
struct truth_sets {
	struct set t, f;
};

static void set_all(struct set *s)
{
	s->lo[0] = LLONG_MIN;
	s->hi[0] = LLONG_MAX;
	s->n = 1;
}

static void add_span(struct set *s, long long lo, long long hi)
{
	if (lo > hi)
		return;
	if (s->n == MAX_SPANS) {	/* too fine: widen the last one */
		s->hi[s->n - 1] = LLONG_MAX;
		return;
	}
	s->lo[s->n] = lo;
	s->hi[s->n++] = hi;
}

static void intersect(const struct set *a, const struct set *b, struct set *r)
{
	r->n = 0;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
			add_span(r, a->lo[i] > b->lo[j] ? a->lo[i] : b->lo[j],
				 a->hi[i] < b->hi[j] ? a->hi[i] : b->hi[j]);
}

static void complement(const struct set *a, struct set *r)
{
	long long from = LLONG_MIN;
	int open = 1;

	r->n = 0;
	for (int i = 0; i < a->n && open; i++) {
		if (a->lo[i] > from)
			add_span(r, from, a->lo[i] - 1);
		open = a->hi[i] < LLONG_MAX;
		from = open ? a->hi[i] + 1 : from;
	}
	if (open)
		add_span(r, from, LLONG_MAX);
}

/* Merged in order; too many spans widen the last: more values, never
 * fewer. */
static void unite(const struct set *a, const struct set *b, struct set *r)
{
	int i = 0, j = 0;

	r->n = 0;
	while (i < a->n || j < b->n) {
		int from_a = j >= b->n || (i < a->n && a->lo[i] <= b->lo[j]);
		long long lo = from_a ? a->lo[i] : b->lo[j], hi = from_a ? a->hi[i++] : b->hi[j++];

		if (r->n && (r->hi[r->n - 1] == LLONG_MAX || lo <= r->hi[r->n - 1] + 1)) {
			if (hi > r->hi[r->n - 1])
				r->hi[r->n - 1] = hi;
		} else {
			add_span(r, lo, hi);
		}
	}
}

/* value OP k (k OP value when mirrored) as a set. */
static void compare_set(enum op op, long long k, struct set *s)
{
	s->n = 0;
	switch (op) {
	case OP_LT: if (k > LLONG_MIN) add_span(s, LLONG_MIN, k - 1); break;
	case OP_LE: add_span(s, LLONG_MIN, k); break;
	case OP_GT: if (k < LLONG_MAX) add_span(s, k + 1, LLONG_MAX); break;
	case OP_GE: add_span(s, k, LLONG_MAX); break;
	case OP_EQ: add_span(s, k, k); break;
	case OP_NE: {
		struct set eq = { { k }, { k }, 1 };

		complement(&eq, s);
		break;
	}
	default: set_all(s);
	}
}

#define MAX_DEPTH 32

static void eval(struct walk *w, int i, const char *key, struct truth_sets *r, int depth)
{
	const struct tree *t = &w->t;
	const struct node *n;
	struct truth_sets a, b;
	long long k;

	set_all(&r->t);
	set_all(&r->f);
	i = strip_implicit(t, i);
	if (i < 0 || depth > MAX_DEPTH)
		return;
	n = &t->n[i];
	if (n->kind == CXCursor_UnaryOperator && n->op == OP_LNOT) {
		eval(w, child(t, i, 0), key, &a, depth + 1);
		r->t = a.f;
		r->f = a.t;
	} else if (n->kind == CXCursor_BinaryOperator && (n->op == OP_LAND || n->op == OP_LOR)) {
		eval(w, child(t, i, 0), key, &a, depth + 1);
		eval(w, child(t, i, 1), key, &b, depth + 1);
		if (n->op == OP_LAND) {
			intersect(&a.t, &b.t, &r->t);
			unite(&a.f, &b.f, &r->f);
		} else {
			unite(&a.t, &b.t, &r->t);
			intersect(&a.f, &b.f, &r->f);
		}
	} else if (n->kind == CXCursor_BinaryOperator && op_is_compare(n->op)) {
		for (int side = 0; side < 2; side++) {
			if (!key_at(w, child(t, i, side), key) ||
			    !eval_const(t, child(t, i, !side), &k))
				continue;
			compare_set(side ? op_mirror(n->op) : n->op, k, &r->t);
			complement(&r->t, &r->f);
			return;
		}
	}
}

int keeps_int_ascii(struct walk *w, int cond, const char *key, int want)
{
	struct truth_sets r;
	const struct set *s;

	eval(w, cond, key, &r, 0);
	s = want ? &r.t : &r.f;
	for (int i = 0; i < s->n; i++)
		if (s->lo[i] < 0 || s->hi[i] > 0x7f)
			return 0;
	return 1;
}
