/*
 * Carriers: the local integer variables every write of which is a plain
 * char (or a constant), and the callee parameters a char is passed to,
 * whose reads carry the char's two meanings (p4.c's "j").  Found before
 * a declaration's values are followed; the checks only look them up.
 */
#include <stdlib.h>
#include <string.h>
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

int find_carrier(struct walk *w, CXCursor decl)
{
	for (size_t k = 0; k < w->ncar; k++)
		if (clang_equalCursors(w->car[k].decl, decl))
			return (int)k;
	return -1;
}

int referenced_carrier(struct walk *w, int i)
{
	i = strip_parens(&w->t, i);
	if (i < 0 || w->t.n[i].kind != CXCursor_DeclRefExpr)
		return -1;
	return find_carrier(w, clang_getCursorReferenced(w->t.n[i].cur));
}

/* Is node i a conversion of a plain char to a wider integer type?
 * Returns the char expression, or -1. */
int widened_char(const struct tree *t, int i)
{
	int c;

	if (!is_cast(t, i) || t->n[i].type.cls != T_INT)
		return -1;
	c = strip_parens(t, cast_operand(t, i));
	return c >= 0 && t->n[c].type.cls == T_PLAIN_CHAR ? c : -1;
}

/*
 * c ^ d, c & d, c | d of two widened plain chars: extending each and
 * combining them extends the combined byte, by either signedness, so
 * the result is a char again (binfmt_misc's (*s++ ^ e->magic[j]) &
 * e->mask[j]).  Its left char, or -1.
 */
int bitwise_chars(const struct tree *t, int i)
{
	int l, r;

	if (t->n[i].kind != CXCursor_BinaryOperator ||
	    (t->n[i].op != OP_AND && t->n[i].op != OP_OR && t->n[i].op != OP_XOR))
		return -1;
	l = widened_char(t, strip_parens(t, child(t, i, 0)));
	r = widened_char(t, strip_parens(t, child(t, i, 1)));
	return l >= 0 && r >= 0 ? l : -1;
}

/* A widened char (or two combined bit by bit) is the leaf of the values
 * derived from it. */
static int widening_leaf(const struct tree *t, int i, void *arg, struct domain *d)
{
	int src = widened_char(t, i);

	(void)arg;
	if (src < 0)
		src = bitwise_chars(t, i);
	if (src >= 0) {
		domain_char(d);
		domain_convert(d, t->n[i].type);
	}
	return src;
}

int char_expr(const struct tree *t, int v, struct domain *d)
{
	return expr_domain(t, v, widening_leaf, NULL, d);
}

static void note_write(struct walk *w, int k, int value, int at)
{
	struct carrier *c = &w->car[k];
	int v = strip_parens(&w->t, value), src = v >= 0 ? widened_char(&w->t, v) : -1;
	int ret = v >= 0 ? returned_value(w, v) : -1, derived = 0;
	long long ignored;
	struct domain d;

	if (ret >= 0)
		src = v;
	/* c - '0', c | 0x20 kept in the variable: its reads are that
	 * value, judged where they are compared. */
	if (src < 0 && v >= 0 && !eval_const(&w->t, v, &ignored) && (src = char_expr(&w->t, v, &d)) >= 0)
		derived = 1;
	if (src >= 0) {
		/* One computed value, or plain chars only: anything else
		 * mixes values of different meanings. */
		if (c->src >= 0 && (derived || c->derived >= 0))
			c->bad = 1;
		if (c->src < 0) {
			c->src = src;
			c->assign = at;
			c->ret = ret;
			c->derived = derived ? v : -1;
		}
		return;
	}
	/* A constant (the usual "int j = -1" start value) does not take
	 * away the char's meaning from the other writes. */
	if (v >= 0 && eval_const(&w->t, v, &ignored))
		return;
	c->bad = 1;
}

static void add_write(struct walk *w, int k, int at, int value, int plain, int address)
{
	grow(&w->wr, &w->wrcap, w->nwr + 1, sizeof(*w->wr));
	w->wr[w->nwr++] = (struct write){ k, at, value, (unsigned char)plain,
					  (unsigned char)address };
}

/* The seeded parameter of the callee being walked again. */
static int is_seed(struct walk *w, int i)
{
	CXCursor p;

	if (!w->seed || w->t.n[i].kind != CXCursor_ParmDecl)
		return 0;
	p = clang_Cursor_getArgument(w->t.n[0].cur, w->seed->index);
	return clang_equalCursors(p, w->t.n[i].cur);
}

/* v = u, u another carrier: v carries u's char, as read there (u may
 * be written other values elsewhere: the write that reaches the read).
 * Resolved once every write is known. */
struct copy {
	int car, read, at;
};

static void note_copy(struct walk *w, const struct copy *c)
{
	const struct tree *t = &w->t;
	int from = referenced_carrier(w, c->read), n, v;
	struct carrier *to = &w->car[c->car];

	if (from < 0 || from == c->car)
		return;
	if (w->car[from].bad) {
		if ((n = reaching_write(w, from, c->read)) < 0 ||
		    (v = strip_parens(t, w->wr[n].value)) < 0 || widened_char(t, v) < 0) {
			to->bad = 1;
			return;
		}
		note_write(w, c->car, v, c->at);
		return;
	}
	if (w->car[from].src < 0)
		return;				/* constants only */
	if (to->src >= 0) {
		to->bad = 1;
		return;
	}
	to->src = w->car[from].src;
	to->assign = c->at;
	to->ret = w->car[from].ret;
	to->derived = w->car[from].derived;
}

void find_carriers(struct walk *w)
{
	const struct tree *t = &w->t;
	struct copy *copies = NULL;
	size_t ncopies = 0, copycap = 0;

	w->ncar = 0;
	if (t->n[0].kind != CXCursor_FunctionDecl)
		return;
	for (int i = 1; i < t->len; i++) {
		int seed = is_seed(w, i);

		if ((!seed && t->n[i].kind != CXCursor_VarDecl) || t->n[i].type.cls != T_INT)
			continue;
		grow(&w->car, &w->carcap, w->ncar + 1, sizeof(*w->car));
		w->car[w->ncar++] = (struct carrier){ t->n[i].cur, seed ? i : -1, -1, 0,
						      t->n[i].type, seed ? w->seed->caller : NULL,
						      seed ? w->seed->call : clang_getNullCursor(),
						      seed ? w->seed->call_loc : NULL, -1, -1 };
	}
	w->nwr = 0;
	for (int i = 1; i < t->len && w->ncar; i++) {
		const struct node *n = &t->n[i];
		int k, ref, value;

		if (n->kind == CXCursor_VarDecl &&
		    (k = find_carrier(w, n->cur)) >= 0 && last_expr_child(t, i) >= 0) {
			value = last_expr_child(t, i);
		} else if ((ref = written_ref(t, i)) < 0 || (k = referenced_carrier(w, ref)) < 0) {
			continue;
		} else if (n->kind == CXCursor_BinaryOperator) {	/* v = x */
			value = child(t, i, 1);
		} else {						/* v += x, v++, &v */
			w->car[k].bad = 1;
			add_write(w, k, i, -1, 0, n->op == OP_ADDR);
			continue;
		}
		add_write(w, k, i, value, 1, 0);
		if (referenced_carrier(w, strip_implicit(t, value)) >= 0) {
			grow(&copies, &copycap, ncopies + 1, sizeof(*copies));
			copies[ncopies++] = (struct copy){ k, strip_implicit(t, value), i };
		} else {
			note_write(w, k, value, i);
		}
	}
	for (size_t c = 0; c < ncopies; c++)
		note_copy(w, &copies[c]);
	free(copies);
}

/* A carrier written other values too, read where only one write
 * reaches (reaching.c): a carrier of its own for that read, when the
 * write is a plain char or a value computed from one; else -1. */
int reached_carrier(struct walk *w, int k, int read)
{
	const struct tree *t = &w->t;
	int n = reaching_write(w, k, read), v, src, derived = -1;
	struct domain d;
	long long ignored;
	struct carrier c;

	if (n < 0 || (v = strip_parens(t, w->wr[n].value)) < 0)
		return -1;
	if ((src = widened_char(t, v)) < 0) {
		if (eval_const(t, v, &ignored) || (src = char_expr(t, v, &d)) < 0)
			return -1;
		derived = v;
	}
	c = w->car[k];
	c.src = src;
	c.assign = w->wr[n].at;
	c.bad = 0;
	c.caller = NULL;	/* the char is this function's own */
	c.call = clang_getNullCursor();
	c.call_loc = NULL;
	c.ret = -1;
	c.derived = derived;
	grow(&w->car, &w->carcap, w->ncar + 1, sizeof(*w->car));
	w->car[w->ncar] = c;
	return (int)w->ncar++;
}

#define MAX_FOLLOWED 256	/* callee parameters walked again, per TU */

/*
 * Which argument of call node arg is: the call's children are the
 * callee, then the arguments.  Not by cursor: after a declaration in an
 * earlier argument (min()'s statement expression), libclang's cursors
 * for the later ones no longer equal what clang_Cursor_getArgument()
 * gives.
 */
int argument_index(const struct tree *t, int call, int arg)
{
	int k = -1;

	for (int c = t->n[call].first; c >= 0; c = t->n[c].next, k++)
		if (c == arg)
			return k;
	return -1;
}

/* Walk p.fn again with parameter p.index as the carrier of d (NULL: a
 * widened char), once per parameter: 0 past the limit. */
int seed_parameter(struct walk *w, struct param_in p, const struct domain *d)
{
	for (size_t i = 0; i < w->npin; i++)
		if (w->pin[i].index == p.index && clang_equalCursors(w->pin[i].fn, p.fn))
			return 1;
	if (w->npin >= MAX_FOLLOWED)
		return 0;
	p.caller = xstrdup(p.caller);
	p.d = NULL;
	if (d) {
		p.d = xmalloc(sizeof(*d));
		*p.d = *d;
	}
	grow(&w->pin, &w->pincap, w->npin + 1, sizeof(*w->pin));
	w->pin[w->npin++] = p;
	return 1;
}

/* Have the callee's body judge arg, a widened char or (d) a value
 * computed from one: 0 when no body here has a parameter for it. */
int follow_into(struct walk *w, int call, int arg, const struct domain *d)
{
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(w->t.n[call].cur));
	int k = argument_index(&w->t, call, arg);

	/* A variadic argument: no parameter holds it. */
	if (k < 0 || clang_Cursor_isNull(fn) || in_system_header(fn) ||
	    clang_Cursor_getNumArguments(fn) <= k)
		return 0;
	return seed_parameter(w, (struct param_in){ fn, (unsigned)k, w->function, w->t.n[call].cur,
						    w->t.n[0].cur, NULL, NULL }, d);
}
