/*
 * Char pointers as values: where a pointer into char memory goes, it
 * reads no byte unless it is dereferenced.  drivers/tty/vt/selection.c
 * fills a kmalloc()ed buffer through a local `char *bp` (`*bp++ = c`,
 * `bp += store_utf8(c, bp)`), keeps it in `vc_sel.buffer`, and measures
 * it with `bp - vc_sel.buffer`: a pointer moved, compared, subtracted,
 * tested or overwritten reads nothing; one dereferenced reads a byte
 * there; one assigned to another pointer of this TU shares its memory
 * with it (an alias, linked both ways).
 *
 * A local char * is memory this function sees whole when every value it
 * is given is fresh (an allocator's, NULL, memory declared as words or
 * unsigned bytes and cast), another such pointer, or itself moved (bp++,
 * bp += n), and its address is never taken.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

/* Functions whose result is memory no one else has read yet. */
static const char *const allocators[] = { "alloc", "kstrdup", "kmemdup", "strdup" };

static int fresh_call(const struct tree *t, int v)
{
	CXString s;
	const char *name;
	int yes = 0;

	if (t->n[v].kind != CXCursor_CallExpr)
		return 0;
	s = clang_getCursorSpelling(t->n[v].cur);
	name = clang_getCString(s);
	for (size_t i = 0; !yes && i < sizeof(allocators) / sizeof(allocators[0]); i++)
		yes = strstr(name, allocators[i]) != NULL;
	clang_disposeString(s);
	return yes;
}

static int char_pointer_local(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));

	return clang_getCursorKind(c) == CXCursor_VarDecl &&
	       clang_getCursorLinkage(c) == CXLinkage_NoLinkage &&
	       !clang_Cursor_hasVarDeclGlobalStorage(c) && t.kind == CXType_Pointer &&
	       classify_type(clang_getPointeeType(t)).cls == T_PLAIN_CHAR;
}

#define MAX_ALIASES 8

/* The local pointers being judged, for a circle of aliases (obp = bp;
 * bp = obp): one whose other values are all fresh is fresh. */
struct judging {
	CXCursor v[MAX_ALIASES];
	int n;
};

static int fresh_only(struct walk *w, CXCursor c, struct judging *j);

/*
 * Memory declared as words or unsigned bytes (an array, or an object
 * whose address is taken), cast to char *: crypto/md5.c pads `(char
 * *)mctx->block + offset` (a u32 array) with 0x80.  Code that reads it
 * as its own type sees the same bits under either signedness; this
 * function's char pointers into it are judged here.  Another function
 * that casts it to char * again is not seen (an assumption: such code
 * would read its own padding as numbers).
 */
static int typed_memory(const struct tree *t, int v)
{
	CXType ty;
	struct ctype e;

	v = strip_implicit(t, v);
	while (v >= 0 && is_cast(t, v))		/* (char *)(u8 *)buf: buf's */
		v = strip_implicit(t, cast_operand(t, v));
	if (v < 0)
		return 0;
	/* an array declared so, or &object: not a pointer's unknown memory */
	if (t->n[v].kind == CXCursor_UnaryOperator && t->n[v].op == OP_ADDR)
		v = strip_implicit(t, child(t, v, 0));
	if (v < 0)
		return 0;
	ty = clang_getCanonicalType(clang_getCursorType(t->n[v].cur));
	if (ty.kind == CXType_ConstantArray || ty.kind == CXType_IncompleteArray)
		ty = clang_getCanonicalType(clang_getArrayElementType(ty));
	e = classify_type(ty);
	return (e.cls == T_INT && e.bits >= 16) || e.cls == T_UCHAR;
}

/* A value a local pointer may be given: fresh memory, NULL, another
 * local char * into fresh memory only, or one of those moved by n. */
static int fresh_value(struct walk *w, int v, struct judging *j)
{
	const struct tree *t = &w->t;

	if (fresh_memory(t, v))
		return 1;
	v = strip_implicit(t, v);
	if (v >= 0 && t->n[v].kind == CXCursor_CStyleCastExpr && typed_memory(t, v))
		return 1;
	while (v >= 0 && t->n[v].kind == CXCursor_CStyleCastExpr)
		v = strip_implicit(t, cast_operand(t, v));
	if (v < 0)
		return 0;
	if (t->n[v].kind == CXCursor_BinaryOperator &&
	    (t->n[v].op == OP_ADD || t->n[v].op == OP_SUB) && t->n[v].type.cls == T_PTR)
		return fresh_value(w, child(t, v, 0), j);
	if (t->n[v].kind == CXCursor_DeclRefExpr) {
		CXCursor q = clang_getCanonicalCursor(clang_getCursorReferenced(t->n[v].cur));

		for (int i = 0; i < j->n; i++)
			if (clang_equalCursors(j->v[i], q))
				return 1;
		return char_pointer_local(q) && fresh_only(w, q, j);
	}
	return 0;
}

/* A value that gives a pointer memory of its own, from no other
 * pointer: none (char *p;), NULL, an allocator's (a cast of one too). */
int fresh_memory(const struct tree *t, int v)
{
	long long k;

	v = strip_implicit(t, v);
	while (v >= 0 && t->n[v].kind == CXCursor_CStyleCastExpr)
		v = strip_implicit(t, cast_operand(t, v));
	if (v < 0)
		return 1;
	return eval_const(t, v, &k) ? k == 0 : fresh_call(t, v);
}

/* Is node i a write of decl?  Its new value in *value (-1: moved). */
static int write_of(const struct tree *t, int i, CXCursor decl, int *value, int *address)
{
	const struct node *n = &t->n[i];
	int ref;

	*value = -1;
	*address = 0;
	if (n->kind == CXCursor_VarDecl) {
		*value = last_expr_child(t, i);
		return clang_equalCursors(n->cur, decl);
	}
	if (n->kind != CXCursor_BinaryOperator && n->kind != CXCursor_UnaryOperator &&
	    n->kind != CXCursor_CompoundAssignOperator)
		return 0;
	if (n->kind == CXCursor_BinaryOperator && n->op != OP_ASSIGN)
		return 0;
	if (n->kind == CXCursor_UnaryOperator && n->op != OP_INC && n->op != OP_DEC &&
	    n->op != OP_ADDR)
		return 0;
	ref = strip_parens(t, child(t, i, 0));
	if (ref < 0 || t->n[ref].kind != CXCursor_DeclRefExpr ||
	    !clang_equalCursors(clang_getCursorReferenced(t->n[ref].cur), decl))
		return 0;
	*address = n->op == OP_ADDR;
	if (n->op == OP_ASSIGN)
		*value = child(t, i, 1);
	return 1;
}

static int fresh_only(struct walk *w, CXCursor c, struct judging *j)
{
	const struct tree *t = &w->t;
	int seen = 0, fresh = 1;

	if (j->n == MAX_ALIASES)
		return 0;
	j->v[j->n++] = c;
	for (int i = 1; i < t->len && fresh; i++) {
		int v, address, moved;

		if (!write_of(t, i, c, &v, &address))
			continue;
		moved = t->n[i].kind != CXCursor_VarDecl && !address &&
			!(t->n[i].kind == CXCursor_BinaryOperator && t->n[i].op == OP_ASSIGN);
		if (address || (!moved && !fresh_value(w, v, j)))
			fresh = 0;
		seen = 1;
	}
	j->n--;
	return fresh && seen;
}

/* Asked at each reference: the answer is kept for the TU (a local's
 * references are all in its function's tree). */
int local_pointer(struct walk *w, CXCursor c)
{
	int fresh;

	if (!char_pointer_local(c))
		return 0;
	c = clang_getCanonicalCursor(c);
	for (size_t i = 0; i < w->nlocalp; i++)
		if (clang_equalCursors(w->localp[i].var, c))
			return w->localp[i].fresh;
	fresh = fresh_only(w, c, &(struct judging){ .n = 0 });
	grow(&w->localp, &w->localpcap, w->nlocalp + 1, sizeof(*w->localp));
	w->localp[w->nlocalp++] = (struct local_pointer){ c, fresh };
	return fresh;
}

/* The storage a pointer assigned or initialized at p goes into, if it
 * is char memory of this TU (a local pointer, a char * field). */
static CXCursor destination(struct walk *w, int p)
{
	CXCursor d = clang_getNullCursor();

	if (T(w, p).kind == CXCursor_VarDecl)
		d = T(w, p).cur;
	else if (T(w, p).kind == CXCursor_BinaryOperator && T(w, p).op == OP_ASSIGN)
		d = trace_decl(&w->t, child(&w->t, p, 0));
	if (clang_Cursor_isNull(d) || !tracked_pointer(w, d))
		return clang_getNullCursor();
	return clang_getCanonicalCursor(d);
}

static void link_both(struct walk *w, CXCursor a, CXCursor b)
{
	grow(&w->slink, &w->slinkcap, w->nslink + 2, sizeof(*w->slink));
	w->slink[w->nslink++] = (struct store_link){ a, b };
	w->slink[w->nslink++] = (struct store_link){ b, a };
}

static int is_pointer(const struct tree *t, int i)
{
	i = strip_implicit(t, i);
	return i >= 0 && t->n[i].type.cls == T_PTR;
}

int pointer_use(struct walk *w, CXCursor var, int top, int *deref)
{
	const struct tree *t = &w->t;
	int p = T(w, top).parent;
	CXCursor to;

	*deref = -1;
	if (p < 0)
		return PTR_OTHER;
	switch (T(w, p).kind) {
	case CXCursor_UnaryOperator:
		if (T(w, p).op == OP_DEREF) {
			*deref = p;
			return PTR_DEREF;
		}
		/* ++ and -- are climbed by the caller: the same bytes */
		return T(w, p).op == OP_LNOT ? PTR_NONE : PTR_OTHER;
	case CXCursor_CompoundAssignOperator:
		return child(t, p, 0) == top ? PTR_NONE : PTR_OTHER;	/* bp += n */
	case CXCursor_BinaryOperator:
		if (T(w, p).op == OP_ASSIGN && child(t, p, 0) == top)
			return PTR_NONE;			/* overwritten */
		if ((op_is_compare(T(w, p).op) || T(w, p).op == OP_SUB) &&
		    is_pointer(t, child(t, p, 0)) && is_pointer(t, child(t, p, 1)))
			return PTR_NONE;			/* bp - buf, obp != bp */
		if (T(w, p).op == OP_LAND || T(w, p).op == OP_LOR)
			return PTR_NONE;
		break;
	case CXCursor_CompoundStmt:	/* bp++; a statement: the value unused */
	case CXCursor_ForStmt:
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_LabelStmt:
		return PTR_NONE;	/* or tested, as the condition */
	default:
		if (tested_against_zero(t, p, top))
			return PTR_NONE;
	}
	/* a header's field is read in other TUs too: no alias of ours */
	to = open_field(var) ? clang_getNullCursor() : destination(w, p);
	if (clang_Cursor_isNull(to))
		return PTR_OTHER;
	link_both(w, var, to);
	return PTR_NONE;
}
