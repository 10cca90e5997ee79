/*
 * Carriers: the local integer variables every write of which is a plain
 * char (or a constant), and the callee parameters a char is passed to,
 * whose reads carry the char's two meanings (p4.c's "j").  Found before
 * a declaration's values are followed; the checks only look them up.
 */
#include <stdlib.h>
#include <string.h>
#include "source.h"
#include "util.h"
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
	c = strip_parens(t, t->n[i].first);
	return c >= 0 && t->n[c].type.cls == T_PLAIN_CHAR ? c : -1;
}

static void note_write(struct walk *w, int k, int value, int at)
{
	struct carrier *c = &w->car[k];
	int v = strip_parens(&w->t, value), src = v >= 0 ? widened_char(&w->t, v) : -1;
	int ret = v >= 0 ? returned_value(w, v) : -1;
	long long ignored;

	if (ret >= 0)
		src = v;
	if (src >= 0) {
		if (c->src < 0) {
			c->src = src;
			c->assign = at;
			c->ret = ret;
		}
		return;
	}
	/* A constant (the usual "int j = -1" start value) does not take
	 * away the char's meaning from the other writes. */
	if (v >= 0 && eval_const(&w->t, v, &ignored))
		return;
	c->bad = 1;
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

void find_carriers(struct walk *w)
{
	const struct tree *t = &w->t;

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
						      seed ? w->seed->call : clang_getNullCursor(), -1 };
	}
	for (int i = 1; i < t->len && w->ncar; i++) {
		const struct node *n = &t->n[i];
		int k;

		if (n->kind == CXCursor_VarDecl &&
		    (k = find_carrier(w, n->cur)) >= 0 && last_expr_child(t, i) >= 0)
			note_write(w, k, last_expr_child(t, i), i);
		else if (n->kind == CXCursor_BinaryOperator && n->op == OP_ASSIGN &&
			 (k = referenced_carrier(w, child(t, i, 0))) >= 0)
			note_write(w, k, child(t, i, 1), i);
		else if ((n->kind == CXCursor_CompoundAssignOperator ||
			  (n->kind == CXCursor_UnaryOperator &&
			   (n->op == OP_INC || n->op == OP_DEC || n->op == OP_ADDR))) &&
			 (k = referenced_carrier(w, child(t, i, 0))) >= 0)
			w->car[k].bad = 1;
	}
}

#define MAX_FOLLOWED 256	/* callee parameters walked again, per TU */

void follow_into(struct walk *w, CXCursor call, CXCursor arg)
{
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
	int n = clang_Cursor_getNumArguments(call), k;

	for (k = 0; k < n; k++)
		if (clang_equalCursors(clang_Cursor_getArgument(call, k), arg))
			break;
	if (k == n || clang_Cursor_isNull(fn) || in_system_header(fn) || w->npin >= MAX_FOLLOWED)
		return;
	for (size_t i = 0; i < w->npin; i++)
		if (w->pin[i].index == (unsigned)k && clang_equalCursors(w->pin[i].fn, fn))
			return;
	grow(&w->pin, &w->pincap, w->npin + 1, sizeof(*w->pin));
	w->pin[w->npin++] = (struct param_in){ fn, (unsigned)k, xstrdup(w->function), call,
					       w->t.n[0].cur };
}
