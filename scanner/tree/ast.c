/*
 * libclang's cursors of one declaration as an array tree (parent, first
 * child, next sibling by index), with each node's type class and
 * operator read once; the questions the walk asks of it (children,
 * casts, constants, tokens).  Parts nothing evaluates are not in it.
 */
#include <stdlib.h>
#include <string.h>
#include "ast.h"
#include "source.h"
#include "core/core.h"

static int add_node(struct tree *t, CXCursor c, int parent)
{
	size_t cap = t->cap;
	struct node *n;

	grow(&t->n, &cap, t->len + 1, sizeof(*t->n));
	t->cap = (int)cap;
	n = &t->n[t->len];
	n->cur = c;
	n->kind = clang_getCursorKind(c);
	n->parent = parent;
	n->first = n->next = -1;
	n->type = is_expr(n->kind) || n->kind == CXCursor_VarDecl || n->kind == CXCursor_ParmDecl ?
		  classify_type(clang_getCursorType(c)) : (struct ctype){ 0 };
	n->op = OP_NONE;
	n->runtime = 0;
	if (n->kind == CXCursor_BinaryOperator ||
	    n->kind == CXCursor_CompoundAssignOperator ||
	    n->kind == CXCursor_UnaryOperator)
		n->op = cursor_op(t->tu, c);
	return t->len++;
}

/*
 * One clang_visitChildren with CXChildVisit_Recurse: libclang walks
 * expressions from a work list, and the open ancestors are kept here on
 * an explicit stack, so a generated expression thousands of operands
 * deep costs heap, not C stack.
 */
struct open_node {
	int node, last;			/* index, and its last child so far */
};

struct build {
	struct tree *t;
	struct open_node *stack;
	size_t depth, cap;
};

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct build *b = data;
	struct open_node *top;
	int i;

	while (b->depth > 1 && !clang_equalCursors(b->t->n[b->stack[b->depth - 1].node].cur,
						    parent))
		b->depth--;
	top = &b->stack[b->depth - 1];
	i = add_node(b->t, c, top->node);
	if (top->last >= 0)
		b->t->n[top->last].next = i;
	else
		b->t->n[top->node].first = i;
	top->last = i;
	grow(&b->stack, &b->cap, b->depth + 1, sizeof(*b->stack));
	b->stack[b->depth++] = (struct open_node){ i, -1 };
	return CXChildVisit_Recurse;
}

/* What makes an expression unknown until run time by itself. */
static int reads_at_run_time(const struct node *n)
{
	CXCursor ref;
	CXString s;
	int builtin;

	switch (n->kind) {
	case CXCursor_DeclRefExpr:
		ref = clang_getCursorReferenced(n->cur);
		return (clang_getCursorKind(ref) == CXCursor_VarDecl ||
			clang_getCursorKind(ref) == CXCursor_ParmDecl) &&
		       !clang_isConstQualifiedType(clang_getCursorType(ref));
	case CXCursor_CallExpr:
		s = clang_getCursorSpelling(n->cur);
		builtin = !strncmp(clang_getCString(s), "__builtin", 9);
		clang_disposeString(s);
		return !builtin;
	case CXCursor_CompoundAssignOperator:
		return 1;
	default:
		return n->op == OP_ASSIGN || n->op == OP_INC || n->op == OP_DEC;
	}
}

/*
 * Mark every expression that reads a variable or calls a function (not
 * through sizeof and the like): clang_Cursor_Evaluate is not asked about
 * those, which keeps a sum of thousands of array reads linear.
 */
static void mark_run_time(struct tree *t)
{
	for (int i = t->len - 1; i > 0; i--) {
		struct node *n = &t->n[i];

		if (!n->runtime && is_expr(n->kind))
			n->runtime = reads_at_run_time(n);
		if (n->runtime && t->n[n->parent].kind != CXCursor_UnaryExpr)
			t->n[n->parent].runtime = 1;
	}
}

static int has_later_expr_sibling(const struct tree *t, int i)
{
	for (int s = t->n[i].next; s >= 0; s = t->n[s].next)
		if (is_expr(t->n[s].kind))
			return 1;
	return 0;
}

/* A compile-time constant made of expressions only: no call in it
 * (__builtin_constant_p is decided by the optimizer, not here) and no
 * statement expression. */
static int constant_condition(const struct tree *t, int c, long long *v)
{
	CXEvalResult r;
	int ok;

	for (int i = c; i < subtree_end(t, c); i++)
		if (t->n[i].kind == CXCursor_CallExpr || !is_expr(t->n[i].kind))
			return 0;
	if (!(r = clang_Cursor_Evaluate(t->n[c].cur)))
		return 0;
	ok = clang_EvalResult_getKind(r) == CXEval_Int;
	*v = ok ? clang_EvalResult_getAsLongLong(r) : 0;
	clang_EvalResult_dispose(r);
	return ok;
}

/*
 * The branch that a macro's constant condition never takes: glibc's
 * toupper() tests sizeof (c) > 1, kernel macros sizeof(x) == 1.  For
 * that argument the branch is never compiled.  Only in a macro: an if
 * written in the function (if (IS_ENABLED(CONFIG_X))) is code another
 * configuration runs.  The branch's node, or -1.
 */
static int dead_branch(const struct tree *t, int p)
{
	int cond = t->n[p].first, taken;
	long long v;

	if ((t->n[p].kind != CXCursor_IfStmt && t->n[p].kind != CXCursor_ConditionalOperator) ||
	    cond < 0 || !in_macro(t->n[p].cur) || !constant_condition(t, cond, &v))
		return -1;
	taken = t->n[cond].next;
	return v ? (taken >= 0 ? t->n[taken].next : -1) : taken;
}

/* A dead branch stays in its place (the walk reads an if's branches by
 * position) as null statements: nothing in it is a value. */
static void neutralize_dead_branches(struct tree *t)
{
	for (int p = 0; p < t->len; p++) {
		int i = dead_branch(t, p);

		for (int k = i, end = i >= 0 ? subtree_end(t, i) : -1; k < end; k++) {
			t->n[k].kind = CXCursor_NullStmt;
			t->n[k].type = (struct ctype){ 0 };
			t->n[k].op = OP_NONE;
		}
	}
}

/*
 * Expressions that are never evaluated: the operand of sizeof and
 * _Alignof, what a _Generic selects on, and the expressions inside a
 * type (typeof(x) in a declaration, a cast or a compound literal: libclang
 * lists them as children beside the initializer or the operand, which
 * comes last).  Nothing in them runs, so nothing in them is a value.
 */
static int unevaluated(const struct tree *t, int i)
{
	const struct node *p = &t->n[t->n[i].parent];

	if (!is_expr(t->n[i].kind))
		return 0;
	switch (p->kind) {
	case CXCursor_UnaryExpr:
		return 1;
	case CXCursor_GenericSelectionExpr:
		return p->first == i;
	case CXCursor_VarDecl:
		return !clang_equalCursors(t->n[i].cur, clang_Cursor_getVarDeclInitializer(p->cur));
	case CXCursor_ParmDecl:
	case CXCursor_FieldDecl:
	case CXCursor_TypedefDecl:
	case CXCursor_FunctionDecl:
		return 1;
	case CXCursor_CStyleCastExpr:
	case CXCursor_CompoundLiteralExpr:
		return has_later_expr_sibling(t, i);
	default:
		return 0;
	}
}

static int next_live(const struct tree *t, const char *dead, int i)
{
	while (i >= 0 && dead[i])
		i = t->n[i].next;
	return i;
}

/* Drop the unevaluated subtrees; a subtree follows its root in the
 * array, so the kept nodes move down in order and every index is
 * mapped once. */
static void prune_unevaluated(struct tree *t)
{
	char *dead = xcalloc((size_t)t->len + 1, 1);
	int *map = xcalloc((size_t)t->len + 1, sizeof(*map)), n = 0;

	for (int i = 1; i < t->len; i++)
		dead[i] = dead[t->n[i].parent] || unevaluated(t, i);
	for (int i = 0; i < t->len; i++)
		map[i] = dead[i] ? -1 : n++;
	for (int i = 0; i < t->len; i++) {
		struct node x = t->n[i];
		int first = next_live(t, dead, x.first), next = next_live(t, dead, x.next);

		if (dead[i])
			continue;
		x.parent = x.parent >= 0 ? map[x.parent] : -1;
		x.first = first >= 0 ? map[first] : -1;
		x.next = next >= 0 ? map[next] : -1;
		t->n[map[i]] = x;
	}
	t->len = n;
	free(dead);
	free(map);
}

void tree_build(struct tree *t, CXTranslationUnit tu, CXCursor root)
{
	struct build b = { t, NULL, 0, 0 };

	t->tu = tu;
	t->len = 0;
	add_node(t, root, -1);
	grow(&b.stack, &b.cap, 1, sizeof(*b.stack));
	b.stack[b.depth++] = (struct open_node){ 0, -1 };
	clang_visitChildren(root, visit, &b);
	free(b.stack);
	prune_unevaluated(t);
	neutralize_dead_branches(t);
	mark_run_time(t);
}

void tree_free(struct tree *t)
{
	free(t->n);
	memset(t, 0, sizeof(*t));
}

int child(const struct tree *t, int i, int k)
{
	int c = t->n[i].first;

	while (c >= 0 && k--)
		c = t->n[c].next;
	return c;
}

int is_condition_of(const struct tree *t, int p, int i)
{
	switch (t->n[p].kind) {
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt:
	case CXCursor_ConditionalOperator:
		return child(t, p, 0) == i;
	case CXCursor_DoStmt:
		return child(t, p, 1) == i;
	default:
		return 0;
	}
}

int tested_against_zero(const struct tree *t, int p, int i)
{
	return is_condition_of(t, p, i) || t->n[p].op == OP_LNOT ||
	       t->n[p].op == OP_LAND || t->n[p].op == OP_LOR;
}

int nchildren(const struct tree *t, int i)
{
	int n = 0;

	for (int c = t->n[i].first; c >= 0; c = t->n[c].next)
		n++;
	return n;
}

int strip_parens(const struct tree *t, int i)
{
	while (i >= 0 && t->n[i].kind == CXCursor_ParenExpr)
		i = t->n[i].first;
	return i;
}

int up(const struct tree *t, int i)
{
	i = t->n[i].parent;
	while (i >= 0 && t->n[i].kind == CXCursor_ParenExpr)
		i = t->n[i].parent;
	return i;
}

int climb_implicit(const struct tree *t, int i)
{
	int p = t->n[i].parent;

	while (p >= 0 && (t->n[p].kind == CXCursor_ParenExpr || is_implicit_cast(t, p)))
		i = p, p = t->n[p].parent;
	return i;
}

int subtree_end(const struct tree *t, int i)
{
	while (i >= 0 && t->n[i].next < 0)
		i = t->n[i].parent;
	return i < 0 ? t->len : t->n[i].next;
}

int strip_implicit(const struct tree *t, int i)
{
	while (i >= 0 && (t->n[i].kind == CXCursor_ParenExpr || is_implicit_cast(t, i)))
		i = t->n[i].first;
	return i;
}

int last_child(const struct tree *t, int i)
{
	int last = -1;

	for (int c = t->n[i].first; c >= 0; c = t->n[c].next)
		last = c;
	return last;
}

int last_expr_child(const struct tree *t, int i)
{
	int last = -1;

	for (int c = t->n[i].first; c >= 0; c = t->n[c].next)
		if (is_expr(t->n[c].kind))
			last = c;
	return last;
}

int is_expr(enum CXCursorKind k)
{
	return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr;
}

/* libclang does not expose ImplicitCastExpr: it is an UnexposedExpr with
 * exactly one expression child. */
int is_implicit_cast(const struct tree *t, int i)
{
	int c = t->n[i].first;

	return t->n[i].kind == CXCursor_UnexposedExpr && c >= 0 &&
	       t->n[c].next < 0 && is_expr(t->n[c].kind);
}

/* Is node i read for its value (not written, not its address taken)?
 * The conversion that loads it sits above any parentheses: return (c)
 * is Cast(Paren(c)). */
int is_loaded(const struct tree *t, int i)
{
	int p = t->n[i].parent;

	while (p >= 0 && t->n[p].kind == CXCursor_ParenExpr)
		p = t->n[p].parent;
	return p >= 0 && is_implicit_cast(t, p);
}

int is_cast(const struct tree *t, int i)
{
	return is_implicit_cast(t, i) || t->n[i].kind == CXCursor_CStyleCastExpr;
}

int cast_operand(const struct tree *t, int i)
{
	return t->n[i].kind == CXCursor_CStyleCastExpr ? last_expr_child(t, i) : t->n[i].first;
}

static const struct { enum CXTypeKind kind; unsigned char cls, is_signed; } type_classes[] = {
	{ CXType_Char_S, T_PLAIN_CHAR, 1 }, { CXType_Char_U, T_PLAIN_CHAR, 0 },
	{ CXType_SChar, T_SCHAR, 1 },	{ CXType_UChar, T_UCHAR, 0 },
	{ CXType_Bool, T_BOOL, 0 },
	{ CXType_Short, T_INT, 1 },	{ CXType_UShort, T_INT, 0 },
	{ CXType_Int, T_INT, 1 },	{ CXType_UInt, T_INT, 0 },
	{ CXType_Long, T_INT, 1 },	{ CXType_ULong, T_INT, 0 },
	{ CXType_LongLong, T_INT, 1 },	{ CXType_ULongLong, T_INT, 0 },
	{ CXType_Int128, T_INT, 1 },	{ CXType_UInt128, T_INT, 0 },
	{ CXType_WChar, T_INT, 1 },	{ CXType_Char16, T_INT, 0 },
	{ CXType_Char32, T_INT, 0 },
	{ CXType_Pointer, T_PTR, 0 },	{ CXType_ConstantArray, T_PTR, 0 },
	{ CXType_IncompleteArray, T_PTR, 0 }, { CXType_VariableArray, T_PTR, 0 },
	{ CXType_Float, T_FLOAT, 1 },	{ CXType_Double, T_FLOAT, 1 },
	{ CXType_LongDouble, T_FLOAT, 1 },
};

struct ctype classify_type(CXType type)
{
	CXType t = clang_getCanonicalType(type);
	struct ctype r = { T_OTHER, 0, 0 };

	if (t.kind == CXType_Enum)
		t = clang_getCanonicalType(
			clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
	for (size_t i = 0; i < sizeof(type_classes) / sizeof(type_classes[0]); i++) {
		if (type_classes[i].kind != t.kind)
			continue;
		r.cls = type_classes[i].cls;
		r.is_signed = type_classes[i].is_signed;
		if (r.cls != T_PTR && r.cls != T_FLOAT) {
			long long size = clang_Type_getSizeOf(t);

			r.bits = size > 0 && size <= 16 ? (unsigned char)(size * 8) : 32;
		}
		break;
	}
	if (r.cls == T_BOOL)
		r.bits = 1;
	return r;
}

static const struct { const char *spelling; enum op binary, unary; } op_table[] = {
	{ "*", OP_MUL, OP_DEREF },	{ "/", OP_DIV, OP_NONE },
	{ "%", OP_REM, OP_NONE },	{ "+", OP_ADD, OP_PLUS },
	{ "-", OP_SUB, OP_NEG },	{ "<<", OP_SHL, OP_NONE },
	{ ">>", OP_SHR, OP_NONE },	{ "<", OP_LT, OP_NONE },
	{ ">", OP_GT, OP_NONE },	{ "<=", OP_LE, OP_NONE },
	{ ">=", OP_GE, OP_NONE },	{ "==", OP_EQ, OP_NONE },
	{ "!=", OP_NE, OP_NONE },	{ "&", OP_AND, OP_ADDR },
	{ "^", OP_XOR, OP_NONE },	{ "|", OP_OR, OP_NONE },
	{ "&&", OP_LAND, OP_NONE },	{ "||", OP_LOR, OP_NONE },
	{ "=", OP_ASSIGN, OP_NONE },	{ "*=", OP_MUL_A, OP_NONE },
	{ "/=", OP_DIV_A, OP_NONE },	{ "%=", OP_REM_A, OP_NONE },
	{ "+=", OP_ADD_A, OP_NONE },	{ "-=", OP_SUB_A, OP_NONE },
	{ "<<=", OP_SHL_A, OP_NONE },	{ ">>=", OP_SHR_A, OP_NONE },
	{ "&=", OP_AND_A, OP_NONE },	{ "^=", OP_XOR_A, OP_NONE },
	{ "|=", OP_OR_A, OP_NONE },	{ ",", OP_COMMA, OP_NONE },
	{ "~", OP_NONE, OP_NOT },	{ "!", OP_NONE, OP_LNOT },
	{ "++", OP_NONE, OP_INC },	{ "--", OP_NONE, OP_DEC },
};

const char *op_spelling(enum op op)
{
	for (size_t i = 0; i < sizeof(op_table) / sizeof(op_table[0]); i++)
		if (op_table[i].binary == op || op_table[i].unary == op)
			return op_table[i].spelling;
	return "?";
}

static enum op op_from_spelling(const char *spelling, int unary)
{
	for (size_t i = 0; i < sizeof(op_table) / sizeof(op_table[0]); i++)
		if (!strcmp(spelling, op_table[i].spelling))
			return unary ? op_table[i].unary : op_table[i].binary;
	return OP_NONE;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

CXCursor cursor_first_child(CXCursor c)
{
	CXCursor first = clang_getNullCursor();

	clang_visitChildren(c, first_child, &first);
	return first;
}

static enum CXChildVisitResult visit_last_child(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Continue;
}

struct nth {
	unsigned k;
	CXCursor field;
};

static enum CXVisitorResult count_field(CXCursor c, CXClientData data)
{
	struct nth *n = data;

	if (n->k--)
		return CXVisit_Continue;
	n->field = c;
	return CXVisit_Break;
}

CXCursor nth_field(CXCursor rec, unsigned k)
{
	struct nth n = { k, clang_getNullCursor() };

	clang_Type_visitFields(clang_getCursorType(rec), count_field, &n);
	return n.field;
}

CXCursor cursor_last_child(CXCursor c)
{
	CXCursor last = clang_getNullCursor();

	clang_visitChildren(c, visit_last_child, &last);
	return last;
}

#if CINDEX_VERSION_MINOR >= 64
/* libclang 17 and later name the operator, also inside macros. */
enum op cursor_op(CXTranslationUnit tu, CXCursor c)
{
	CXString s;
	enum op op = OP_NONE;
	int unary = clang_getCursorKind(c) == CXCursor_UnaryOperator;
	const char *name;

	(void)tu;
	if (unary) {
		enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);

		if (k == CXUnaryOperator_Invalid)
			return OP_NONE;
		s = clang_getUnaryOperatorKindSpelling(k);
	} else {
		enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);

		if (k == CXBinaryOperator_Invalid)
			return OP_NONE;
		s = clang_getBinaryOperatorKindSpelling(k);
	}
	name = clang_getCString(s);
	op = op_from_spelling(name, unary);
	clang_disposeString(s);
	return op;
}
#else
/*
 * libclang 14 has no operator kind: read it from the tokens between the
 * operands.  Inside a macro expansion the extent is the macro name and
 * no operator is found, so those operators are not judged.
 */
static unsigned offset_of(CXSourceLocation l)
{
	unsigned off;

	clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
	return off;
}

enum op cursor_op(CXTranslationUnit tu, CXCursor c)
{
	int unary = clang_getCursorKind(c) == CXCursor_UnaryOperator;
	CXCursor lhs = clang_getNullCursor();
	unsigned lhs_end = 0, ntok, i;
	CXToken *tok;
	enum op op = OP_NONE;

	if (!unary) {
		lhs = cursor_first_child(c);
		lhs_end = offset_of(clang_getRangeEnd(clang_getCursorExtent(lhs)));
	}
	clang_tokenize(tu, clang_getCursorExtent(c), &tok, &ntok);
	for (i = 0; i < ntok && op == OP_NONE; i++) {
		CXString s;
		const char *sp;

		if (clang_getTokenKind(tok[i]) != CXToken_Punctuation)
			continue;
		if (!unary && offset_of(clang_getTokenLocation(tu, tok[i])) < lhs_end)
			continue;
		s = clang_getTokenSpelling(tu, tok[i]);
		sp = clang_getCString(s);
		op = op_from_spelling(sp, unary);
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, tok, ntok);
	return op;
}
#endif

int op_is_equality(enum op op)
{
	return op == OP_EQ || op == OP_NE;
}

int op_is_compare(enum op op)
{
	return op >= OP_LT && op <= OP_NE;
}

enum op op_mirror(enum op op)
{
	static const enum op mirror[][2] = {
		{ OP_LT, OP_GT }, { OP_GT, OP_LT }, { OP_LE, OP_GE }, { OP_GE, OP_LE },
	};

	for (size_t i = 0; i < sizeof(mirror) / sizeof(mirror[0]); i++)
		if (mirror[i][0] == op)
			return mirror[i][1];
	return op;
}

int eval_const(const struct tree *t, int i, long long *value)
{
	CXCursor c;
	CXEvalResult r;
	int ok = 0;

	if (i < 0 || t->n[i].runtime || !is_expr(t->n[i].kind))
		return 0;
	c = t->n[i].cur;
	r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		*value = clang_EvalResult_isUnsignedInt(r) ?
			 (long long)clang_EvalResult_getAsUnsigned(r) :
			 clang_EvalResult_getAsLongLong(r);
		ok = 1;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

/*
 * Is the char value at node i only asked about at compile time: a
 * constant, converted and compared with another constant, as in
 * is_signed_type(char), ((char)-1 < (char)1)?  Such a test records the
 * signedness (TRACE_EVENT fields, CHAR_MIN), it does not assume it.
 */
int in_constant_test(const struct tree *t, int i)
{
	long long k;
	int p = i, side, other;

	if (!eval_const(t, i, &k))
		return 0;
	while ((p = up(t, i)) >= 0 && is_cast(t, p))
		i = p;
	if (p < 0 || t->n[p].kind != CXCursor_BinaryOperator || !op_is_compare(t->n[p].op))
		return 0;
	side = strip_parens(t, child(t, p, 0)) == strip_parens(t, i) ? 1 : 0;
	other = child(t, p, side);
	return other >= 0 && eval_const(t, other, &k);
}


/* Is DeclRefExpr i the function a call calls (not its address)? */
int is_callee(const struct tree *t, int i)
{
	int p;

	i = climb_implicit(t, i);
	p = t->n[i].parent;
	return p >= 0 && t->n[p].kind == CXCursor_CallExpr && child(t, p, 0) == i;
}
