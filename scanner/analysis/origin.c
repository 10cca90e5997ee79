/*
 * Where a judged value's bytes come from, and so how sure its finding
 * is that a byte 0x80-0xff really reaches the use.  High when one
 * provably does: the code names such a byte (a constant compared, a
 * case label, a constant stored), the value is such a constant, a table
 * whose initializer holds such bytes, or bytes copied from user space.
 * Low when the value only leaves the function (CS010: the reader is
 * elsewhere).  Medium otherwise, with the origin said: a parameter, a
 * field, what a function returns, data charscan cannot bound.  A field
 * some write of which is such a constant is raised to high once every
 * TU is seen (xtu/settle.c).
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

/* Rules whose finding names the byte itself: a constant outside 0..127
 * compared, a case label, a store. */
static const struct {
	enum rule_id rule;
	enum confidence conf;
	const char *origin;
} by_rule[] = {
	{ CS001, CONF_HIGH, "the code names a byte outside 0..127 (the constant compared)" },
	{ CS004, CONF_MEDIUM, "a constant outside 0..127 is stored; no read of it as a number "
			      "is in sight (a copy or a use elsewhere may be one)" },
	{ CS007, CONF_HIGH, "the code names a byte outside 0..127 (the case label)" },
	{ CS010, CONF_LOW, "leaves the function: its reader is elsewhere" },
};

/* Functions that bring bytes from outside the program: user space, a
 * file or stream, the environment; the argument they fill (-1: they
 * return it: memdup_user(), getenv()).  Any byte can come. */
static const struct {
	const char *name;
	int arg;
	const char *from;
} outside[] = {
	{ "copy_from_user", 0, "user space" }, { "__copy_from_user", 0, "user space" },
	{ "raw_copy_from_user", 0, "user space" }, { "strncpy_from_user", 0, "user space" },
	{ "copy_from_sockptr", 0, "user space" }, { "memdup_user", -1, "user space" },
	{ "memdup_user_nul", -1, "user space" }, { "strndup_user", -1, "user space" },
	{ "vmemdup_user", -1, "user space" },
	{ "fgets", 0, "a file or stream" }, { "fread", 0, "a file or stream" },
	{ "read", 1, "a file or stream" }, { "pread", 1, "a file or stream" },
	{ "getline", 0, "a file or stream" }, { "recv", 1, "a socket" },
	{ "recvfrom", 1, "a socket" }, { "getenv", -1, "the environment" },
	{ "secure_getenv", -1, "the environment" },
};

static int high(long long k)
{
	return k < 0 || k > 0x7f;
}

static enum CXChildVisitResult high_element(CXCursor c, CXCursor parent, CXClientData data)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int *hit = data;

	(void)parent;
	if (r && clang_EvalResult_getKind(r) == CXEval_Int && high(clang_EvalResult_getAsLongLong(r)))
		*hit = 1;
	if (r)
		clang_EvalResult_dispose(r);
	return *hit ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A string literal or initializer list holding a byte outside 0..127. */
static int high_bytes(CXCursor init)
{
	CXEvalResult r;
	const char *s;
	int hit = 0;

	while (clang_getCursorKind(init) == CXCursor_UnexposedExpr)
		init = cursor_first_child(init);
	if (clang_getCursorKind(init) == CXCursor_InitListExpr) {
		clang_visitChildren(init, high_element, &hit);
		return hit;
	}
	if (clang_getCursorKind(init) != CXCursor_StringLiteral || !(r = clang_Cursor_Evaluate(init)))
		return 0;
	if (clang_EvalResult_getKind(r) == CXEval_StrLiteral && (s = clang_EvalResult_getAsStr(r)))
		for (; *s && !hit; s++)
			hit = (unsigned char)*s > 0x7f;
	clang_EvalResult_dispose(r);
	return hit;
}

/* A table (an array variable) whose initializer holds such a byte. */
static int high_table(CXCursor var)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(var));
	CXCursor init;

	if (clang_getCursorKind(var) != CXCursor_VarDecl || t.kind != CXType_ConstantArray)
		return 0;
	init = cursor_last_child(var);
	return !clang_Cursor_isNull(init) && high_bytes(init);
}

/* The call in this function that fills decl from outside (its argument,
 * or the variable assigned its result): its index in outside[], or -1. */
static int outside_fill(struct walk *w, CXCursor decl)
{
	const struct tree *t = &w->t;

	for (int i = 1; i < t->len; i++) {
		CXString s;
		int hit = -1;

		if (t->n[i].kind != CXCursor_CallExpr)
			continue;
		s = clang_getCursorSpelling(t->n[i].cur);
		for (size_t k = 0; k < sizeof(outside) / sizeof(*outside) && hit < 0; k++) {
			int a;

			if (strcmp(clang_getCString(s), outside[k].name))
				continue;
			if (outside[k].arg < 0) {
				a = t->n[climb_implicit(t, i)].parent;
				a = a >= 0 && t->n[a].op == OP_ASSIGN ? child(t, a, 0) :
				    a >= 0 && t->n[a].kind == CXCursor_VarDecl ? a : -1;
			} else {
				a = child(t, i, outside[k].arg + 1);
			}
			a = strip_implicit(t, a);
			if (a >= 0 && t->n[a].kind == CXCursor_UnaryOperator && t->n[a].op == OP_ADDR)
				a = strip_implicit(t, child(t, a, 0));
			if (a >= 0 && (t->n[a].kind == CXCursor_DeclRefExpr || t->n[a].kind == CXCursor_VarDecl) &&
			    clang_equalCursors(t->n[a].kind == CXCursor_VarDecl ? t->n[a].cur :
					       clang_getCursorReferenced(t->n[a].cur), decl))
				hit = (int)k;
		}
		clang_disposeString(s);
		if (hit >= 0)
			return hit;
	}
	return -1;
}

static char *named(const char *fmt, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *text = xasprintf(fmt, clang_getCString(s));

	clang_disposeString(s);
	return text;
}

/* The constant the value read at node i is: itself, or what the one
 * write of a local reaching it stores (char c = '\xff'). */
static int constant_value(struct walk *w, CXCursor decl, int i, long long *k)
{
	int v;

	if (i < 0)
		return 0;
	if (eval_const(&w->t, i, k))
		return 1;
	if (clang_getCursorKind(decl) != CXCursor_VarDecl ||
	    clang_Cursor_hasVarDeclGlobalStorage(decl))
		return 0;
	v = reaching_value(w, decl, strip_implicit(&w->t, i));
	return v >= 0 && eval_const(&w->t, v, k);
}

/* The variable a byte read through a pointer comes from: p in *p++,
 * p[i], *(p + 1); or a null cursor. */
static CXCursor pointer_base(const struct tree *t, int i)
{
	for (int hops = 0; hops < 16 && (i = strip_implicit(t, i)) >= 0; hops++) {
		const struct node *n = &t->n[i];

		if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr)
			return n->type.cls == T_PTR ? clang_getCursorReferenced(n->cur) :
						      clang_getNullCursor();
		if (n->kind == CXCursor_ArraySubscriptExpr ||
		    (n->kind == CXCursor_BinaryOperator && (n->op == OP_ADD || n->op == OP_SUB)))
			i = t->n[strip_implicit(t, child(t, i, 0))].type.cls == T_PTR ?
			    child(t, i, 0) : child(t, i, 1);
		else if (n->kind == CXCursor_UnaryOperator || is_cast(t, i))
			i = is_cast(t, i) ? cast_operand(t, i) : child(t, i, 0);
		else
			break;
	}
	return clang_getNullCursor();
}

/* A local pointer whose one write reaching the read is a parameter
 * (char *p = str): that parameter. */
static CXCursor pointer_origin(struct walk *w, CXCursor p, int read)
{
	int v;

	if (!local_variable(p) || read < 0)
		return p;
	read = strip_implicit(&w->t, read);
	for (int i = read, end = read >= 0 ? subtree_end(&w->t, read) : -1; i >= 0 && i < end; i++)
		if (w->t.n[i].kind == CXCursor_DeclRefExpr &&
		    clang_equalCursors(clang_getCursorReferenced(w->t.n[i].cur), p) &&
		    (v = reaching_value(w, p, i)) >= 0 && (v = strip_implicit(&w->t, v)) >= 0 &&
		    w->t.n[v].kind == CXCursor_DeclRefExpr)
			return clang_getCursorReferenced(w->t.n[v].cur);
	return p;
}

/* The value of the one write of local decl in this function (its
 * initializer or one plain assignment), or -1. */
static int only_write(const struct tree *t, CXCursor decl)
{
	int value = -1, writes = 0;

	for (int i = 1; i < t->len; i++) {
		const struct node *n = &t->n[i];
		int lhs;

		if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, decl)) {
			if ((value = last_expr_child(t, i)) >= 0)
				writes++;
		} else if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_UnaryOperator ||
			    n->kind == CXCursor_CompoundAssignOperator) &&
			   (lhs = strip_parens(t, child(t, i, 0))) >= 0 &&
			   t->n[lhs].kind == CXCursor_DeclRefExpr &&
			   clang_equalCursors(clang_getCursorReferenced(t->n[lhs].cur), decl) &&
			   (n->op == OP_ASSIGN || n->kind != CXCursor_BinaryOperator)) {
			writes++;
			value = n->op == OP_ASSIGN ? child(t, i, 1) : -1;
		}
	}
	return writes == 1 ? value : -1;
}

/* The origin of bytes read through a pointer variable, or NULL. */
static char *pointed_origin(struct walk *w, const struct report_at *at)
{
	int read = at->operand, v;
	CXCursor p;

	/* char c = *str++; ... c: what the write reaching the read reads */
	if (read >= 0 && clang_getCursorKind(at->decl) == CXCursor_VarDecl &&
	    !clang_Cursor_hasVarDeclGlobalStorage(at->decl) &&
	    ((v = reaching_value(w, at->decl, strip_implicit(&w->t, read))) >= 0 ||
	     (v = only_write(&w->t, at->decl)) >= 0))
		read = v;
	p = read >= 0 ? pointer_base(&w->t, read) : clang_getNullCursor();
	if (clang_Cursor_isNull(p))
		return NULL;
	if (outside_fill(w, p) >= 0)
		return NULL;		/* said as bytes from outside */
	p = pointer_origin(w, p, read);
	switch (clang_getCursorKind(p)) {
	case CXCursor_ParmDecl:
		return named("the bytes parameter '%s' points at: its callers' data", p);
	case CXCursor_FieldDecl:
		return named("the bytes field '%s' points at", p);
	case CXCursor_VarDecl:
		return named("the bytes '%s' points at", p);
	default:
		return NULL;
	}
}

/* The value's origin when the rule does not say it. */
static void value_origin(struct walk *w, struct finding *f, const struct report_at *at)
{
	CXCursor d = origin_decl(w, at->decl, at->operand);
	enum CXCursorKind kind = clang_getCursorKind(d);
	long long c;
	int k;
	char *pointed;

	f->confidence = CONF_MEDIUM;
	if (at->ret) {
		f->origin = xasprintf("returned by %s()", at->ret->name);
	} else if (constant_value(w, at->decl, at->operand, &c) && high(c)) {
		f->confidence = CONF_HIGH;
		f->origin = xasprintf("the constant byte 0x%02llx", (unsigned long long)c & 0xff);
	} else if (high_table(d)) {
		f->confidence = CONF_HIGH;
		f->origin = named("table '%s', whose initializer holds bytes outside 0..127", d);
	} else if (!clang_Cursor_isNull(d) && (k = outside_fill(w, d)) >= 0) {
		f->confidence = CONF_HIGH;
		f->origin = xasprintf("bytes from %s (%s())", outside[k].from, outside[k].name);
	} else if ((pointed = pointed_origin(w, at))) {
		f->origin = pointed;
	} else if (at->car && at->car->caller) {
		f->origin = xasprintf("passed by %s()", at->car->caller);
	} else if (kind == CXCursor_FieldDecl) {
		f->origin = named("field '%s': not every write of it the scan sees stores 0..127", d);
	} else if (kind == CXCursor_FunctionDecl) {
		f->origin = named("returned by %s()", d);
	} else if (kind == CXCursor_ParmDecl) {
		f->origin = named("parameter '%s': its callers' bytes", d);
	} else if (kind == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d)) {
		f->origin = named("variable '%s': not every write of it the scan sees stores 0..127", d);
	} else {
		f->origin = xstrdup("data charscan cannot bound");
	}
}

void judge_origin(struct walk *w, struct finding *f, const struct report_at *at)
{
	char *value;

	for (size_t i = 0; i < sizeof(by_rule) / sizeof(*by_rule); i++) {
		if (by_rule[i].rule != f->rule)
			continue;
		if (by_rule[i].conf != CONF_HIGH || f->rule == CS004) {
			f->confidence = by_rule[i].conf;
			f->origin = xstrdup(by_rule[i].origin);
			return;
		}
		/* Sure by the constant the code names; the value's own
		 * origin still says where to look (vt.c's get_user()). */
		value_origin(w, f, at);
		value = f->origin;
		f->confidence = CONF_HIGH;
		f->origin = xasprintf("%s; the value: %s", by_rule[i].origin, value);
		free(value);
		return;
	}
	value_origin(w, f, at);
}
