/*
 * An expression printed from its cursors, for quoting one that sits in
 * a macro's body: the source there is the invocation, which says
 * nothing of the expression (a DECLARE_EVENT_CLASS() of thirty lines,
 * or the start of one).  libclang prints declarations only.  Implicit
 * conversions are left out, as the reader never wrote them; what the
 * printer does not know is "...".
 */
#include <string.h>
#include "ast.h"
#include "core/core.h"

#define MAX_DEPTH 12
#define MAX_KIDS 16

struct text {
	char *p;
	size_t len, cap;
};

static void put(struct text *o, const char *s)
{
	size_t n = strlen(s);

	grow(&o->p, &o->cap, o->len + n + 1, 1);
	memcpy(o->p + o->len, s, n + 1);
	o->len += n;
}

struct kids {
	CXCursor v[MAX_KIDS];
	int n;
};

static enum CXChildVisitResult kid(CXCursor c, CXCursor parent, CXClientData data)
{
	struct kids *k = data;

	(void)parent;
	if (k->n == MAX_KIDS)
		return CXChildVisit_Break;
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

static void print(CXTranslationUnit tu, CXCursor c, struct text *o, int depth);

static void spelling(CXCursor c, struct text *o)
{
	CXString s = clang_getCursorSpelling(c);

	put(o, *clang_getCString(s) ? clang_getCString(s) : "...");
	clang_disposeString(s);
}

static void constant(CXCursor c, struct text *o)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	char n[32];

	if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
		snprintf(n, sizeof(n), "%lld", clang_EvalResult_getAsLongLong(r));
		put(o, n);
	} else {
		put(o, "...");
	}
	if (r)
		clang_EvalResult_dispose(r);
}

static void member(CXTranslationUnit tu, CXCursor c, const struct kids *k, struct text *o,
		   int depth)
{
	if (k->n) {
		CXType base = clang_getCanonicalType(clang_getCursorType(k->v[0]));

		print(tu, k->v[0], o, depth);
		put(o, base.kind == CXType_Pointer ? "->" : ".");
	}
	spelling(c, o);
}

static void call(CXTranslationUnit tu, CXCursor c, const struct kids *k, struct text *o,
		 int depth)
{
	spelling(c, o);
	put(o, "(");
	for (int i = 1; i < k->n; i++) {
		if (i > 1)
			put(o, ", ");
		print(tu, k->v[i], o, depth);
	}
	put(o, ")");
}

static void operator(CXTranslationUnit tu, CXCursor c, const struct kids *k, struct text *o,
		     int depth)
{
	enum op op = cursor_op(tu, c);
	const char *sp = op == OP_NONE ? "?" : op_spelling(op);

	if (k->n == 1) {
		put(o, sp);
		print(tu, k->v[0], o, depth);
	} else if (k->n == 2) {
		print(tu, k->v[0], o, depth);
		put(o, " ");
		put(o, sp);
		put(o, " ");
		print(tu, k->v[1], o, depth);
	} else {
		put(o, "...");
	}
}

static void print(CXTranslationUnit tu, CXCursor c, struct text *o, int depth)
{
	struct kids k = { .n = 0 };
	CXString ts;

	if (depth > MAX_DEPTH) {
		put(o, "...");
		return;
	}
	clang_visitChildren(c, kid, &k);
	depth++;
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr:
		spelling(c, o);
		break;
	case CXCursor_MemberRefExpr:
		member(tu, c, &k, o, depth);
		break;
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
		constant(c, o);
		break;
	case CXCursor_StringLiteral:
		spelling(c, o);
		break;
	case CXCursor_CallExpr:
		call(tu, c, &k, o, depth);
		break;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
	case CXCursor_UnaryOperator:
		operator(tu, c, &k, o, depth);
		break;
	case CXCursor_ArraySubscriptExpr:
		if (k.n != 2)
			goto unknown;
		print(tu, k.v[0], o, depth);
		put(o, "[");
		print(tu, k.v[1], o, depth);
		put(o, "]");
		break;
	case CXCursor_ParenExpr:
		put(o, "(");
		if (k.n)
			print(tu, k.v[0], o, depth);
		put(o, ")");
		break;
	case CXCursor_CStyleCastExpr:
		ts = clang_getTypeSpelling(clang_getCursorType(c));
		put(o, "(");
		put(o, clang_getCString(ts));
		put(o, ")");
		clang_disposeString(ts);
		if (k.n)
			print(tu, k.v[k.n - 1], o, depth);
		break;
	case CXCursor_ConditionalOperator:
		if (k.n != 3)
			goto unknown;
		print(tu, k.v[0], o, depth);
		put(o, " ? ");
		print(tu, k.v[1], o, depth);
		put(o, " : ");
		print(tu, k.v[2], o, depth);
		break;
	case CXCursor_UnexposedExpr:
		/* an implicit conversion, or what libclang does not expose */
		if (k.n == 1) {
			print(tu, k.v[0], o, depth);
			break;
		}
		/* fall through */
	default:
unknown:
		put(o, "...");
	}
}

char *expr_print(CXTranslationUnit tu, CXCursor c)
{
	struct text o = { 0 };

	print(tu, c, &o, 0);
	return o.p;
}
