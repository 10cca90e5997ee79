/*
 * What each context makes of a plain char value: one function per kind
 * of context, chosen by table.  Every check decides sign-dependence the
 * same way: evaluate what the context observes for each byte under both
 * signednesses (struct domain) and report only if the two differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

static const char *const ctype_functions[] = {
	"isalnum", "isalpha", "isascii", "isblank", "iscntrl", "isdigit",
	"isgraph", "islower", "isprint", "ispunct", "isspace", "isupper",
	"isxdigit", "tolower", "toupper",
};

static int is_ctype_name(const char *name)
{
	for (size_t i = 0; i < sizeof(ctype_functions) / sizeof(ctype_functions[0]); i++)
		if (name && !strcmp(name, ctype_functions[i]))
			return 1;
	return 0;
}

static int from_system_header(CXCursor decl)
{
	return !clang_Cursor_isNull(decl) && in_system_header(decl);
}

/*
 * Only the C library's <ctype.h> has the undefined behaviour: the
 * kernel's isdigit() is an inline range test and its table macros cast
 * to unsigned char themselves.
 */
static int is_ctype_macro(const char *name, CXCursor expansion)
{
	return is_ctype_name(name) && from_system_header(clang_getCursorReferenced(expansion));
}

/* The C library's function: declared in a system header, or declared
 * by the file itself (`int isalpha(int);`) with external linkage and no
 * body in the TU.  The names are reserved to the library (C11 7.1.3); a
 * kernel's own isdigit() has its body in a header of the tree. */
static int is_ctype_function(const char *name, CXCursor callee)
{
	if (!is_ctype_name(name) || clang_Cursor_isNull(callee))
		return 0;
	return from_system_header(callee) ||
	       (clang_getCursorLinkage(callee) == CXLinkage_External &&
		clang_Cursor_isNull(clang_getCursorDefinition(callee)));
}

void harmless(struct occ *o, enum verdict_id why, int node)
{
	o->pass = why;
	o->pass_node = node;
}

struct report_at at_value(struct walk *w, const struct occ *o, int node)
{
	const struct ret_val *r = returned_by(w, o);

	return (struct report_at){ node, r ? r->decl : trace_decl(&w->t, o->src),
				   o->carrier >= 0 ? w->car[o->carrier].assign : -1,
				   o->carrier >= 0 ? &w->car[o->carrier] : NULL, r, o->ref };
}

/* "'j' (assigned from plain char 'x')", "plain char 'x'", or what a
 * function returns. */
char *value_name(struct walk *w, const struct occ *o)
{
	const struct ret_val *r = returned_by(w, o);
	char *src, *ref, *s;

	if (r) {
		ref = operand_text(w, o->ref);
		if (r->field)
			s = xasprintf("'%s' (%s '%s' is assigned %s '%s' by %s())", ref,
				      clang_getCursorKind(r->fn) == CXCursor_FieldDecl ? "field" :
				      "variable", r->name,
				      r->derived ? "a value computed from plain char" : "plain char",
				      r->what, r->by);
		else
			s = xasprintf(r->derived ? "'%s' (computed from plain char '%s' by %s())" :
				      "'%s' (plain char '%s' returned by %s())", ref, r->what,
				      r->name);
		free(ref);
		return s;
	}
	src = operand_text(w, o->src);
	if (o->carrier < 0) {
		s = xasprintf("plain char '%s'", src);
		free(src);
		return s;
	}
	if (w->car[o->carrier].caller) {
		ref = operand_text(w, o->ref);
		s = xasprintf(w->seed && w->seed->d ? "'%s' (computed from a plain char by %s())" :
			      "'%s' (a plain char passed by %s())", ref, w->car[o->carrier].caller);
		free(ref);
		free(src);
		return s;
	}
	ref = operand_text(w, o->ref);
	s = xasprintf(w->car[o->carrier].derived >= 0 ? "'%s' (computed from plain char '%s')" :
		      "'%s' (assigned from plain char '%s')", ref, src);
	free(ref);
	free(src);
	return s;
}

int is_lhs(const struct walk *w, const struct occ *o)
{
	return child(&w->t, o->ctx, 0) == o->top;
}

int other_operand(const struct walk *w, const struct occ *o)
{
	return child(&w->t, o->ctx, is_lhs(w, o) ? 1 : 0);
}

/* ---- arithmetic ----------------------------------------------------- */

void report_extension(struct walk *w, struct occ *o, enum verdict_id id, const char *type,
		      int b, val_t vs, val_t vu)
{
	char *what = value_name(w, o), *text = node_text(w, o->ctx);

	judge(w, &(struct verdict){ .id = id, .br = BREAKS_SIGNED, .at = at_value(w, o, o->ctx),
				    .value = what, .expr = text, .type = type, .byte = b,
				    .vs = vs, .vu = vu });
	free(what);
	free(text);
}

/*
 * The low 8 bits of a sum, product, shift left or bitwise operation
 * depend only on the low 8 bits of the operands: stored back into a
 * char (buf[i] = c + d, c |= 0x20), the result is the same byte either
 * way.
 */
static int truncated_to_byte(struct walk *w, int expr)
{
	static const enum op low_bits_ops[] = {
		OP_ADD, OP_SUB, OP_MUL, OP_SHL, OP_AND, OP_OR, OP_XOR,
		OP_ADD_A, OP_SUB_A, OP_MUL_A, OP_SHL_A, OP_AND_A, OP_OR_A, OP_XOR_A,
	};
	enum op op = T(w, expr).op;
	int p = up(&w->t, expr), known = 0;

	for (size_t i = 0; i < sizeof(low_bits_ops) / sizeof(low_bits_ops[0]); i++)
		known |= low_bits_ops[i] == op;
	if (!known)
		return 0;
	if (T(w, expr).kind == CXCursor_CompoundAssignOperator)
		return T(w, child(&w->t, expr, 0)).type.bits == 8;
	return p >= 0 && is_cast(&w->t, p) && T(w, p).type.bits == 8;
}

/*
 * c OP constant: compute the result for every byte.  A shift shows the
 * sign extension at once (c << 8 | d); any other result flows on and is
 * judged where it is observed, so (c | 0x20) == 'x' stays quiet while
 * (c >> 4) == 0x0f or u32 x = c | 0x20 does not.
 */
/* o's value OP constant k at o->ctx, per byte, into *d: the first byte
 * whose result differs, or -1. */
static int with_constant(struct walk *w, const struct occ *o, long long k, struct domain *d)
{
	enum op op = T(w, o->ctx).op;
	struct ctype t = T(w, o->ctx).type;
	val_t kk = convert(k, t), rs, ru;
	int first = -1;

	for (int b = 0; b < 256; b++) {
		int ok_s = is_lhs(w, o) ? eval_binop(op, o->d.s[b], kk, t, &rs)
					: eval_binop(op, kk, o->d.s[b], t, &rs);
		int ok_u = is_lhs(w, o) ? eval_binop(op, o->d.u[b], kk, t, &ru)
					: eval_binop(op, kk, o->d.u[b], t, &ru);

		if (!ok_s || !ok_u)
			rs = ru = 0;	/* undefined either way: no difference */
		d->s[b] = rs;
		d->u[b] = ru;
		if (first < 0 && rs != ru)
			first = b;
	}
	return first;
}

/*
 * A value computed from a char and computed on with a constant
 * (((c | 0x20) >> 4) == 3): still not observed, followed on with the
 * new value.  1 when it was.
 */
static int derived_again(struct walk *w, struct occ *o)
{
	int other = other_operand(w, o);
	struct domain d;
	long long k;

	if (!is_value_op(T(w, o->ctx).op) || other < 0 || !eval_const(&w->t, other, &k))
		return 0;
	if (with_constant(w, o, k, &d) < 0) {
		harmless(o, V_DERIVED_SAME, o->ctx);
		return 1;
	}
	o->d = d;
	o->goes_on = 1;
	return 1;
}

static void derived_value(struct walk *w, struct occ *o, long long k)
{
	enum op op = T(w, o->ctx).op;
	struct domain d;
	int first = with_constant(w, o, k, &d);

	if (first < 0) {
		harmless(o, V_DERIVED_SAME, o->ctx);
		return;
	}
	/* A shift, or a char put into the low byte of a wider word
	 * (0x700 | c, as VGA text cells are built), shows the sign
	 * extension at once, unless a mask or a narrowing right after
	 * it gives every byte the same value again ((c >> 4) & 0x0f). */
	if (op == OP_SHL || op == OP_SHR ||
	    ((op == OP_OR || op == OP_XOR || op == OP_ADD) && k > 0xff)) {
		if (settles(w, o->ctx, &d) || bits_dropped(w, o->ctx, differing_bits(&d)))
			harmless(o, V_MASKED, o->ctx);
		else
			report_extension(w, o, V_EXTENDED_IN, NULL, first, d.s[first], d.u[first]);
	} else {
		/* Not observed yet: the engine follows the new value on. */
		o->d = d;
		o->goes_on = 1;
	}
}

/* Two plain chars combined bit by bit are a char again (bitwise_chars):
 * followed on from the left operand only. */
static int bitwise_of_chars(struct walk *w, struct occ *o)
{
	if (bitwise_chars(&w->t, o->ctx) < 0)
		return 0;
	o->goes_on = is_lhs(w, o);
	return 1;
}

static void check_arith(struct walk *w, struct occ *o)
{
	enum op op = T(w, o->ctx).op;
	int other = other_operand(w, o);
	long long k;

	if (truncated_to_byte(w, o->ctx)) {
		harmless(o, V_LOW_BYTE, o->ctx);
		return;
	}
	if ((op == OP_SHL || op == OP_SHR) && !is_lhs(w, o)) {
		harmless(o, V_SHIFT_COUNT, o->ctx);
		return;
	}
	if (other >= 0 && eval_const(&w->t, other, &k)) {
		derived_value(w, o, k);
		return;
	}
	if (bitwise_of_chars(w, o))
		return;
	if (op == OP_AND)
		return;			/* masked by a variable: unknown */
	if (bits_dropped(w, o->top, differing_bits(&o->d))) {
		harmless(o, V_MASKED, o->ctx);
		return;
	}
	report_extension(w, o, V_EXTENDED_IN, NULL, 0xff, o->d.s[0xff], o->d.u[0xff]);
}

static void check_index(struct walk *w, struct occ *o)
{
	char *what = value_name(w, o), *text = node_text(w, o->ctx);
	CXCursor expansion = clang_getNullCursor();
	char *macro = macro_name(w, o->ctx, &expansion);
	struct verdict v = { .br = BREAKS_SIGNED, .at = at_value(w, o, o->ctx),
			     .value = what, .expr = text, .callee = macro,
			     .vs = o->d.s[0x80], .vu = o->d.u[0x80] };

	if (macro && is_ctype_macro(macro, expansion))
		v.id = V_CTYPE_ARGUMENT;
	else if (o->d.s[0x80] < 0)
		v.id = V_NEGATIVE_INDEX;
	else			/* (unsigned int)c: sign-extended, not negative */
		v.id = V_EXTENDED_INDEX;
	judge(w, &v);
	free(macro);
	free(what);
	free(text);
}

static void check_additive(struct walk *w, struct occ *o)
{
	int other = other_operand(w, o);
	long long k;

	if (other < 0)
		return;
	if (T(w, other).type.cls == T_PTR)
		check_index(w, o);
	else if (truncated_to_byte(w, o->ctx))
		harmless(o, V_LOW_BYTE, o->ctx);
	else if (eval_const(&w->t, other, &k))	/* c - '0' flows on */
		derived_value(w, o, k);
	else
		report_extension(w, o, V_EXTENDED_IN, NULL, 0xff, o->d.s[0xff], o->d.u[0xff]);
}

static void check_binary(struct walk *w, struct occ *o)
{
	static const struct { enum op op; void (*check)(struct walk *, struct occ *); } ops[] = {
		{ OP_LT, check_compare }, { OP_GT, check_compare },
		{ OP_LE, check_compare }, { OP_GE, check_compare },
		{ OP_EQ, check_compare }, { OP_NE, check_compare },
		{ OP_SHL, check_arith }, { OP_SHR, check_arith },
		{ OP_AND, check_arith }, { OP_OR, check_arith },
		{ OP_XOR, check_arith }, { OP_MUL, check_arith },
		{ OP_DIV, check_arith }, { OP_REM, check_arith },
		{ OP_ADD, check_additive }, { OP_SUB, check_additive },
		{ OP_ASSIGN, check_store },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == T(w, o->ctx).op) {
			ops[i].check(w, o);
			return;
		}
}

static void check_compound(struct walk *w, struct occ *o)
{
	enum op op = T(w, o->ctx).op;
	int lhs = child(&w->t, o->ctx, 0);

	if (is_lhs(w, o) || lhs < 0)
		return;
	if (op == OP_SHL_A || op == OP_SHR_A) {
		harmless(o, V_SHIFT_COUNT, o->ctx);
		return;
	}
	if (op != OP_ADD_A && op != OP_SUB_A && op != OP_OR_A && op != OP_XOR_A &&
	    op != OP_MUL_A && op != OP_DIV_A && op != OP_REM_A)
		return;
	if (T(w, lhs).type.cls == T_PTR)
		check_index(w, o);
	else if (!truncated_to_byte(w, o->ctx))
		report_extension(w, o, V_EXTENDED_INTO, NULL, 0xff, o->d.s[0xff], o->d.u[0xff]);
	else
		harmless(o, V_LOW_BYTE, o->ctx);
}

static void check_subscript(struct walk *w, struct occ *o)
{
	if (T(w, o->top).type.cls != T_PTR)	/* the index, not the array */
		check_index(w, o);
}

static int inside_switch(const struct tree *t, int i, int sw)
{
	for (i = t->n[i].parent; i >= 0; i = t->n[i].parent)
		if (t->n[i].kind == CXCursor_SwitchStmt)
			return i == sw;
	return 0;
}

static int is_char_literal(const struct tree *t, int i)
{
	i = strip_implicit(t, i);
	return i >= 0 && t->n[i].kind == CXCursor_CharacterLiteral;
}

static void check_switch(struct walk *w, struct occ *o)
{
	const struct tree *t = &w->t;
	char *what;

	if (child(t, o->ctx, 0) != o->top)
		return;
	what = value_name(w, o);
	harmless(o, V_CASES_SAME, o->ctx);
	for (int i = o->ctx + 1; i < t->len; i++) {
		int v = child(t, i, 0), hi = -1, ms = 0, mu = 0;
		long long k, k2;
		val_t lo, up;

		if (t->n[i].kind != CXCursor_CaseStmt || !inside_switch(t, i, o->ctx) ||
		    v < 0 || !eval_const(t, v, &k))
			continue;
		/* GNU case ranges: case 0x80 ... 0xff: */
		k2 = k;
		if (nchildren(t, i) == 3 && eval_const(t, child(t, i, 1), &k2))
			hi = child(t, i, 1);
		if (is_char_literal(t, v) && (hi < 0 || is_char_literal(t, hi)))
			continue;	/* '\xff' follows char's signedness */
		lo = convert(k, t->n[o->top].type);
		up = convert(k2, t->n[o->top].type);
		for (int b = 128; b < 256; b++) {
			ms |= o->d.s[b] >= lo && o->d.s[b] <= up;
			mu |= o->d.u[b] >= lo && o->d.u[b] <= up;
		}
		if (ms != mu)
			judge(w, &(struct verdict){ .id = hi < 0 ? V_CASE_UNREACHABLE : V_CASE_RANGE_PART,
						    .br = ms ? BREAKS_UNSIGNED : BREAKS_SIGNED,
						    .at = at_value(w, o, v), .value = what, .k = k,
						    .k2 = k2 });
	}
	free(what);
}

static void check_call(struct walk *w, struct occ *o)
{
	CXString s = clang_getCursorSpelling(T(w, o->ctx).cur);
	CXCursor callee = clang_getCursorReferenced(T(w, o->ctx).cur);
	int ctype = is_ctype_function(clang_getCString(s), callee);

	if (ctype) {
		char *what = value_name(w, o);

		judge(w, &(struct verdict){ .id = V_CTYPE_ARGUMENT, .br = BREAKS_SIGNED,
					    .at = at_value(w, o, o->top), .value = what,
					    .callee = clang_getCString(s) });
		free(what);
	} else {
		check_store(w, o);
	}
	clang_disposeString(s);
}

void check_context(struct walk *w, struct occ *o)
{
	static const struct {
		enum CXCursorKind kind;
		void (*check)(struct walk *, struct occ *);
	} contexts[] = {
		{ CXCursor_BinaryOperator, check_binary },
		{ CXCursor_CompoundAssignOperator, check_compound },
		{ CXCursor_ArraySubscriptExpr, check_subscript },
		{ CXCursor_SwitchStmt, check_switch },
		{ CXCursor_CallExpr, check_call },
		{ CXCursor_ReturnStmt, check_store },
		{ CXCursor_VarDecl, check_store },
		{ CXCursor_InitListExpr, check_store },
		{ CXCursor_GCCAsmStmt, check_store },
	};

	/* A value computed from a char is judged only by a test of it:
	 * c - '0' stored, indexed or added up is most often range-checked
	 * before, and reporting those would be noise. */
	if (o->derived && T(w, o->ctx).kind != CXCursor_SwitchStmt &&
	    !(T(w, o->ctx).kind == CXCursor_BinaryOperator && op_is_compare(T(w, o->ctx).op))) {
		if (T(w, o->ctx).kind != CXCursor_BinaryOperator || !derived_again(w, o))
			pass_on_derived(w, o);
		return;
	}
	if (tested_against_zero(&w->t, o->ctx, o->top)) {
		harmless(o, V_ZERO_TEST, o->top);
		return;
	}
	for (size_t i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++)
		if (contexts[i].kind == T(w, o->ctx).kind) {
			contexts[i].check(w, o);
			return;
		}
}
