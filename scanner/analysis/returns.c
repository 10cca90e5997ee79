/*
 * The way out of a function: a widened plain char returned as an int is
 * a value in each caller of this TU, followed there to where the caller
 * observes it (CERT STR34-C's lexer returns *str++ and its caller tests
 * the result against EOF).  The first walk records the returns and the
 * int-valued calls between functions; then the callers of a recorded
 * function are walked again (by the engine) with only those calls as
 * values, until no caller returns one in turn.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

#define MAX_RETURNS 256		/* functions followed out of, per TU */

/* The field or global variable node i reads as an int, or null. */
static CXCursor field_of(const struct tree *t, int i)
{
	CXCursor d;

	if ((t->n[i].kind != CXCursor_MemberRefExpr && t->n[i].kind != CXCursor_DeclRefExpr) ||
	    t->n[i].type.cls != T_INT || t->n[i].type.bits <= 8)
		return clang_getNullCursor();
	d = clang_getCursorReferenced(t->n[i].cur);
	if (clang_getCursorKind(d) == CXCursor_FieldDecl ||
	    (clang_getCursorKind(d) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d)))
		return clang_getCanonicalCursor(d);
	return clang_getNullCursor();
}

static CXCursor callee_of(const struct tree *t, int i)
{
	CXCursor fn = clang_getCursorReferenced(t->n[i].cur);

	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return clang_getNullCursor();
	return clang_getCanonicalCursor(fn);
}

static int find_return(struct walk *w, CXCursor fn, CXCursor call);

/* A function with no body here called for an int: another TU may say
 * it returns a char (summary.h). */
static void note_bodiless_call(struct walk *w, CXCursor fn)
{
	CXString s;

	if (!w->xout || clang_getCursorLinkage(fn) != CXLinkage_External)
		return;
	s = clang_getCursorSpelling(fn);
	xrecs_add_name(w->xout, X_CALL, clang_getCString(s));
	clang_disposeString(s);
}

/* Calls of functions that return an int: who might get a widened char
 * back.  Those with a body here, and those another TU said return one. */
void note_int_calls(struct walk *w)
{
	const struct tree *t = &w->t;
	size_t first = w->ncalls;

	if (t->n[0].kind != CXCursor_FunctionDecl)
		return;
	for (int i = 1; i < t->len; i++) {
		CXCursor fn;

		/* Reads of a wider field or global: once per function. */
		if (is_loaded(t, i) && !clang_Cursor_isNull(fn = field_of(t, i))) {
			size_t k;

			for (k = first; k < w->ncalls; k++)
				if (clang_equalCursors(w->calls[k].callee, fn))
					break;
			if (k == w->ncalls) {
				grow(&w->calls, &w->callcap, w->ncalls + 1, sizeof(*w->calls));
				w->calls[w->ncalls++] = (struct int_call){ t->n[0].cur, fn };
			}
			continue;
		}
		if (t->n[i].kind != CXCursor_CallExpr || t->n[i].type.cls != T_INT ||
		    clang_Cursor_isNull(fn = callee_of(t, i)))
			continue;
		if (clang_Cursor_isNull(clang_getCursorDefinition(fn))) {
			note_bodiless_call(w, fn);
			if (find_return(w, fn, clang_getNullCursor()) < 0)
				continue;
		}
		grow(&w->calls, &w->callcap, w->ncalls + 1, sizeof(*w->calls));
		w->calls[w->ncalls++] = (struct int_call){ t->n[0].cur, fn };
	}
}

/* The value call returns: of any call of fn, or of this call only (a
 * char passed in and returned). */
static int find_return(struct walk *w, CXCursor fn, CXCursor call)
{
	for (size_t k = 0; k < w->nret; k++)
		if (clang_Cursor_isNull(w->ret[k].call) ?
		    clang_equalCursors(w->ret[k].fn, fn) :
		    clang_equalCursors(w->ret[k].call, call))
			return (int)k;
	return -1;
}

const struct ret_val *returned_by(struct walk *w, const struct occ *o)
{
	int k = o->carrier >= 0 ? w->car[o->carrier].ret : returned_value(w, o->src);

	return k >= 0 ? &w->ret[k] : NULL;
}

/* A function other TUs can call returns a widened char: say so. */
static void note_returner(struct walk *w, const struct ret_val *r)
{
	struct xrec *x;
	struct loc l;

	if (!w->xout || clang_getCursorLinkage(r->fn) != CXLinkage_External ||
	    cursor_file_loc(r->stmt, &l))
		return;
	x = xrecs_add(w->xout, X_RET, r->name);
	x->text = xstrdup(r->what);
	x->loc = l;
	x->d = xmalloc(sizeof(*x->d));
	*x->d = r->d;
}

/* The index of the walked function's parameter that node src reads,
 * or -1. */
static int own_parameter(const struct tree *t, int src)
{
	int i = strip_implicit(t, src);
	CXCursor d;

	if (i < 0 || t->n[i].kind != CXCursor_DeclRefExpr)
		return -1;
	d = clang_getCursorReferenced(t->n[i].cur);
	if (clang_getCursorKind(d) != CXCursor_ParmDecl)
		return -1;
	for (int k = 0; k < clang_Cursor_getNumArguments(t->n[0].cur); k++)
		if (clang_equalCursors(clang_Cursor_getArgument(t->n[0].cur, (unsigned)k), d))
			return k;
	return -1;
}

/* o reaches a return statement of the function walked. */
void record_return(struct walk *w, const struct occ *o)
{
	const struct tree *t = &w->t;
	CXCursor fn = clang_getCanonicalCursor(t->n[0].cur), decl;
	const struct ret_val *inner;
	struct ret_val *r;
	char *what;

	CXCursor call = w->seed ? w->seed->call : clang_getNullCursor();

	/* A parameter passed from another TU goes back there: not here. */
	if (w->seed && clang_Cursor_isNull(call))
		return;
	if (t->n[0].kind != CXCursor_FunctionDecl || w->nret >= MAX_RETURNS ||
	    (!w->seed && find_return(w, fn, call) >= 0) ||
	    (w->seed && find_return(w, clang_getNullCursor(), call) >= 0))
		return;
	/* Returned on from a callee: the char is the callee's. */
	inner = returned_by(w, o);
	if (inner)
		what = xstrdup(inner->what);
	else if (w->seed)	/* the argument the caller passed */
		what = cursor_text(w->tu, clang_Cursor_getArgument(w->seed->call, w->seed->index));
	else
		what = operand_text(w, o->src);
	decl = inner ? inner->decl : trace_decl(t, o->src);
	grow(&w->ret, &w->retcap, w->nret + 1, sizeof(*w->ret));
	r = &w->ret[w->nret++];
	r->fn = fn;
	r->call = call;
	r->caller = w->seed ? w->seed->caller_fn : clang_getNullCursor();
	r->name = xstrdup(w->function);
	r->what = what;
	r->field = 0;
	r->by = NULL;
	r->stmt = t->n[o->ctx].cur;
	r->stmt_loc = NULL;
	r->decl = decl;
	r->d = o->d;
	r->derived = o->derived;
	r->param = w->seed ? -1 : own_parameter(t, o->src);
	/* Other TUs learn of the char itself only. */
	if (!w->seed && !o->derived)
		note_returner(w, r);
}

struct other_write {
	CXTranslationUnit tu;
	CXCursor var;		/* canonical */
	CXCursor store;		/* the store followed: not another */
	int found;
};

/* Past implicit conversions and parentheses, downwards. */
static CXCursor written(CXCursor c)
{
	while (clang_getCursorKind(c) == CXCursor_UnexposedExpr ||
	       clang_getCursorKind(c) == CXCursor_ParenExpr) {
		CXCursor k = cursor_first_child(c);

		if (clang_Cursor_isNull(k))
			break;
		c = k;
	}
	return c;
}

static enum CXChildVisitResult find_other_write(CXCursor c, CXCursor parent, CXClientData data)
{
	struct other_write *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor lhs, rhs = clang_getNullCursor();
	enum op op;

	(void)parent;
	if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator &&
	    k != CXCursor_UnaryOperator)
		return CXChildVisit_Recurse;
	op = cursor_op(s->tu, c);
	if (op != OP_ASSIGN && k == CXCursor_BinaryOperator)
		return CXChildVisit_Recurse;
	if (k == CXCursor_UnaryOperator && op != OP_INC && op != OP_DEC)
		return CXChildVisit_Recurse;
	lhs = written(cursor_first_child(c));
	if ((clang_getCursorKind(lhs) != CXCursor_MemberRefExpr &&
	     clang_getCursorKind(lhs) != CXCursor_DeclRefExpr) ||
	    !clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(lhs)), s->var) ||
	    clang_equalCursors(c, s->store))
		return CXChildVisit_Recurse;
	if (op == OP_ASSIGN)
		rhs = cursor_last_child(c);
	/* = of a plain char (widened: its own conversion is the only one) */
	if (op != OP_ASSIGN ||
	    classify_type(clang_getCursorType(written(rhs))).cls != T_PLAIN_CHAR) {
		s->found = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Is the field or global var (canonical) written anything but a plain
 * char somewhere in this TU, store aside (kprobes' rel32, set from s8,
 * s16 or s32 on other paths)?  Then a read of it holds no char of its
 * own. */
static int written_otherwise(struct walk *w, CXCursor var, CXCursor store)
{
	struct other_write s = { w->tu, var, store, 0 };

	clang_visitChildren(clang_getTranslationUnitCursor(w->tu), find_other_write, &s);
	return s.found;
}

/* o is stored into a field or a global: its reads elsewhere in this TU
 * are the char's value (x->off32 = *(char *)bytes, read as an offset
 * by another function).  The first store recorded speaks for them. */
void record_field(struct walk *w, const struct occ *o, int lhs)
{
	const struct tree *t = &w->t;
	CXCursor var = field_of(t, lhs), decl;
	const struct ret_val *inner;
	struct ret_val *r;
	CXString s;
	char *what;

	if (clang_Cursor_isNull(var) || w->nret >= MAX_RETURNS ||
	    (w->seed && clang_Cursor_isNull(w->seed->call)) ||
	    find_return(w, var, clang_getNullCursor()) >= 0 ||
	    written_otherwise(w, var, t->n[o->ctx].cur))
		return;
	/* Stored on from a function's result: the char is that one's.
	 * Taken before w->ret grows, which may move it. */
	inner = returned_by(w, o);
	what = inner ? xstrdup(inner->what) : operand_text(w, o->src);
	decl = inner ? inner->decl : trace_decl(t, o->src);
	grow(&w->ret, &w->retcap, w->nret + 1, sizeof(*w->ret));
	r = &w->ret[w->nret++];
	memset(r, 0, sizeof(*r));
	r->fn = var;
	r->field = 1;
	r->by = xstrdup(w->function);
	r->call = r->caller = clang_getNullCursor();
	s = clang_getCursorSpelling(var);
	r->name = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	r->what = what;
	r->stmt = t->n[o->ctx].cur;
	r->decl = decl;
	r->d = o->d;
	r->derived = o->derived;
	r->param = -1;
}

int returned_value(struct walk *w, int i)
{
	const struct tree *t = &w->t;
	CXCursor var;
	int k;

	i = strip_implicit(t, i);	/* a field is read through its load */
	if (!w->ret_pass || i < 0)
		return -1;
	if (t->n[i].kind == CXCursor_CallExpr)
		k = find_return(w, callee_of(t, i), t->n[i].cur);
	else if (is_loaded(t, i) && !clang_Cursor_isNull(var = field_of(t, i)))
		k = find_return(w, var, clang_getNullCursor());
	else
		return -1;
	return k >= (int)w->ret_from ? k : -1;
}

static int has_cursor(const CXCursor *v, size_t n, CXCursor c)
{
	for (size_t k = 0; k < n; k++)
		if (clang_equalCursors(v[k], c))
			return 1;
	return 0;
}

static void add_cursor(CXCursor **v, size_t *n, size_t *cap, CXCursor c)
{
	if (has_cursor(*v, *n, c))
		return;
	grow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = c;
}

/* Every call, field read and returned parameter is looked at once (a TU
 * with large headers has tens of thousands); the callers come out in
 * the order of their first call. */
size_t callers_of_returners(struct walk *w, size_t from, CXCursor **callers)
{
	CXCursor *hit = NULL;
	size_t nhit = 0, hitcap = 0, n = 0, cap = 0;

	for (size_t k = from; k < w->nret; k++)
		if (!clang_Cursor_isNull(w->ret[k].call))
			add_cursor(&hit, &nhit, &hitcap, w->ret[k].caller);
	for (size_t c = 0; c < w->ncalls; c++)
		for (size_t k = from; k < w->nret; k++)
			if (clang_Cursor_isNull(w->ret[k].call) &&
			    clang_equalCursors(w->calls[c].callee, w->ret[k].fn)) {
				add_cursor(&hit, &nhit, &hitcap, w->calls[c].caller);
				break;
			}
	*callers = NULL;
	for (size_t c = 0; c < w->ncalls && n < nhit; c++)
		if (has_cursor(hit, nhit, w->calls[c].caller))
			add_cursor(callers, &n, &cap, w->calls[c].caller);
	free(hit);
	return n;
}

/* The declaration (not a definition: the body is elsewhere) of each
 * function another TU returns a widened char from. */
static enum CXChildVisitResult preload_one(CXCursor c, CXCursor parent, CXClientData data)
{
	struct walk *w = data;
	CXCursor fn;
	CXString s;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || w->nret >= MAX_RETURNS)
		return CXChildVisit_Continue;
	fn = clang_getCanonicalCursor(c);
	if (!clang_Cursor_isNull(clang_getCursorDefinition(fn)) ||
	    find_return(w, fn, clang_getNullCursor()) >= 0)
		return CXChildVisit_Continue;
	s = clang_getCursorSpelling(c);
	for (size_t k = 0; k < w->xin->nrets; k++) {
		const struct xrec *x = w->xin->rets[k];
		struct ret_val *r;

		if (strcmp(x->name, clang_getCString(s)))
			continue;
		grow(&w->ret, &w->retcap, w->nret + 1, sizeof(*w->ret));
		r = &w->ret[w->nret++];
		memset(r, 0, sizeof(*r));
		r->fn = fn;
		r->call = r->caller = r->stmt = r->decl = clang_getNullCursor();
		r->name = xstrdup(x->name);
		r->what = xstrdup(x->text);
		r->stmt_loc = &x->loc;
		r->d = *x->d;
		r->param = -1;
		break;
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

void preload_returns(struct walk *w)
{
	if (w->xin && w->xin->nrets)
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu), preload_one, w);
}

/* In a function with internal linkage, the return just reported (note,
 * or SIZE_MAX) and explained (pass, or SIZE_MAX). */
void note_static_return(struct walk *w, size_t note, size_t pass)
{
	if (note == SIZE_MAX && pass == SIZE_MAX)
		return;
	grow(&w->sret, &w->sretcap, w->nsret + 1, sizeof(*w->sret));
	w->sret[w->nsret++] = (struct static_return){
		clang_getCanonicalCursor(w->t.n[0].cur), note, pass };
}

/* Callers all in this TU (walked again with the value): the pass stays.
 * The address taken: the note stays. */
void settle_static_returns(struct walk *w, unsigned char *drop)
{
	for (size_t k = 0; k < w->nsret; k++) {
		size_t gone = address_taken(w, w->sret[k].fn) ? w->sret[k].pass : w->sret[k].note;

		if (gone < w->out->len)
			drop[gone] = 1;
	}
	free(w->sret);
}

void returns_free(struct walk *w)
{
	for (size_t k = 0; k < w->nret; k++) {
		free(w->ret[k].name);
		free(w->ret[k].what);
		free(w->ret[k].by);
	}
	free(w->ret);
	free(w->calls);
}
