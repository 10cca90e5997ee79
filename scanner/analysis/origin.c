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
	{ CS004, CONF_HIGH, "a constant outside 0..127 is stored" },
	{ CS007, CONF_HIGH, "the code names a byte outside 0..127 (the case label)" },
	{ CS010, CONF_LOW, "leaves the function: its reader is elsewhere" },
};

/* Functions that copy bytes from user space, and the argument they
 * fill (memdup_user() and strndup_user() return theirs). */
static const struct {
	const char *name;
	int arg;
} user_copies[] = {
	{ "copy_from_user", 0 }, { "__copy_from_user", 0 }, { "raw_copy_from_user", 0 },
	{ "strncpy_from_user", 0 }, { "copy_from_sockptr", 0 }, { "memdup_user", -1 },
	{ "memdup_user_nul", -1 }, { "strndup_user", -1 }, { "vmemdup_user", -1 },
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

/* The user copy in this function that fills decl (its argument, or the
 * variable assigned its result), or NULL. */
static const char *user_copy(struct walk *w, CXCursor decl)
{
	const struct tree *t = &w->t;

	for (int i = 1; i < t->len; i++) {
		CXString s;
		const char *hit = NULL;

		if (t->n[i].kind != CXCursor_CallExpr)
			continue;
		s = clang_getCursorSpelling(t->n[i].cur);
		for (size_t k = 0; k < sizeof(user_copies) / sizeof(*user_copies) && !hit; k++) {
			int a;

			if (strcmp(clang_getCString(s), user_copies[k].name))
				continue;
			if (user_copies[k].arg < 0) {
				a = t->n[climb_implicit(t, i)].parent;
				a = a >= 0 && t->n[a].op == OP_ASSIGN ? child(t, a, 0) :
				    a >= 0 && t->n[a].kind == CXCursor_VarDecl ? a : -1;
			} else {
				a = child(t, i, user_copies[k].arg + 1);
			}
			a = strip_implicit(t, a);
			if (a >= 0 && t->n[a].kind == CXCursor_UnaryOperator && t->n[a].op == OP_ADDR)
				a = strip_implicit(t, child(t, a, 0));
			if (a >= 0 && (t->n[a].kind == CXCursor_DeclRefExpr || t->n[a].kind == CXCursor_VarDecl) &&
			    clang_equalCursors(t->n[a].kind == CXCursor_VarDecl ? t->n[a].cur :
					       clang_getCursorReferenced(t->n[a].cur), decl))
				hit = user_copies[k].name;
		}
		clang_disposeString(s);
		if (hit)
			return hit;
	}
	return NULL;
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

/* The value's origin when the rule does not say it. */
static void value_origin(struct walk *w, struct finding *f, const struct report_at *at)
{
	CXCursor d = origin_decl(w, at->decl, at->operand);
	enum CXCursorKind k = clang_getCursorKind(d);
	long long c;
	const char *copy;

	f->confidence = CONF_MEDIUM;
	if (at->ret) {
		f->origin = xasprintf("returned by %s()", at->ret->name);
	} else if (constant_value(w, at->decl, at->operand, &c) && high(c)) {
		f->confidence = CONF_HIGH;
		f->origin = xasprintf("the constant byte 0x%02llx", (unsigned long long)c & 0xff);
	} else if (high_table(d)) {
		f->confidence = CONF_HIGH;
		f->origin = named("table '%s', whose initializer holds bytes outside 0..127", d);
	} else if (!clang_Cursor_isNull(d) && (copy = user_copy(w, d))) {
		f->confidence = CONF_HIGH;
		f->origin = xasprintf("bytes from user space (%s())", copy);
	} else if (at->car && at->car->caller) {
		f->origin = xasprintf("passed by %s()", at->car->caller);
	} else if (k == CXCursor_FieldDecl) {
		f->origin = named("field '%s': not every write of it the scan sees stores 0..127", d);
	} else if (k == CXCursor_FunctionDecl) {
		f->origin = named("returned by %s()", d);
	} else if (k == CXCursor_ParmDecl) {
		f->origin = named("parameter '%s': its callers' bytes", d);
	} else if (k == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d)) {
		f->origin = named("variable '%s': not every write of it the scan sees stores 0..127", d);
	} else {
		f->origin = xstrdup("data charscan cannot bound");
	}
}

void judge_origin(struct walk *w, struct finding *f, const struct report_at *at)
{
	for (size_t i = 0; i < sizeof(by_rule) / sizeof(*by_rule); i++)
		if (by_rule[i].rule == f->rule) {
			f->confidence = by_rule[i].conf;
			f->origin = xstrdup(by_rule[i].origin);
			return;
		}
	value_origin(w, f, at);
}
