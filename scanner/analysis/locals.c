/*
 * The writes of a local variable in the function walked: its
 * initializer and plain assignments, each a value to judge, and the
 * steps of a counting loop, `for (i = 0; i < 10; i++)`, whose test
 * bounds every value the step makes.  Anything else that may change it
 * is handed on as what it is: a change in place (c += x outside such a
 * loop, c++) or one out of sight (&c, an asm output).  sources.c asks
 * whether they are all ASCII, ranges.c what range they span, bits.c
 * whether they are all plain.
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

int local_variable(CXCursor d)
{
	return clang_getCursorKind(d) == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(d);
}

int refers_to_decl(const struct tree *t, int i, CXCursor decl)
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
	if (refers_to_decl(t, child(t, cond, 1), decl)) {
		op = op_mirror(op);
		var = 1;
	}
	if (!refers_to_decl(t, child(t, cond, var), decl) || !eval_const(t, child(t, cond, !var), lim) ||
	    *lim < -(1LL << 40) || *lim > (1LL << 40))
		return 0;
	/* i <= ~0UL: eval_const() reads ULONG_MAX as -1 */
	if (*lim < 0 && !t->n[child(t, cond, !var)].type.is_signed)
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

/* Can control enter the loop's body other than through its test: a
 * label in it (goto), or a case of a switch around the loop (Duff)? */
static int entered_inside(const struct tree *t, int loop)
{
	for (int j = loop + 1; j < subtree_end(t, loop); j++) {
		enum CXCursorKind k = t->n[j].kind;
		int sw = j;

		if (k == CXCursor_LabelStmt)
			return 1;
		if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
			continue;
		while (sw >= 0 && t->n[sw].kind != CXCursor_SwitchStmt)
			sw = t->n[sw].parent;
		if (sw < loop)
			return 1;
	}
	return 0;
}

/* Does the counter's type hold every value from lim on (no wrap: an
 * unsigned counter down to -1)? */
static int holds_limit(CXCursor decl, long long lim)
{
	struct ctype ty = classify_type(clang_getCursorType(decl));

	return lim >= 0 || ty.is_signed;
}

/*
 * Node i steps decl in a counting loop: the for's own step, right before
 * its body, its test the part before it comparing decl with a constant
 * (libclang leaves out the parts not written: the test is the part one
 * `;` before the step), nothing else in the loop writing decl, no way
 * into the body but through the test.  The test sees every value before
 * the body does, so a step up makes values up to *lim only, a step down
 * values down to *lim.  +1 up, -1 down, 0 for no such step.
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
	/* only_between() last: libclang finds a file's text by a search */
	if (cond < 0 || !loop_limit(t, strip_parens(t, cond), decl, k, lim) ||
	    !holds_limit(decl, *lim) || entered_inside(t, loop) ||
	    !only_between(t->tu, t->n[cond].cur, t->n[i].cur, ';'))
		return 0;
	for (int j = cond; j < subtree_end(t, loop); j++)
		if (j != i && (ref = written_ref(t, j)) >= 0 && refers_to_decl(t, ref, decl))
			return 0;
	return k > 0 ? 1 : -1;
}

int each_local_write(const struct tree *t, CXCursor decl, int steps,
		     int (*fn)(const struct tree *, const struct local_write *, void *), void *arg)
{
	int seen = 0;

	for (int i = 1; i < t->len; i++) {
		const struct node *n = &t->n[i];
		struct local_write lw = { -1, 0, 0, OP_NONE, 0 };
		int ref;

		if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, decl)) {
			seen = 1;
			lw.value = last_expr_child(t, i);
		} else if (n->kind == CXCursor_DeclRefExpr && in_asm(t, i) &&
			   clang_equalCursors(clang_getCursorReferenced(n->cur), decl)) {
			lw.unseen = 1;		/* asm("..." : "=r"(x)) may write it */
		} else if ((ref = written_ref(t, i)) >= 0 && refers_to_decl(t, ref, decl)) {
			if (n->kind != CXCursor_BinaryOperator && steps)
				lw.step = loop_step_limit(t, i, decl, &lw.lim);
			if (lw.step)
				;			/* for (...; c < 10; c++) */
			else if (n->op == OP_ADDR)
				lw.unseen = 1;		/* &c */
			else if (n->op == OP_INC || n->op == OP_DEC)
				lw.rmw = OP_ADD;	/* c++ */
			else if (n->kind == CXCursor_CompoundAssignOperator)
				lw.rmw = n->op, lw.value = child(t, i, 1);	/* c += x */
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
