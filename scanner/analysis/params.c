/*
 * Parameters of plain char in functions only this file can call: when
 * every call passes an ASCII constant (bunzip2's get_bits(bd, 8),
 * helper(s, ',')) or a char read behind an ASCII-only guard, the function's address is never taken and the body
 * never writes the parameter, it holds ASCII only.  The same for a
 * pointer to plain char every call points at a constant ASCII table or
 * literal (hid-sony's ghl_init_urb(..., ghl_ps4_magic_data, ...)): what
 * it reads is ASCII.  The walk counts the arguments of every such call;
 * a finding whose char is (read through) such a parameter is dropped
 * once the whole TU has been seen (said as a pass with --explain).  A
 * function with external linkage is called from the whole scan: its
 * calls and its char and const char * parameters' findings are records
 * for the join (xbuffers.c, xtu/buffers.c), pci_find_saved_cap(dev,
 * PCI_CAP_ID_EXP), __i915_printk(i915, KERN_ERR, ...).
 */
#include <stdlib.h>
#include "core/core.h"
#include "walk.h"

static int is_plain_char(CXType t)
{
	return classify_type(t).cls == T_PLAIN_CHAR;
}

/* What char *p or char p[] points at (a parameter's array is a
 * pointer); an invalid type for anything else. */
static CXType pointee(CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_Pointer)
		return clang_getPointeeType(t);
	if (t.kind == CXType_IncompleteArray || t.kind == CXType_ConstantArray)
		return clang_getArrayElementType(t);
	return (CXType){ .kind = CXType_Invalid };
}

static int points_to_plain_char(CXType t)
{
	return is_plain_char(pointee(t));
}

static int internal_function(CXCursor fn)
{
	return !clang_Cursor_isNull(fn) && clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
	       clang_getCursorLinkage(fn) == CXLinkage_Internal;
}

static int external_function(CXCursor fn)
{
	return !clang_Cursor_isNull(fn) && clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
	       clang_getCursorLinkage(fn) == CXLinkage_External;
}

static struct param_use *param_of(struct walk *w, CXCursor fn, int index)
{
	for (size_t k = 0; k < w->nparam; k++)
		if (w->param[k].index == index && clang_equalCursors(w->param[k].fn, fn))
			return &w->param[k];
	grow(&w->param, &w->paramcap, w->nparam + 1, sizeof(*w->param));
	w->param[w->nparam] = (struct param_use){ .fn = fn, .index = index, .via_index = -1 };
	return &w->param[w->nparam++];
}

/* Argument k of a call of fn, given to a char parameter (or, with
 * pointers, a char * one): 1 when it holds ASCII only, 0 when it may
 * not, -1 when the parameter is neither. */
static int ascii_argument_of(struct walk *w, int call, CXCursor fn, int k, int pointers)
{
	CXType type = clang_getCursorType(clang_Cursor_getArgument(fn, k));
	int arg = child(&w->t, call, k + 1);

	if (is_plain_char(type))	/* f('x'), or f(*s) behind isdigit(*s) */
		return arg >= 0 && ascii_value_seen(w, arg);
	if (pointers && points_to_plain_char(type))
		return arg >= 0 && ascii_pointer(&w->t, arg);
	return -1;
}

static int judged_by_calls(CXCursor fn, int k);
static int written(const struct tree *t, CXCursor decl);

/* Argument k of a call is a parameter of the function being walked, one
 * of a function other files call that the join judges by its calls and
 * the body never writes (pci_vpd_find_ro_info_keyword(buf, len, kw, ...)
 * passing its kw on to the static pci_vpd_find_info_keyword()): its
 * index there, or -1. */
static int passed_on(struct walk *w, int call, int k)
{
	int arg = strip_implicit(&w->t, child(&w->t, call, k + 1));
	CXCursor caller = w->t.n[0].cur, d;
	int n;

	if (arg < 0 || w->t.n[arg].kind != CXCursor_DeclRefExpr || !external_function(caller))
		return -1;
	d = clang_getCursorReferenced(w->t.n[arg].cur);
	if (clang_getCursorKind(d) != CXCursor_ParmDecl || written(&w->t, d))
		return -1;
	n = clang_Cursor_getNumArguments(caller);
	for (int j = 0; j < n; j++)
		if (clang_equalCursors(clang_Cursor_getArgument(caller, (unsigned)j), d))
			return judged_by_calls(caller, j) ? j : -1;
	return -1;
}

static void note_call(struct walk *w, int call, CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn);
	CXCursor caller = clang_getCanonicalCursor(w->t.n[0].cur);

	for (int k = 0; k < n; k++) {
		int ascii = ascii_argument_of(w, call, fn, k, 1), via;
		struct param_use *u;

		if (ascii > 0) {
			param_of(w, fn, k)->ascii_args++;
			continue;
		}
		if (ascii < 0)
			continue;
		u = param_of(w, fn, k);
		via = passed_on(w, call, k);
		/* one such parameter only: the record names one */
		if (via >= 0 && (!u->via_args ||
				 (u->via_index == via && clang_equalCursors(u->via, caller)))) {
			u->via = caller;
			u->via_index = via;
			u->via_args++;
		} else {
			u->other_args++;
		}
	}
}

/* A const char * parameter: the function reads the text it is given and
 * never writes it, so text that is ASCII at every call stays ASCII. */
static int points_to_const_plain_char(CXType t)
{
	CXType p = pointee(t);

	return is_plain_char(p) && clang_isConstQualifiedType(p);
}

/* A parameter of a function other TUs call that the join judges by its
 * calls: a plain char, or a const char * (i915's __i915_printk(...,
 * KERN_ERR, ...), pci_vpd_find_ro_info_keyword(..., "SN", ...)). */
static int judged_by_calls(CXCursor fn, int k)
{
	CXType t = clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)k));

	return is_plain_char(t) || points_to_const_plain_char(t);
}

/* A call of a function other TUs call too: what each char or char *
 * argument gives, for the join (records G under "v:name",
 * xtu/buffers.c), whatever this file's declaration says of const (the
 * definition's decides).  Through a declaration without a prototype
 * (`int f();`) the parameters are not known: every argument may be
 * anything. */
static void note_open_value_call(struct walk *w, int call, CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn);

	if (clang_getCursorType(fn).kind == CXType_FunctionNoProto) {
		n = clang_Cursor_getNumArguments(w->t.n[call].cur);
		for (int k = 0; k < n; k++)
			note_value_argument(w, call, fn, k, 0);
		return;
	}
	for (int k = 0; k < n; k++) {
		int ascii = ascii_argument_of(w, call, fn, k, 1);

		if (ascii >= 0)
			note_value_argument(w, call, fn, k, ascii);
	}
}

void note_param_args(struct walk *w)
{
	const struct tree *t = &w->t;

	for (int i = 0; i < t->len; i++) {
		CXCursor fn;

		if (t->n[i].kind != CXCursor_DeclRefExpr)
			continue;
		fn = clang_getCursorReferenced(t->n[i].cur);
		if (external_function(fn) && is_callee(t, i))
			note_open_value_call(w, t->n[climb_implicit(t, i)].parent, fn);
		if (!internal_function(fn))
			continue;
		fn = clang_getCanonicalCursor(fn);
		if (is_callee(t, i))
			note_call(w, t->n[climb_implicit(t, i)].parent, fn);
		else
			param_of(w, fn, -1)->address_taken = 1;
	}
}

/* Is the parameter written in the body (c = x, c++, &c)?  Then the
 * calls' constants are not all it holds. */
static int written(const struct tree *t, CXCursor decl)
{
	for (int i = 1; i < t->len; i++) {
		int ref = written_ref(t, i);

		if (ref >= 0 && clang_equalCursors(clang_getCursorReferenced(t->n[ref].cur), decl))
			return 1;
	}
	return 0;
}

/* A finding was just added about the char held by decl. */
void note_param_finding(struct walk *w, CXCursor decl, size_t finding)
{
	CXCursor fn = w->t.n[0].cur;
	int n;

	if (clang_Cursor_isNull(decl) || clang_getCursorKind(decl) != CXCursor_ParmDecl ||
	    !(is_plain_char(clang_getCursorType(decl)) ||
	      points_to_plain_char(clang_getCursorType(decl))) ||
	    !(internal_function(fn) || external_function(fn)) || written(&w->t, decl))
		return;
	n = clang_Cursor_getNumArguments(fn);
	for (int k = 0; k < n; k++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, k), decl)) {
			grow(&w->pfind, &w->pfindcap, w->npfind + 1, sizeof(*w->pfind));
			w->pfind[w->npfind++] = (struct param_finding){
				clang_getCanonicalCursor(fn), k, finding };
			return;
		}
}

int address_taken(struct walk *w, CXCursor fn)
{
	return param_of(w, clang_getCanonicalCursor(fn), -1)->address_taken;
}

/* With --explain, the finding is said as a pass, for what it is. */
static void say_as_pass(struct finding *f)
{
	finding_make_pass(f, xasprintf("'%s': %s", f->operand ? f->operand : "...",
				       verdict_text(V_ASCII_ARGUMENTS)));
}

void drop_ascii_params(struct walk *w, unsigned char *drop)
{
	for (size_t f = 0; f < w->npfind; f++) {
		const struct param_finding *pf = &w->pfind[f];
		int address_taken = param_of(w, pf->fn, -1)->address_taken;
		const struct param_use *u = param_of(w, pf->fn, pf->index);

		if (pf->finding >= w->out->len)
			continue;
		/* its callers are in the whole scan: the join's (a store
		 * through the parameter is judged by its readers, xbuffers.c) */
		if (external_function(pf->fn)) {
			if (w->out->v[pf->finding].rule == CS004 || !judged_by_calls(pf->fn, pf->index))
				continue;
			note_kept_value(w, pf->finding, pf->fn, pf->index);
			continue;
		}
		if (address_taken || !(u->ascii_args || u->via_args) || u->other_args)
			continue;
		/* ASCII if every call of the function that passes its own
		 * parameter on is given ASCII: the join's to say */
		if (u->via_args) {
			if (w->out->v[pf->finding].rule != CS004)
				note_kept_value(w, pf->finding, u->via, u->via_index);
			continue;
		}
		if (w->opts->explain)
			say_as_pass(&w->out->v[pf->finding]);
		else
			drop[pf->finding] = 1;
	}
	free(w->param);
	free(w->pfind);
}
