/*
 * What bytes a plain char source can hold.  A read of a const table
 * every byte of whose initializer is ASCII (hex digits, a charset), or
 * of a local variable every write of which is an ASCII constant, gives
 * bytes 0x00-0x7f only: the same value under either signedness,
 * wherever it goes.  Anything not proven so can hold any byte.
 */
#include <string.h>
#include "core/core.h"
#include "walk.h"

static int ascii(long long k)
{
	return k >= 0 && k <= 0x7f;
}

/* Does the literal, as spelled, have no escape (so no NUL inside)?
 * clang gives an initializer's literal the array's type, so its own
 * length is not known otherwise. */
static int no_escapes(CXCursor lit)
{
	CXString sp = clang_getCursorSpelling(lit);
	const char *p = clang_getCString(sp);
	int plain = p && *p && !strchr(p, '\\');

	clang_disposeString(sp);
	return plain;
}

/* A literal argument: libclang evaluates a literal only where it
 * initializes an array, so its spelling is read (core/literal.c). */
static int ascii_spelling(CXCursor lit)
{
	CXString sp = clang_getCursorSpelling(lit);
	int ok = literal_is_ascii(clang_getCString(sp));

	clang_disposeString(sp);
	return ok;
}

/* A string literal's bytes, all of them (the array's size, not strlen:
 * "a\0\xff" hides a byte from strlen). */
static int ascii_string(CXCursor lit, long long size)
{
	CXEvalResult r = clang_Cursor_Evaluate(lit);
	const char *s;
	int ok = 0;

	/* What strlen() sees is every byte: the literal fills the array, or
	 * has no NUL inside and the rest of the array is zeros. */
	if (!r)
		return 0;
	if (clang_EvalResult_getKind(r) == CXEval_StrLiteral && (s = clang_EvalResult_getAsStr(r)) &&
	    ((long long)strlen(s) + 1 >= size || no_escapes(lit))) {
		ok = 1;
		for (; *s; s++)
			ok &= ascii((unsigned char)*s);
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static enum CXChildVisitResult ascii_element(CXCursor c, CXCursor parent, CXClientData data)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int *ok = data;

	(void)parent;
	if (!r || clang_EvalResult_getKind(r) != CXEval_Int ||
	    !ascii(clang_EvalResult_getAsLongLong(r)))
		*ok = 0;
	if (r)
		clang_EvalResult_dispose(r);
	return *ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* The initializer of a const array of plain char, written out as a
 * string or a list of constants. */
static int ascii_table(CXCursor var)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(var));
	CXCursor init;
	int ok = 1;

	/* The canonical type may carry the const on the array. */
	if (t.kind != CXType_ConstantArray ||
	    !(clang_isConstQualifiedType(t) ||
	      clang_isConstQualifiedType(clang_getArrayElementType(t))))
		return 0;
	init = cursor_last_child(var);
	while (clang_getCursorKind(init) == CXCursor_UnexposedExpr)
		init = cursor_first_child(init);
	switch (clang_getCursorKind(init)) {
	case CXCursor_StringLiteral:
		return ascii_string(init, clang_getArraySize(t));
	case CXCursor_InitListExpr:
		clang_visitChildren(init, ascii_element, &ok);
		return ok;
	default:
		return 0;
	}
}

/* A read of a table that holds ASCII constants only (tbl[i]). */
static int ascii_table_read(const struct tree *t, int i)
{
	int base;
	CXCursor d;

	i = strip_implicit(t, i);
	if (i < 0 || t->n[i].kind != CXCursor_ArraySubscriptExpr)
		return 0;
	base = strip_implicit(t, child(t, i, 0));
	if (base < 0 || t->n[base].kind != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(t->n[base].cur);
	return clang_getCursorKind(d) == CXCursor_VarDecl && ascii_table(d);
}

#define MAX_ASCII_CALLS 2	/* calls deep: mas_mt_height() -> mt_height() */
#define MAX_LOCAL_HOPS 3	/* x = y; y = z; z = 1; */

/* A walk asking about a local's writes, hops deep. */
struct local_writes {
	struct walk *w;
	int depth;
};

static int ascii_at(const struct tree *t, int v, struct walk *w, int depth);

/* Does fn (a definition) return values in 0..127 only? */
static int returns_ascii(struct walk *w, CXCursor fn, int depth)
{
	struct tree ft = { 0 };
	int ok = 1, any = 0;

	tree_build(&ft, w->t.tu, fn);
	for (int i = 1; i < ft.len && ok; i++)
		if (ft.n[i].kind == CXCursor_ReturnStmt) {
			any = 1;
			ok = ft.n[i].first >= 0 && ascii_at(&ft, ft.n[i].first, w, depth);
		}
	tree_free(&ft);
	return ok && any;
}

/*
 * A call of a function of this TU whose every return is in 0..127
 * (lib/maple_tree.c: char empty_count = mas_mt_height(mas), a height
 * masked to 0..31 two calls down), asked once per function.
 */
static int ascii_call(const struct tree *t, int v, struct walk *w, int depth)
{
	CXCursor fn;
	size_t k;

	if (!w || depth >= MAX_ASCII_CALLS || t->n[v].kind != CXCursor_CallExpr)
		return 0;
	fn = clang_getCursorDefinition(clang_getCursorReferenced(t->n[v].cur));
	if (clang_Cursor_isNull(fn))
		return 0;
	for (k = 0; k < w->nafn && !clang_equalCursors(w->afn[k].fn, fn); k++)
		;
	if (k == w->nafn) {
		int ascii;

		grow(&w->afn, &w->afncap, w->nafn + 1, sizeof(*w->afn));
		w->afn[w->nafn++] = (struct ascii_fn){ fn, 0 };	/* no recursion */
		ascii = returns_ascii(w, fn, depth + 1);	/* may grow w->afn */
		w->afn[k].ascii = ascii;
	}
	return w->afn[k].ascii;
}

/* A value a local is given, asked at a depth of hops; a counting
 * loop's step that stays in 0..127. */
static int ascii_write(const struct tree *t, const struct local_write *lw, void *arg)
{
	struct local_writes *l = arg;
	int v = lw->value;

	if (lw->unseen || lw->rmw)
		return 0;
	if (lw->step)
		return ascii(lw->lim);
	return v < 0 || ascii_at(t, v, l->w, l->depth) || ascii_table_read(t, strip_parens(t, v));
}

/* Every write of the local variable decl in this function is an ASCII
 * constant (c = x ? 'a' : 'b' too) or a read of an ASCII table (a
 * macro's temporary holding input[0]), and its address is not taken. */
static int ascii_local(struct walk *w, CXCursor decl)
{
	return each_local_write(&w->t, decl, 1, ascii_write, &(struct local_writes){ w, 0 });
}

struct only_value {
	int writes;
	long long k;
};

/* The one write, a constant whose value does not itself depend on
 * char's signedness (not '\xff'). */
static int constant_write(const struct tree *t, const struct local_write *lw, void *arg)
{
	struct only_value *c = arg;
	int v = lw->value, lit;

	if (lw->unseen || lw->rmw)
		return 0;
	if (v < 0 || c->writes++ || !eval_const(t, v, &c->k))
		return 0;
	lit = strip_implicit(t, v);
	return !(lit >= 0 && t->n[lit].kind == CXCursor_CharacterLiteral &&
		 (c->k < 0 || c->k > 0x7f));
}

int constant_local(struct walk *w, int i, long long *k)
{
	struct only_value c = { 0, 0 };
	CXCursor d;

	i = strip_implicit(&w->t, i);
	if (i < 0 || w->t.n[i].kind != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(w->t.n[i].cur);
	if (!local_variable(d) ||
	    !each_local_write(&w->t, d, 0, constant_write, &c))
		return 0;
	*k = c.k;
	return 1;
}


/*
 * A local int every write of which in this function is in 0..127, and
 * which is not changed otherwise (x++, x += k, &x): kernel/trace's
 * `invert` is only ever 0, !invert or `*top & INVERT`.  A hop costs a
 * level of depth, so that x = y; y = x; ends.
 */
static int ascii_local_int(struct walk *w, int v, int depth)
{
	struct local_writes l = { w, depth + 1 };
	CXCursor d;
	int ascii;

	if (depth >= MAX_LOCAL_HOPS || w->t.n[v].kind != CXCursor_DeclRefExpr ||
	    w->t.n[v].type.cls != T_INT)
		return 0;
	d = clang_getCursorReferenced(w->t.n[v].cur);
	if (!local_variable(d))
		return 0;
	/* asked first, with all its hops, is the full answer: kept */
	for (size_t k = 0; k < w->nalocal; k++)
		if (clang_equalCursors(w->alocal[k].fn, d))
			return w->alocal[k].ascii;
	ascii = each_local_write(&w->t, d, 1, ascii_write, &l);
	if (depth == 0) {
		grow(&w->alocal, &w->alocalcap, w->nalocal + 1, sizeof(*w->alocal));
		w->alocal[w->nalocal++] = (struct ascii_fn){ d, ascii };
	}
	return ascii;
}

/* Value v is in 0..127; with w, calls of this TU's functions are asked. */
static int ascii_at(const struct tree *t, int v, struct walk *w, int depth)
{
	long long k;

	v = strip_parens(t, v);
	if (v < 0)
		return 1;			/* char c; with no initializer */
	if (eval_const(t, v, &k))
		return ascii(k);
	v = strip_implicit(t, v);
	if (v < 0)
		return 0;
	if (t->n[v].kind == CXCursor_ConditionalOperator)
		return ascii_at(t, child(t, v, 1), w, depth) && ascii_at(t, child(t, v, 2), w, depth);
	/* masked (x & 0x3f), a truth value, a narrow bit-field... */
	if (shape_ascii(t, v))
		return 1;
	/* (flags & 0x7c) >> 2: 0..127 shifted right stays there */
	if (t->n[v].kind == CXCursor_BinaryOperator && t->n[v].op == OP_SHR &&
	    eval_const(t, child(t, v, 1), &k) && k >= 0)
		return ascii_at(t, child(t, v, 0), w, depth);
	/* a char read behind an ASCII-only guard: if (*fmt == 'h' || *fmt
	 * == 'z') qualifier = *fmt++; */
	if (w && t == &w->t && t->n[v].type.cls == T_PLAIN_CHAR && ascii_guarded_read(w, v))
		return 1;
	/* an int behind if (key >= '0' && key <= '9') */
	if (w && t == &w->t && t->n[v].kind == CXCursor_DeclRefExpr &&
	    t->n[v].type.cls == T_INT && int_ascii_guarded(w, v))
		return 1;
	if (w && t == &w->t && ascii_local_int(w, v, depth))
		return 1;
	return ascii_call(t, v, w, depth);
}

int ascii_value_seen(struct walk *w, int v)
{
	return ascii_at(&w->t, v, w, 0);
}

static int ascii_arm(const struct tree *t, int arm)
{
	/* a macro's branch its constant condition never takes (tree/ast.c):
	 * i915's `i915_error_injected() ? KERN_DEBUG : KERN_ERR` */
	return (arm >= 0 && t->n[arm].kind == CXCursor_NullStmt) || ascii_pointer(t, arm);
}

int ascii_pointer(const struct tree *t, int arg)
{
	int i = strip_implicit(t, arg);
	CXCursor d;

	if (i < 0)
		return 0;
	if (t->n[i].kind == CXCursor_ConditionalOperator)
		return ascii_arm(t, child(t, i, 1)) && ascii_arm(t, child(t, i, 2));
	if (t->n[i].kind == CXCursor_StringLiteral)
		return ascii_spelling(t->n[i].cur);
	if (t->n[i].kind != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(t->n[i].cur);
	return clang_getCursorKind(d) == CXCursor_VarDecl && ascii_table(d);
}

int ascii_value(const struct tree *t, int v)
{
	return ascii_at(t, v, NULL, 0);
}

/* Is the use of local array d at node top (its decayed value) a read of
 * an element, or a store of an ASCII value into one? */
static int ascii_element_use(struct walk *w, int top)
{
	const struct tree *t = &w->t;
	int p = t->n[top].parent, q;

	if (p < 0 || t->n[p].kind != CXCursor_ArraySubscriptExpr || child(t, p, 0) != top)
		return 0;
	q = up(t, p);
	if (q >= 0 && t->n[q].kind == CXCursor_BinaryOperator && t->n[q].op == OP_ASSIGN &&
	    strip_parens(t, child(t, q, 0)) == p)
		return ascii_value_seen(w, child(t, q, 1));
	return q < 0 || !((t->n[q].kind == CXCursor_UnaryOperator &&
			   (t->n[q].op == OP_INC || t->n[q].op == OP_DEC || t->n[q].op == OP_ADDR)) ||
			  (t->n[q].kind == CXCursor_CompoundAssignOperator &&
			   strip_parens(t, child(t, q, 0)) == p));
}

/* A use of a local pointer to its own memory that neither reads nor
 * stores a byte, nor shares the memory: given fresh memory (p =
 * kmalloc(), NULL), tested (if (!p)), freed (kfree(p)). */
static int own_pointer_use(const struct tree *t, int top)
{
	int p = t->n[top].parent, callee;
	CXString name;
	const char *s;
	size_t len;
	int freed;

	if (p < 0)
		return 0;
	if (t->n[p].kind == CXCursor_BinaryOperator && t->n[p].op == OP_ASSIGN &&
	    strip_parens(t, child(t, p, 0)) == top)
		return fresh_memory(t, child(t, p, 1));
	if (tested_against_zero(t, p, top))
		return 1;
	if (t->n[p].kind != CXCursor_CallExpr || (callee = child(t, p, 0)) < 0 || callee == top)
		return 0;
	name = clang_getCursorSpelling(t->n[p].cur);	/* kfree, vfree, free */
	s = clang_getCString(name);
	len = strlen(s);
	freed = len >= 4 && !strcmp(s + len - 4, "free");
	clang_disposeString(name);
	return freed;
}

/*
 * buf[i] of a local char array, or of a local char * to memory of its
 * own (every value it is given an allocator's or NULL), whose every
 * element store in the function is an ASCII value and which is used in
 * no other way (not passed, not pointed at, no initializer; a pointer
 * may be tested and freed): video.c's entry_buf, filled with keys
 * behind a 0-9/A-Z/a-z test; trace_events_filter.c's kmalloc()ed
 * `inverts`, filled with 0 or 1.
 */
static int ascii_local_array_read(struct walk *w, int i)
{
	const struct tree *t = &w->t;
	int base = strip_implicit(t, child(t, i, 0)), pointer;
	CXCursor d;
	CXType type;

	if (base < 0 || t->n[base].kind != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(t->n[base].cur);
	type = clang_getCanonicalType(clang_getCursorType(d));
	pointer = type.kind == CXType_Pointer;
	if (!local_variable(d) ||
	    (type.kind != CXType_ConstantArray && !pointer) ||
	    classify_type(pointer ? clang_getPointeeType(type)
				  : clang_getArrayElementType(type)).cls != T_PLAIN_CHAR)
		return 0;
	for (int k = 1; k < t->len; k++) {
		int top;

		if (t->n[k].kind == CXCursor_VarDecl && clang_equalCursors(t->n[k].cur, d) &&
		    last_expr_child(t, k) >= 0 && !(pointer && fresh_memory(t, last_expr_child(t, k))))
			return 0;
		if (t->n[k].kind != CXCursor_DeclRefExpr ||
		    !clang_equalCursors(clang_getCursorReferenced(t->n[k].cur), d))
			continue;
		top = climb_implicit(t, k);
		if (!ascii_element_use(w, top) && !(pointer && own_pointer_use(t, top)))
			return 0;
	}
	return 1;
}

int ascii_source(struct walk *w, int src)
{
	const struct tree *t = &w->t;
	int i = strip_implicit(t, src), v;
	CXCursor d;

	if (i < 0)
		return 0;
	if (t->n[i].kind == CXCursor_ArraySubscriptExpr)
		return ascii_table_read(t, i) || ascii_local_array_read(w, i);
	if (t->n[i].kind != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(t->n[i].cur);
	if (!local_variable(d))
		return 0;
	if (ascii_local(w, d))
		return 1;
	/* written other values elsewhere, but here only this one reaches */
	v = reaching_value(w, d, i);
	return v >= 0 && ascii_write(t, &(struct local_write){ .value = v }, &(struct local_writes){ w, 0 });
}
