/*
 * Comparisons of a plain char value (CS001, CS002, CS003, CS008): with a
 * constant, judged by what the comparison yields for each byte under
 * both signednesses, whole && / || chains at once (a closed range
 * c >= 'a' && c <= 'z' is one test); with another plain char; as a sign
 * test.  checks.c picks this for the comparison operators.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

struct outcome {
	unsigned char s[256], u[256];
};

/* Evaluate comparison cmp with the value on side `side` and a constant
 * on the other; 0 if the other side is no constant. */
static int compare_const(struct walk *w, const struct occ *o, int cmp, int side,
			 struct outcome *r, long long *k_out)
{
	int other = child(&w->t, cmp, !side), inner;
	struct ctype tt = T(w, child(&w->t, cmp, side)).type;
	enum op op = side ? op_mirror(T(w, cmp).op) : T(w, cmp).op;
	long long k;
	val_t ks, ku;

	if (other < 0 || (!eval_const(&w->t, other, &k) && !constant_local(w, other, &k)))
		return 0;
	inner = strip_implicit(&w->t, other);
	if (inner >= 0 && T(w, inner).kind == CXCursor_CharacterLiteral) {
		/* '\xff' is itself -1 or 255 depending on char. */
		ks = convert((signed char)(k & 0xff), tt);
		ku = convert(k & 0xff, tt);
	} else {
		ks = ku = convert(k, tt);
	}
	for (int b = 0; b < 256; b++) {
		r->s[b] = (unsigned char)eval_compare(op, o->d.s[b], ks);
		r->u[b] = (unsigned char)eval_compare(op, o->d.u[b], ku);
	}
	*k_out = k;
	return 1;
}

/* The && or || chain cmp stands in, or -1. */
static int logic_root(const struct tree *t, int cmp, enum op *lop)
{
	int p = up(t, cmp), root = -1;

	if (p < 0 || t->n[p].kind != CXCursor_BinaryOperator ||
	    (t->n[p].op != OP_LAND && t->n[p].op != OP_LOR))
		return -1;
	*lop = t->n[p].op;
	while (p >= 0 && t->n[p].kind == CXCursor_BinaryOperator && t->n[p].op == *lop) {
		root = p;
		p = up(t, p);
	}
	return root;
}

/*
 * The terms of an && / || chain, left to right, in an array the caller
 * frees.  No recursion and no cap: a generated condition may have
 * thousands of terms.
 */
static int *chain_leaves(const struct tree *t, int root, enum op lop, int *n)
{
	int *out = NULL, *stack = NULL, depth = 0;
	size_t out_cap = 0, stack_cap = 0;

	*n = 0;
	grow(&stack, &stack_cap, 1, sizeof(*stack));
	stack[depth++] = root;
	while (depth) {
		int i = strip_parens(t, stack[--depth]);

		if (i < 0)
			continue;
		if (t->n[i].kind == CXCursor_BinaryOperator && t->n[i].op == lop) {
			grow(&stack, &stack_cap, depth + 2, sizeof(*stack));
			stack[depth++] = child(t, i, 1);
			stack[depth++] = child(t, i, 0);
		} else {
			grow(&out, &out_cap, *n + 1, sizeof(*out));
			out[(*n)++] = i;
		}
	}
	free(stack);
	return out;
}

/* Which side of comparison cmp reads the same value as o, or -1. */
static int side_of(struct walk *w, const struct occ *o, int cmp, const char *ref)
{
	if (T(w, cmp).kind != CXCursor_BinaryOperator || !op_is_compare(T(w, cmp).op))
		return -1;
	for (int side = 0; side < 2; side++) {
		int c = strip_implicit(&w->t, child(&w->t, cmp, side));
		char *text;
		int same;

		if (c < 0)
			continue;
		if (c == strip_implicit(&w->t, o->top))
			return side;
		text = node_text(w, c);
		same = !strcmp(text, ref);
		free(text);
		if (same)
			return side;
	}
	return -1;
}

static int all_same(const unsigned char *v)
{
	for (int b = 1; b < 256; b++)
		if (v[b] != v[0])
			return 0;
	return 1;
}

static int is_sign_test(enum op op, long long k)
{
	return (k == 0 && (op == OP_LT || op == OP_GE)) ||
	       (k == -1 && (op == OP_LE || op == OP_GT));
}

/* Does node e (past conversions) read variable var? */
static int reads_var(const struct tree *t, int e, CXCursor var)
{
	e = strip_implicit(t, e);
	return e >= 0 && t->n[e].kind == CXCursor_DeclRefExpr &&
	       clang_equalCursors(clang_getCursorReferenced(t->n[e].cur), var);
}

/* Is node e var + 256, 256 + var, var & 0xff or (unsigned char)var? */
static int unsigned_of(const struct tree *t, int e, CXCursor var)
{
	long long k;
	int a, b;

	e = strip_parens(t, e);
	if (e < 0)
		return 0;
	if (t->n[e].kind == CXCursor_CStyleCastExpr)
		return t->n[e].type.cls == T_UCHAR && reads_var(t, cast_operand(t, e), var);
	if (t->n[e].kind != CXCursor_BinaryOperator ||
	    (t->n[e].op != OP_ADD && t->n[e].op != OP_AND))
		return 0;
	a = child(t, e, 0);
	b = child(t, e, 1);
	if (!reads_var(t, a, var)) {
		int swap = a;

		a = b;
		b = swap;
	}
	return reads_var(t, a, var) && eval_const(t, b, &k) &&
	       k == (t->n[e].op == OP_ADD ? 256 : 0xff);
}

/*
 * if (c < 0) c += 256;  if (c < 0) c &= 0xff;  if (c < 0) c = (unsigned char)c:
 * the sign test makes the value what unsigned char gives, so after it
 * every byte has the same value either way.  cmp tests the variable
 * read at node read (past its conversions) < 0.
 */
static int normalizes(const struct walk *w, int cmp, int read)
{
	const struct tree *t = &w->t;
	int c = climb_implicit(t, cmp), p = t->n[c].parent, body, lhs;
	long long k;
	CXCursor var;

	read = strip_implicit(t, read);
	if (read < 0 || t->n[read].kind != CXCursor_DeclRefExpr)
		return 0;
	var = clang_getCursorReferenced(t->n[read].cur);
	if (p < 0 || t->n[p].kind != CXCursor_IfStmt || child(t, p, 0) != c ||
	    child(t, p, 2) >= 0 || (body = child(t, p, 1)) < 0)
		return 0;
	if (t->n[body].kind == CXCursor_CompoundStmt) {
		if (child(t, body, 1) >= 0)
			return 0;
		body = child(t, body, 0);
	}
	if (body < 0 || (lhs = child(t, body, 0)) < 0 || !reads_var(t, lhs, var))
		return 0;
	if (t->n[body].kind == CXCursor_CompoundAssignOperator)
		return eval_const(t, child(t, body, 1), &k) &&
		       ((t->n[body].op == OP_ADD_A && k == 256) ||
			(t->n[body].op == OP_AND_A && k == 0xff));
	return t->n[body].kind == CXCursor_BinaryOperator && t->n[body].op == OP_ASSIGN &&
	       unsigned_of(t, child(t, body, 1), var);
}

/*
 * c < ' ' alone differs for bytes 0x80-0xff, but c >= 'a' && c <= 'z'
 * does not: judge the whole && / || chain over the same value.
 */
static int compare_with_constant(struct walk *w, struct occ *o)
{
	int cmp = o->ctx, side = !is_lhs(w, o), root, *leaves, n = 0, first = -1, at;
	struct outcome acc, r;
	enum op lop = OP_NONE, op;
	long long k;
	char *ref, *what, *text;
	enum breaks br;
	enum verdict_id id;
	int cs, cu, b, terms = 0;

	if (!compare_const(w, o, cmp, side, &acc, &k))
		return 0;
	root = logic_root(&w->t, cmp, &lop);
	if (root >= 0) {
		ref = node_text(w, strip_implicit(&w->t, o->top));
		leaves = chain_leaves(&w->t, root, lop, &n);
		memset(&acc, lop == OP_LAND, sizeof(acc));
		for (int i = 0; i < n; i++) {
			int s = side_of(w, o, leaves[i], ref);
			long long kk;

			if (s < 0 || !compare_const(w, o, leaves[i], s, &r, &kk))
				continue;
			if (first < 0)
				first = leaves[i];
			if (first != cmp)	/* judged at the first term, not here */
				break;
			terms++;
			for (int b = 0; b < 256; b++) {
				acc.s[b] = lop == OP_LAND ? acc.s[b] & r.s[b] : acc.s[b] | r.s[b];
				acc.u[b] = lop == OP_LAND ? acc.u[b] & r.u[b] : acc.u[b] | r.u[b];
			}
		}
		free(ref);
		free(leaves);
		if (first != cmp)	/* the chain is judged once, at its first term */
			return 1;
	}
	at = terms > 1 ? root : cmp;
	if (!memcmp(acc.s, acc.u, sizeof(acc.s))) {
		static const enum verdict_id same[2][2] = {
			{ V_SAME_RELATION, V_SAME_RELATION_CHAIN },
			{ V_SAME_EQUALITY, V_SAME_EQUALITY_CHAIN },
		};

		harmless(o, same[op_is_equality(T(w, cmp).op)][terms > 1], at);
		return 1;
	}
	op = side ? op_mirror(T(w, cmp).op) : T(w, cmp).op;
	cs = all_same(acc.s);
	cu = all_same(acc.u);
	if (terms <= 1 && op == OP_LT && k == 0 && normalizes(w, cmp, o->top)) {
		harmless(o, V_NORMALIZED, cmp);
		return 1;
	}
	if (terms <= 1 && is_sign_test(op, k) && cu) {
		id = V_SIGN_TEST;
		br = BREAKS_UNSIGNED;
	} else if (cs != cu) {
		id = V_DEAD_COMPARE;
		br = cu ? BREAKS_UNSIGNED : BREAKS_SIGNED;
	} else {
		id = V_ORDER_DIFFERS;
		br = BREAKS_EITHER;
	}
	b = 0;
	if (id == V_ORDER_DIFFERS)
		for (b = 128; b < 255 && acc.s[b] == acc.u[b]; b++)
			;
	text = node_text(w, at);
	what = value_name(w, o);
	judge(w, &(struct verdict){ .id = id, .br = br, .at = at_value(w, o, at),
				    .value = what, .expr = text, .byte = b,
				    .vs = acc.s[b], .vu = acc.u[b] });
	free(text);
	free(what);
	return 1;
}

/*
 * c < n, with n a wider value that is no constant: whatever n holds, the
 * byte counts as a negative number under signed char and as 128..255
 * under unsigned, so some n orders them differently (bunzip2's
 * get_bits: bd->inbufBitCount < bits_wanted).  Equality is left alone:
 * it differs only if n itself can hold such a number.
 */
static void compare_with_value(struct walk *w, struct occ *o, int other)
{
	int b;
	char *what, *text, *with;

	if (op_is_equality(T(w, o->ctx).op))
		return;
	/* two char values (c < d + 1): judged once, from the left */
	if (!is_lhs(w, o) && char_expr(&w->t, other, &(struct domain){ 0 }) >= 0)
		return;
	for (b = 128; b < 256 && o->d.s[b] == o->d.u[b]; b++)
		;
	if (b == 256) {
		harmless(o, V_DERIVED_SAME, o->ctx);
		return;
	}
	what = value_name(w, o);
	text = node_text(w, o->ctx);
	with = operand_text(w, other);
	judge(w, &(struct verdict){ .id = V_ORDER_VS_VALUE, .br = BREAKS_EITHER,
				    .at = at_value(w, o, o->ctx), .value = what,
				    .expr = text, .other = with, .byte = b,
				    .vs = o->d.s[b], .vu = o->d.u[b] });
	free(what);
	free(text);
	free(with);
}

void check_compare(struct walk *w, struct occ *o)
{
	int other = other_operand(w, o), inner = strip_implicit(&w->t, other);
	enum op op = T(w, o->ctx).op;
	char *a, *b;

	if (inner < 0)
		return;
	switch (T(w, inner).type.cls) {
	case T_PLAIN_CHAR:
		/* Two plain chars are equal under either signedness, but
		 * ordered differently; judged once, from the left. */
		if (op == OP_EQ || op == OP_NE)
			harmless(o, V_CHARS_EQUAL, o->ctx);
		if (op == OP_EQ || op == OP_NE || !is_lhs(w, o))
			return;
		a = node_text(w, o->ctx);
		judge(w, &(struct verdict){ .id = V_CHARS_ORDERED, .br = BREAKS_EITHER,
					    .at = at_value(w, o, o->ctx), .expr = a });
		free(a);
		return;
	case T_SCHAR:
	case T_UCHAR: {
		int uns = T(w, inner).type.cls == T_UCHAR;
		long long k;

		/* c == (u8)'\\' is a comparison with a constant (CS001/CS003) */
		if (eval_const(&w->t, other, &k)) {
			(void)compare_with_constant(w, o);
			return;
		}

		/* u8 k = 'a'; ... c == k: equal for the same bytes either way */
		if (op_is_equality(op) && ascii_source(w, inner)) {
			harmless(o, V_OTHER_ASCII, o->ctx);
			return;
		}

		a = value_name(w, o);
		b = operand_text(w, other);
		judge(w, &(struct verdict){ .id = V_MIXED_SIGNEDNESS,
					    .br = uns ? BREAKS_SIGNED : BREAKS_UNSIGNED,
					    .at = at_value(w, o, o->ctx), .value = a, .other = b });
		free(a);
		free(b);
		return;
	}
	default:
		if (!compare_with_constant(w, o) && T(w, inner).type.cls == T_INT)
			compare_with_value(w, o, other);
	}
}
