/*
 * The writes of a local variable in the function walked: its
 * initializer and plain assignments, each a value to judge, and the
 * steps of a counting loop, `for (i = 0; i < 10; i++)`, whose test
 * bounds every value the step makes.  Anything else that may change it
 * (c += x outside such a loop, &c, an asm output) makes its values
 * unknown.  sources.c asks whether they are all ASCII, ranges.c what
 * range they span.
 */
#include "core/core.h"
#include "walk.h"

static int in_asm(const struct tree *t, int i)
{
	while ((i = t->n[i].parent) >= 0)
		if (t->n[i].kind == CXCursor_GCCAsmStmt)
			return 1;
	return 0;
}

static int refers_to(const struct tree *t, int i, CXCursor decl)
{
	i = strip_implicit(t, i);
	return i >= 0 && t->n[i].kind == CXCursor_DeclRefExpr &&
	       clang_equalCursors(clang_getCursorReferenced(t->n[i].cur), decl);
}

/* The step's size: +1 for c++, -k for c -= k; 0 for no step. */
static long long step_size(const struct tree *t, int i)
{
	const struct node *n = &t->n[i];
	long long k;

	if (n->kind == CXCursor_UnaryOperator && (n->op == OP_INC || n->op == OP_DEC))
		return n->op == OP_INC ? 1 : -1;
	if (n->kind == CXCursor_CompoundAssignOperator && (n->op == OP_ADD_A || n->op == OP_SUB_A) &&
	    eval_const(t, child(t, i, 1), &k) && k > 0 && k < 0x10000)
		return n->op == OP_ADD_A ? k : -k;
	return 0;
}

/* The loop's test bounds decl on the side a step of k moves it to:
 * `c < K` for steps up, `c > K` down, either way round.  1 and, in
 * *lim, the most (up) or least (down) value a step can make. */
static int loop_limit(const struct tree *t, int cond, CXCursor decl, long long k, long long *lim)
{
	enum op op = t->n[cond].op;
	int var = 0;

	if (t->n[cond].kind != CXCursor_BinaryOperator || !op_is_compare(op))
		return 0;
	if (refers_to(t, child(t, cond, 1), decl)) {
		op = op_mirror(op);
		var = 1;
	}
	if (!refers_to(t, child(t, cond, var), decl) || !eval_const(t, child(t, cond, !var), lim) ||
	    *lim < -(1LL << 40) || *lim > (1LL << 40))
		return 0;
	if (k > 0 && (op == OP_LT || op == OP_LE)) {
		*lim += k - (op == OP_LT);
		return 1;
	}
	if (k < 0 && (op == OP_GT || op == OP_GE)) {
		*lim += k + (op == OP_GT);
		return 1;
	}
	return 0;
}

/*
 * Node i steps decl in a counting loop: the for's own step, right before
 * its body, its test the part before it comparing decl with a constant,
 * nothing else in the loop writing decl.  The test sees every value
 * before the body does, so a step up makes values up to *lim only, a
 * step down values down to *lim.  +1 up, -1 down, 0 for no such step.
 */
static int loop_step_limit(const struct tree *t, int i, CXCursor decl, long long *lim)
{
	int loop = t->n[i].parent, cond, ref;
	long long k = step_size(t, i);

	if (!k || loop < 0 || t->n[loop].kind != CXCursor_ForStmt || t->n[i].next < 0 ||
	    t->n[t->n[i].next].next >= 0)
		return 0;
	for (cond = t->n[loop].first; cond >= 0 && t->n[cond].next != i; cond = t->n[cond].next)
		;
	if (cond < 0 || !loop_limit(t, strip_parens(t, cond), decl, k, lim))
		return 0;
	for (int j = cond; j < subtree_end(t, loop); j++)
		if (j != i && (ref = written_ref(t, j)) >= 0 && refers_to(t, ref, decl))
			return 0;
	return k > 0 ? 1 : -1;
}

int each_local_write(const struct tree *t, CXCursor decl, int steps,
		     int (*fn)(const struct tree *, const struct local_write *, void *), void *arg)
{
	int seen = 0;

	for (int i = 1; i < t->len; i++) {
		const struct node *n = &t->n[i];
		struct local_write lw = { -1, 0, 0 };
		int ref;

		if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, decl)) {
			seen = 1;
			lw.value = last_expr_child(t, i);
		} else if (n->kind == CXCursor_DeclRefExpr && in_asm(t, i) &&
			   clang_equalCursors(clang_getCursorReferenced(n->cur), decl)) {
			return 0;		/* asm("..." : "=r"(x)) may write it */
		} else if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_UnaryOperator ||
			    n->kind == CXCursor_CompoundAssignOperator) &&
			   (ref = strip_parens(t, child(t, i, 0))) >= 0 &&
			   t->n[ref].kind == CXCursor_DeclRefExpr &&
			   clang_equalCursors(clang_getCursorReferenced(t->n[ref].cur), decl)) {
			if (n->kind != CXCursor_BinaryOperator && steps)
				lw.step = loop_step_limit(t, i, decl, &lw.lim);
			if (lw.step)
				;			/* for (...; c < 10; c++) */
			else if (n->kind != CXCursor_BinaryOperator)
				return 0;		/* c++, c += 1, &c */
			else if (n->op != OP_ASSIGN)
				continue;		/* read in c == 'x' */
			else
				lw.value = child(t, i, 1);
		} else {
			continue;
		}
		if (!fn(t, &lw, arg))
			return 0;
	}
	return seen;
}
