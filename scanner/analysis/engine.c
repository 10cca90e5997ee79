/*
 * The walk: find every place a plain char value is widened to an integer
 * type (and every read of a variable that carries one), follow it up
 * through further conversions to the expression that observes it, and
 * hand that to the checks for that kind of context.  A check that only
 * derives a new value (c - '0') hands it back and the walk follows it
 * on; callees and callers are walked again from here.  Nothing calls
 * back into this file: carriers.c, the checks and returns.c are leaves.
 */
#include <stdlib.h>
#include <string.h>
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

/*
 * C does not promote an array index or a pointer offset, so clang puts
 * no conversion there: a plain char read directly as one is a value too.
 */
static int char_offset(const struct tree *t, int i)
{
	int p = up(t, i), other;
	enum op op;

	if (t->n[i].type.cls != T_PLAIN_CHAR || p < 0 || is_cast(t, p))
		return 0;
	if (t->n[p].kind == CXCursor_ArraySubscriptExpr)
		return strip_parens(t, child(t, p, 1)) == i ||
		       t->n[strip_parens(t, child(t, p, 0))].type.cls == T_PTR;
	op = t->n[p].op;
	if (t->n[p].kind == CXCursor_BinaryOperator && (op == OP_ADD || op == OP_SUB)) {
		other = strip_parens(t, child(t, p, 0)) == i ? child(t, p, 1) : child(t, p, 0);
		return other >= 0 && t->n[other].type.cls == T_PTR;
	}
	if (t->n[p].kind == CXCursor_CompoundAssignOperator &&
	    (op == OP_ADD_A || op == OP_SUB_A) && strip_parens(t, child(t, p, 1)) == i)
		return t->n[child(t, p, 0)].type.cls == T_PTR;
	return 0;
}

/* Is p an assignment of value i to a local variable whose own value is
 * used by an enclosing expression? */
static int value_of_assignment(struct walk *w, int i, int p)
{
	const struct tree *t = &w->t;
	int pp = t->n[p].parent;

	if (t->n[p].kind != CXCursor_BinaryOperator || t->n[p].op != OP_ASSIGN ||
	    child(t, p, 1) != i || t->n[p].type.cls != T_INT || pp < 0 ||
	    !is_expr(t->n[pp].kind))
		return 0;
	return referenced_carrier(w, child(t, p, 0)) >= 0;
}

/* Up from o->top through parentheses, integer conversions and used
 * assignments to the expression that observes the value: o->ctx, or
 * -1 when the value goes back to a char, a pointer or a float. */
static int climb(struct walk *w, struct occ *o, struct domain *d)
{
	const struct tree *t = &w->t;

	for (;;) {
		int p = t->n[o->top].parent;

		o->ctx = p;
		if (p < 0)
			return -1;
		/* k ? c : n is c on its way: observed where the ?: is */
		if (t->n[p].kind == CXCursor_ParenExpr ||
		    (t->n[p].kind == CXCursor_ConditionalOperator && child(t, p, 0) != o->top)) {
			o->top = p;
			continue;
		}
		/* (c = next()) != EOF: the assignment's value, when
		 * something uses it, is observed as well as c's reads. */
		if (value_of_assignment(w, o->top, p)) {
			domain_convert(d, t->n[p].type);
			o->top = p;
			continue;
		}
		if (!is_cast(t, p))
			return p;
		if (t->n[p].type.cls != T_INT && t->n[p].type.cls != T_BOOL)
			return -1;
		domain_convert(d, t->n[p].type);
		o->top = p;
	}
}

/* Judge value d, computed at node start, where it is observed; a
 * value the check derives without observing it (c - '0') goes on. */
static void observe(struct walk *w, int ref, int src, int carrier, int start,
	     struct domain *d, int derived)
{
	struct occ o = { .ref = ref, .src = src, .carrier = carrier, .top = start,
			 .ctx = -1, .derived = derived, .pass = -1 };

	for (;;) {
		size_t before = w->out->len;

		if (climb(w, &o, d) < 0)
			return;
		o.d = *d;
		if (!domain_differs(d))
			harmless(&o, V_CONVERTED_SAME, o.top);
		else if (ascii_source(w, src))
			harmless(&o, V_ASCII_SOURCE, o.top);
		else if (ascii_guard(w, &o) >= 0)
			harmless(&o, V_ASCII_GUARD, o.top);
		else if (one_sided_guard(w, &o) >= 0)
			harmless(&o, V_ONE_SIDED_GUARD, o.top);
		else
			check_context(w, &o);
		if (o.pass >= 0 && w->opts->explain && w->out->len == before)
			report_pass(w, o.pass, o.pass_node);
		if (!o.goes_on)
			return;
		*d = o.d;
		o = (struct occ){ .ref = ref, .src = src, .carrier = carrier, .top = o.ctx,
				  .ctx = -1, .derived = 1, .pass = -1 };
	}
}

/* Is i the value stored into a local variable (its initializer, or
 * the right side of an assignment to it)? */
static int stored_in_local(const struct tree *t, int p, int i)
{
	CXCursor d = t->n[p].cur;

	if (t->n[p].kind == CXCursor_BinaryOperator && t->n[p].op == OP_ASSIGN &&
	    child(t, p, 1) == i) {
		int lhs = strip_parens(t, child(t, p, 0));

		if (lhs < 0 || t->n[lhs].kind != CXCursor_DeclRefExpr)
			return 0;
		d = clang_getCursorReferenced(t->n[lhs].cur);
	} else if (t->n[p].kind != CXCursor_VarDecl) {
		return 0;
	}
	return local_variable(d);
}

/*
 * A plain char that is not widened can still change code: the ABI has
 * the caller extend a char argument (and the callee a char result) by
 * its signedness, a bare condition is tested in a wider register, and a
 * char kept in a char variable is loaded extended for its wider uses.
 * The value the code sees is the same byte either way: --explain says so.
 */
static void explain_unwidened(struct walk *w, int i)
{
	const struct tree *t = &w->t;
	int p = up(t, i);
	int why = -1;

	if (p < 0 || t->n[i].type.cls != T_PLAIN_CHAR || !is_expr(t->n[i].kind) ||
	    (t->n[i].parent >= 0 && is_cast(t, t->n[i].parent)))
		return;
	switch (t->n[p].kind) {
	case CXCursor_CallExpr:
		if (child(t, p, 0) != i)
			why = V_PASSED_AS_CHAR;
		break;
	case CXCursor_ReturnStmt:
		why = V_RETURNED_AS_CHAR;
		break;
	default:	/* !c: C promotes no operand of ! */
		if (tested_against_zero(t, p, i))
			why = V_ZERO_TEST;
		else if (stored_in_local(t, p, i))
			why = V_KEPT_IN_LOCAL;
		break;
	}
	if (why >= 0)
		report_pass(w, why, i);
}

/* Is node i a variable read for its value? */
static int variable_read(const struct tree *t, int i)
{
	return t->n[i].kind == CXCursor_DeclRefExpr && is_loaded(t, i);
}

/* In a caller walked again: a call of a function that returns a
 * widened char, a read of a field or global one is stored into, or a
 * variable assigned either. */
static void find_returned(struct walk *w, int i)
{
	const struct tree *t = &w->t;
	struct domain d;
	int k = returned_value(w, i), c, why;

	if (k >= 0 && (t->n[i].kind == CXCursor_CallExpr ||
		       t->n[i].kind == CXCursor_MemberRefExpr || t->n[i].kind == CXCursor_DeclRefExpr)) {
		/* A function's own char parameter returned: what this
		 * call passes it. */
		if (w->ret[k].param >= 0 && t->n[i].kind == CXCursor_CallExpr &&
		    (why = ascii_argument(w, i, w->ret[k].param)) >= 0) {
			if (w->opts->explain)
				report_pass(w, why, i);
			return;
		}
		d = w->ret[k].d;
		observe(w, i, i, -1, i, &d, w->ret[k].derived);
		return;
	}
	if (!variable_read(t, i) || (c = referenced_carrier(w, i)) < 0 ||
	    w->car[c].bad || w->car[c].ret < 0)
		return;
	d = w->ret[w->car[c].ret].d;
	domain_convert(&d, w->car[c].type);
	observe(w, i, w->car[c].src, c, i, &d, w->ret[w->car[c].ret].derived);
}

static void find_values(struct walk *w)
{
	const struct tree *t = &w->t;
	struct domain d;

	for (int i = 0; i < t->len; i++) {
		int src = widened_char(t, i), k;
		const struct domain *seed_d;

		/* A caller walked again: only the values functions return. */
		if (w->ret_pass) {
			find_returned(w, i);
			continue;
		}
		/* A callee walked again: only its seeded parameter. */
		if (w->seed && (src >= 0 || char_offset(t, i)))
			continue;
		if (w->opts->explain && !w->seed)
			explain_unwidened(w, i);
		if (src >= 0) {
			if (in_constant_test(t, src)) {
				if (w->opts->explain && !w->seed)
					report_pass(w, V_INTROSPECTION, src);
				continue;
			}
			domain_char(&d);
			domain_convert(&d, t->n[i].type);
			observe(w, src, src, -1, i, &d, 0);
			continue;
		}
		if (char_offset(t, i)) {
			domain_char(&d);
			observe(w, i, i, -1, i, &d, 0);
			continue;
		}
		if (!variable_read(t, i) || (k = referenced_carrier(w, i)) < 0 ||
		    (w->car[k].bad && (w->seed || (k = reached_carrier(w, k, i)) < 0)) ||
		    w->car[k].src < 0 || w->car[k].ret >= 0 || (w->seed && !w->car[k].caller))
			continue;
		/* A seeded parameter given a computed value carries it. */
		seed_d = w->car[k].caller ? w->seed->d : NULL;
		if (w->car[k].derived >= 0)
			char_expr(t, w->car[k].derived, &d);
		else if (seed_d)
			d = *seed_d;
		else
			domain_char(&d);
		domain_convert(&d, w->car[k].type);
		observe(w, i, w->car[k].src, k, i, &d, w->car[k].derived >= 0 || seed_d);
	}
}

/* The code for a char parameter's uses differs at the function's entry
 * (testb against testl: the callee relies on the caller's extension,
 * which the ABI makes by the signedness): --explain says so at the
 * body's opening brace, where the compiler puts it. */
static void explain_parameters(struct walk *w)
{
	const struct tree *t = &w->t;
	int body = -1;

	if (t->n[0].kind != CXCursor_FunctionDecl)
		return;
	for (int c = t->n[0].first; c >= 0; c = t->n[c].next)
		if (t->n[c].kind == CXCursor_CompoundStmt)
			body = c;
	for (int c = t->n[0].first; body >= 0 && c >= 0; c = t->n[c].next)
		if (t->n[c].kind == CXCursor_ParmDecl && t->n[c].type.cls == T_PLAIN_CHAR)
			report_pass_of(w, V_CHAR_PARAMETER, body, c);
}

static void walk_decl(struct walk *w, CXCursor c)
{
	CXString name = clang_getCursorSpelling(c);
	size_t from = w->out->len;

	w->function = xstrdup(clang_getCString(name));
	clang_disposeString(name);
	tree_build(&w->t, w->tu, c);
	find_carriers(w);
	find_values(w);
	if (!w->seed && !w->ret_pass) {
		if (w->opts->explain)
			explain_parameters(w);
		note_int_calls(w);
		note_table_uses(w);
		note_store_reads(w);
		note_param_args(w);
		note_field_writes(w);
		check_stores(w);
		if (clang_getCursorKind(c) == CXCursor_FunctionDecl)
			note_static_walk(w, c, from);
	}
	free(w->function);
	w->function = NULL;
}

static int external_definition(CXCursor c)
{
	return clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
	       clang_getCursorLinkage(c) == CXLinkage_External && !in_system_header(c);
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct walk *w = data;

	(void)parent;
	if ((k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) ||
	    k == CXCursor_VarDecl) {
		if (!in_system_header(c))
			walk_decl(w, c);
	}
	if (w->xout && external_definition(c)) {
		CXString s = clang_getCursorSpelling(c);

		xrecs_add_name(w->xout, X_DEF, clang_getCString(s));
		clang_disposeString(s);
	}
	return CXChildVisit_Continue;
}

/* Each function of this TU another TU passes a widened char to: walked
 * again with that parameter as the carrier, as for a call from here. */
struct seed_search {
	struct walk *w;
	const struct xrec *x;
};

static enum CXChildVisitResult seed_one(CXCursor c, CXCursor parent, CXClientData data)
{
	struct seed_search *s = data;
	struct walk *w = s->w;
	CXString name;
	int hit;

	(void)parent;
	if (!external_definition(c))
		return CXChildVisit_Continue;
	name = clang_getCursorSpelling(c);
	hit = !strcmp(clang_getCString(name), s->x->name);
	clang_disposeString(name);
	if (!hit || (unsigned)clang_Cursor_getNumArguments(c) <= s->x->arg)
		return hit ? CXChildVisit_Break : CXChildVisit_Continue;
	seed_parameter(w, (struct param_in){ c, s->x->arg, s->x->text, clang_getNullCursor(),
					     clang_getNullCursor(), &s->x->loc, NULL }, s->x->d);
	return CXChildVisit_Break;
}

static void seed_from_other_tus(struct walk *w)
{
	for (size_t k = 0; w->xin && k < w->xin->nseeds; k++) {
		struct seed_search s = { w, w->xin->seeds[k] };

		clang_visitChildren(clang_getTranslationUnitCursor(w->tu), seed_one, &s);
	}
}

/* Walk each callee again with its parameter as the char's carrier; a
 * callee may pass it on, so until nothing new is added. */
static void follow_calls(struct walk *w, size_t *done)
{
	for (; *done < w->npin; ++*done) {
		struct param_in p = w->pin[*done];

		w->seed = &p;
		walk_decl(w, p.fn);
		w->seed = NULL;
	}
}

#define MAX_ROUNDS 4		/* callers returning it again, nested */

/* Walk again each caller of a function recorded since the last round
 * (returns.c), with only the returned values as values. */
static void follow_returns(struct walk *w)
{
	size_t from = 0;

	for (int round = 0; round < MAX_ROUNDS && from < w->nret; round++) {
		size_t upto = w->nret;
		CXCursor *callers;
		size_t n = callers_of_returners(w, from, &callers);

		w->ret_pass = 1;
		w->ret_from = from;
		for (size_t k = 0; k < n; k++)
			walk_decl(w, callers[k]);
		w->ret_pass = 0;
		free(callers);
		from = upto;
	}
}

void engine_run(CXTranslationUnit tu, const struct engine_opts *opts,
		const struct xtu_ctx *xin, struct findings *out, struct xrecs *xout)
{
	struct walk w = { .tu = tu, .opts = opts, .out = out, .xin = xin, .xout = xout };
	unsigned char *drop;
	size_t done = 0;

	expansions_begin(tu);
	preload_returns(&w);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_level, &w);
	seed_from_other_tus(&w);
	/* Into callees, out to callers, and into the callees they pass it
	 * to in turn. */
	follow_calls(&w, &done);
	follow_returns(&w);
	follow_calls(&w, &done);
	for (size_t i = 0; i < w.npin; i++) {
		free(w.pin[i].caller);
		free(w.pin[i].d);
	}
	returns_free(&w);
	/* What only the whole TU could tell: findings to take back. */
	drop = xcalloc(out->len + 1, 1);
	drop_signed_tables(&w, drop);
	drop_byte_stores(&w, drop);
	settle_static_returns(&w, drop);
	drop_ascii_params(&w, drop);
	drop_uncalled(&w, drop);
	fold_stores(&w, drop);
	note_kept_records(&w, drop);
	findings_drop(out, drop);
	free(drop);
	expansions_end();
	tree_free(&w.t);
	free(w.afn);
	free(w.alocal);
	free(w.car);
	free(w.wr);
	free(w.pin);
}
