/*
 * Plain char fields and global variables: what the scan sees written
 * into them.  A finding on a value read from one (sdev->scsi_level,
 * read in a dozen files) is only as real as the bytes stored there:
 * when every write the scan sees, in every TU, stores 0..127 (a
 * constant, a masked value, a boolean, a copy of another such field,
 * a bounded step after one of them) the read gives the same value under
 * either signedness.  This file leaves the records (X_WRITE for each
 * write, X_READ for each finding on a read); xtu/summary.c joins them
 * once every TU is seen and takes those findings back.  A write it
 * cannot bound (bytes from a buffer, the field's address taken, the
 * whole struct filled from raw bytes) keeps them.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

static int is_loop(enum CXCursorKind k)
{
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

/* The key of a plain char field (not a bit-field: its width decides
 * more than char's signedness) or global variable: its USR, or NULL. */
/* A global const array of integers (ip_tos2prio[]): only its
 * initializer writes it, in the TU that defines it. */
static int const_table(CXCursor d)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	enum tclass c;

	if (clang_getCursorKind(d) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(d) ||
	    (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray))
		return 0;
	/* The canonical type may carry the const on the array. */
	c = classify_type(clang_getArrayElementType(t)).cls;
	return (clang_isConstQualifiedType(t) ||
		clang_isConstQualifiedType(clang_getArrayElementType(t))) &&
	       (c == T_INT || c == T_PLAIN_CHAR || c == T_SCHAR || c == T_UCHAR);
}

static char *origin_key(CXCursor d)
{
	enum CXCursorKind k = clang_getCursorKind(d);
	CXString usr;
	char *key;

	/* A union's member is also written by every write of the others. */
	if (k == CXCursor_FieldDecl ? clang_Cursor_isBitField(d) ||
				      clang_getCursorKind(clang_getCursorSemanticParent(d)) ==
				      CXCursor_UnionDecl :
	    k != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(d))
		return NULL;
	if (classify_type(clang_getCursorType(d)).cls != T_PLAIN_CHAR && !const_table(d))
		return NULL;
	usr = clang_getCursorUSR(d);
	key = *clang_getCString(usr) ? xstrdup(clang_getCString(usr)) : NULL;
	clang_disposeString(usr);
	return key;
}

static char *ref_key(struct walk *w, const struct tree *t, int i);

/* The const table every return of function fn (a definition of this
 * TU) reads, as rt_tos2priority() reads ip_tos2prio[]: its key, or
 * NULL. */
static char *returned_table(struct walk *w, CXCursor fn)
{
	struct tree ft = { 0 };
	char *key = NULL;
	int ok = 1;

	fn = clang_getCursorDefinition(fn);
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return NULL;
	tree_build(&ft, w->t.tu, fn);
	for (int i = 1; i < ft.len && ok; i++) {
		char *k;

		if (ft.n[i].kind != CXCursor_ReturnStmt)
			continue;
		k = ft.n[i].first >= 0 ? ref_key(NULL, &ft, ft.n[i].first) : NULL;
		ok = k && (!key || !strcmp(k, key));
		free(key);
		key = k;
	}
	tree_free(&ft);
	if (!ok) {
		free(key);
		return NULL;
	}
	return key;
}

/* The key of what node i reads or writes (a member or variable
 * reference, an entry of a const table; with w, a call of a function of
 * this TU that returns one), or NULL. */
static char *ref_key(struct walk *w, const struct tree *t, int i)
{
	int base;

	i = strip_implicit(t, i);
	if (i < 0)
		return NULL;
	if (t->n[i].kind == CXCursor_ArraySubscriptExpr &&
	    (base = strip_implicit(t, child(t, i, 0))) >= 0 &&
	    t->n[base].kind == CXCursor_DeclRefExpr &&
	    const_table(clang_getCursorReferenced(t->n[base].cur)))
		return origin_key(clang_getCursorReferenced(t->n[base].cur));
	if (w && t->n[i].kind == CXCursor_CallExpr)
		return returned_table(w, clang_getCursorReferenced(t->n[i].cur));
	if (t->n[i].kind != CXCursor_MemberRefExpr && t->n[i].kind != CXCursor_DeclRefExpr)
		return NULL;
	return origin_key(clang_getCursorReferenced(t->n[i].cur));
}

static void add_write(struct walk *w, const char *key, enum xwrite how, const char *from,
		      int at)
{
	struct xrec *x = xrecs_add(w->xout, X_WRITE, key);

	x->arg = how;
	x->text = xstrdup(from ? from : "");
	if (cursor_region(w->tu, w->t.n[at].cur, &x->loc, &(CXCursor){ 0 }) || !x->loc.path)
		x->loc.path = xstrdup("?");
}

/* A plain write of v: in 0..127, a copy of another field, or unknown. */
static void note_value(struct walk *w, const char *key, int v, int at)
{
	char *from = v >= 0 ? ref_key(w, &w->t, v) : NULL;
	long long k;

	if (from) {
		add_write(w, key, XW_COPY, from, at);
		free(from);
	} else if (v >= 0 && eval_const(&w->t, v, &k) && (k < 0 || k > 0x7f)) {
		char *text = xasprintf("byte 0x%02llx", (unsigned long long)k & 0xff);

		add_write(w, key, XW_HIGH, text, at);
		free(text);
	} else {
		/* masked, or what the walk sees bounded: a guard, a call of
		 * this TU's that returns 0..127 (usb_endpoint_num()) */
		add_write(w, key, v < 0 || value_bound(&w->t, v) <= 0x7f || ascii_value_seen(w, v) ?
			  XW_ASCII : XW_UNKNOWN, NULL, at);
	}
}

/* The variable whose member node i writes (p in p->f), or a null cursor. */
static CXCursor base_of(const struct tree *t, int i)
{
	i = strip_implicit(t, i);
	if (i >= 0 && t->n[i].kind == CXCursor_MemberRefExpr)
		i = strip_implicit(t, child(t, i, 0));
	if (i >= 0 && t->n[i].kind == CXCursor_DeclRefExpr)
		return clang_getCursorReferenced(t->n[i].cur);
	return clang_getNullCursor();
}

/* Is node j a statement of a block that holds node i, no loop between,
 * so that j runs before i each time (the code is structured)? */
static int dominates(const struct tree *t, int j, int i)
{
	int block = t->n[j].parent;

	if (j >= i || block < 0 || t->n[block].kind != CXCursor_CompoundStmt)
		return 0;
	for (int p = t->n[i].parent; p >= 0; p = t->n[p].parent) {
		if (p == block)
			return 1;
		if (is_loop(t->n[p].kind))
			return 0;
	}
	return 0;
}

/*
 * A step (f++, f -= 2) keeps the field in 0..127 when it runs after an
 * assignment of the same field of the same object, outside any loop of
 * its own, and every assignment of the field in this function plus
 * every step here stays there: scsi_scan.c's "scsi_level = inq[2] & 7;
 * if (...) scsi_level++;".
 */
static int bounded_step(struct walk *w, const char *key, int at)
{
	const struct tree *t = &w->t;
	CXCursor base = base_of(t, child(t, at, 0));
	long long top = 0, steps = 0, k;
	int first = -1;

	for (int i = 1; i < t->len; i++) {
		const struct node *n = &t->n[i];
		char *lhs;
		int hit;

		if (n->kind != CXCursor_BinaryOperator && n->kind != CXCursor_UnaryOperator &&
		    n->kind != CXCursor_CompoundAssignOperator)
			continue;
		if (!(lhs = ref_key(NULL, t, child(t, i, 0))))
			continue;
		hit = !strcmp(lhs, key) && clang_equalCursors(base_of(t, child(t, i, 0)), base);
		free(lhs);
		if (!hit)
			continue;
		if (n->op == OP_ASSIGN) {
			long long b = value_bound(t, child(t, i, 1));

			top = b > top ? b : top;
			if (first < 0 && dominates(t, i, at))
				first = i;
		} else if (n->op == OP_INC || n->op == OP_DEC) {
			steps++;
		} else if (n->kind == CXCursor_UnaryOperator && n->op != OP_ADDR) {
			continue;	/* a read: -f, !f */
		} else if ((n->op == OP_ADD_A || n->op == OP_SUB_A) &&
			   eval_const(t, child(t, i, 1), &k) && k >= 0 && k < 128) {
			steps += k;
		} else if (n->kind != CXCursor_BinaryOperator) {
			return 0;
		}
	}
	return first >= 0 && top + steps <= 0x7f && !(top == 0 && t->n[at].op == OP_DEC);
}

/* c++, c += k, c |= k...: bounded as above, else unknown. */
static void note_step(struct walk *w, const char *key, int at)
{
	add_write(w, key, bounded_step(w, key, at) ? XW_ASCII : XW_UNKNOWN, NULL, at);
}

/* The struct a pointer-typed node i points at: its USR, or NULL. */
/* A struct's (or union's) USR, or NULL. */
static char *record_key(CXCursor d)
{
	CXString usr;
	char *key = NULL;

	if (!is_record(d))
		return NULL;
	usr = clang_getCursorUSR(d);
	if (*clang_getCString(usr))
		key = xstrdup(clang_getCString(usr));
	clang_disposeString(usr);
	return key;
}

static char *pointee_record(const struct tree *t, int i)
{
	CXType p = clang_getCanonicalType(clang_getCursorType(t->n[i].cur));

	if (p.kind != CXType_Pointer)
		return NULL;
	return record_key(clang_getTypeDeclaration(clang_getCanonicalType(clang_getPointeeType(p))));
}

/* Functions that fill a struct whole, and which argument they fill
 * (-1: the memory they return): from bytes elsewhere (every field
 * unknown), from user space (every field a user's byte), or with zeros
 * (every field written 0: kzalloc()). */
static const struct filler {
	const char *name;
	int arg;
	enum xwrite how;
} fillers[] = {
	{ "memcpy", 0, XW_RAW }, { "memmove", 0, XW_RAW }, { "__memcpy", 0, XW_RAW },
	{ "memcpy_fromio", 0, XW_RAW }, { "skb_copy_bits", 2, XW_RAW },
	{ "kernel_read", 1, XW_RAW }, { "read", 1, XW_RAW }, { "pread", 1, XW_RAW },
	{ "fread", 0, XW_RAW }, { "recv", 1, XW_RAW }, { "recvfrom", 1, XW_RAW },
	{ "copy_from_user", 0, XW_USER }, { "__copy_from_user", 0, XW_USER },
	{ "raw_copy_from_user", 0, XW_USER }, { "copy_struct_from_user", 0, XW_USER },
	{ "copy_from_sockptr", 0, XW_USER }, { "memdup_user", -1, XW_USER },
	{ "kzalloc", -1, XW_ZERO }, { "kcalloc", -1, XW_ZERO }, { "kvzalloc", -1, XW_ZERO },
	{ "kvcalloc", -1, XW_ZERO }, { "vzalloc", -1, XW_ZERO }, { "devm_kzalloc", -1, XW_ZERO },
	{ "kzalloc_node", -1, XW_ZERO }, { "kmem_cache_zalloc", -1, XW_ZERO },
	{ "calloc", -1, XW_ZERO },
};

/* The struct node ptr points at (as typed there) is filled whole. */
static void note_whole(struct walk *w, int ptr, enum xwrite how, int at)
{
	char *rec = ptr >= 0 ? pointee_record(&w->t, ptr) : NULL;

	if (rec)
		add_write(w, rec, how, NULL, at);
	free(rec);
}

/* memset(p, 0, n) zeroes the struct; any other byte is as raw bytes. */
static void note_memset(struct walk *w, int call)
{
	long long k;

	note_whole(w, strip_implicit(&w->t, child(&w->t, call, 1)),
		   eval_const(&w->t, child(&w->t, call, 2), &k) && k == 0 ? XW_ZERO : XW_RAW, call);
}

static void note_call(struct walk *w, int call)
{
	CXString s = clang_getCursorSpelling(w->t.n[call].cur);
	const char *name = clang_getCString(s);

	if (name && !strcmp(name, "memset"))
		note_memset(w, call);
	for (size_t k = 0; name && k < sizeof(fillers) / sizeof(*fillers); k++)
		if (!strcmp(name, fillers[k].name))
			/* what it returns, as the struct pointer it becomes */
			note_whole(w, fillers[k].arg < 0 ? climb_implicit(&w->t, call) :
				   strip_implicit(&w->t, child(&w->t, call, fillers[k].arg + 1)),
				   fillers[k].how, call);
	clang_disposeString(s);
}

/* (struct s *)buf, buf a byte pointer: the struct is read from raw bytes
 * (a disk block, a packet).  container_of() casts from void *: not this. */
static void note_cast(struct walk *w, int cast)
{
	const struct tree *t = &w->t;
	int from = strip_implicit(t, cast_operand(t, cast));
	CXType p;
	enum tclass c;

	if (from < 0)
		return;
	p = clang_getCanonicalType(clang_getCursorType(t->n[from].cur));
	if (p.kind != CXType_Pointer)
		return;
	c = classify_type(clang_getPointeeType(p)).cls;
	if (c == T_PLAIN_CHAR || c == T_SCHAR || c == T_UCHAR)
		note_whole(w, cast, XW_RAW, cast);
}

/* .f = v (.a.b = v): an expression of no type whose MemberRef children
 * name the field, the last one of them the one written; v comes last. */
static int designated(const struct tree *t, int c, CXCursor *field)
{
	int v = -1;

	if (t->n[c].kind != CXCursor_UnexposedExpr || t->n[c].type.cls != T_OTHER ||
	    t->n[c].first < 0 || t->n[t->n[c].first].kind != CXCursor_MemberRef)
		return -2;
	for (int m = t->n[c].first; m >= 0; m = t->n[m].next)
		if (t->n[m].kind == CXCursor_MemberRef)
			*field = clang_getCursorReferenced(t->n[m].cur);
		else
			v = m;
	return v;
}

/* { .f = v } and { a, v }: the field each value initializes. */
static void note_init_list(struct walk *w, int list)
{
	const struct tree *t = &w->t;
	CXCursor rec = clang_getTypeDeclaration(clang_getCanonicalType(
		clang_getCursorType(t->n[list].cur)));
	unsigned k = 0, named = 0, plain = 0;
	CXCursor none;

	if (clang_getCursorKind(rec) != CXCursor_StructDecl)
		return;
	/* { .a = 1, 2 }: where a value without its name goes is counted
	 * from the last name; rare, so the struct is taken as unknown. */
	for (int c = t->n[list].first; c >= 0; c = t->n[c].next)
		if (designated(t, c, &none) == -2)
			plain++;
		else
			named++;
	if (named && plain) {
		char *whole = record_key(rec);

		if (whole)
			add_write(w, whole, XW_RAW, NULL, list);
		free(whole);
		return;
	}
	for (int c = t->n[list].first; c >= 0; c = t->n[c].next, k++) {
		CXCursor field = clang_getNullCursor();
		int v = designated(t, c, &field);
		char *key;

		if (v == -2) {
			v = c;
			field = nth_field(rec, k);
		}
		if (v >= 0 && (key = origin_key(field))) {
			note_value(w, key, v, c);
			free(key);
		}
	}
}

/* A const table's initializer: each entry a constant in 0..127 (or
 * none: zeros), one outside, or something else. */
static void note_table(struct walk *w, const char *key, int init, int at)
{
	const struct tree *t = &w->t;
	enum xwrite how = XW_ASCII;
	long long k = 0;

	init = strip_implicit(t, init);
	if (init >= 0 && t->n[init].kind == CXCursor_InitListExpr) {
		for (int c = t->n[init].first; c >= 0 && how == XW_ASCII; c = t->n[c].next)
			how = !eval_const(t, c, &k) ? XW_UNKNOWN : k < 0 || k > 0x7f ? XW_HIGH : XW_ASCII;
	} else if (init >= 0) {
		how = ascii_value(t, init) ? XW_ASCII : XW_UNKNOWN;	/* a string */
	}
	if (how == XW_HIGH) {
		char *text = xasprintf("byte 0x%02llx", (unsigned long long)k & 0xff);

		add_write(w, key, how, text, at);
		free(text);
	} else {
		add_write(w, key, how, NULL, at);
	}
}

/* A global or static variable's definition writes its initializer
 * (none: zero); `extern char g;` writes nothing. */
static void note_definition(struct walk *w, int i)
{
	CXCursor d = w->t.n[i].cur;
	char *key = clang_isCursorDefinition(d) ? origin_key(d) : NULL;

	if (key && const_table(d))
		note_table(w, key, last_expr_child(&w->t, i), i);
	else if (key)
		note_value(w, key, last_expr_child(&w->t, i), i);
	free(key);
}

/* &table of a const table (EXPORT_SYMBOL(ip_tos2prio) takes it for the
 * module linker): nothing may write const memory through it, so its
 * initializer stays all it holds. */
static int addresses_const_table(const struct tree *t, int addr)
{
	int v = strip_implicit(t, child(t, addr, 0));

	return v >= 0 && t->n[v].kind == CXCursor_DeclRefExpr &&
	       const_table(clang_getCursorReferenced(t->n[v].cur));
}

void note_field_writes(struct walk *w)
{
	const struct tree *t = &w->t;

	if (!w->xout)
		return;
	for (int i = 0; i < t->len; i++) {
		const struct node *n = &t->n[i];
		char *key = NULL;

		if (n->kind == CXCursor_VarDecl)
			note_definition(w, i);
		else if (n->kind == CXCursor_CallExpr)
			note_call(w, i);
		else if (n->kind == CXCursor_CStyleCastExpr)
			note_cast(w, i);
		else if (n->kind == CXCursor_InitListExpr)
			note_init_list(w, i);
		else if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_UnaryOperator ||
			  n->kind == CXCursor_CompoundAssignOperator) &&
			 (n->op == OP_ASSIGN || n->kind != CXCursor_BinaryOperator) &&
			 (key = ref_key(NULL, t, child(t, i, 0)))) {
			if (n->op == OP_ASSIGN)
				note_value(w, key, child(t, i, 1), i);
			else if (n->op == OP_AND_A && value_bound(t, child(t, i, 1)) <= 0x7f)
				add_write(w, key, XW_ASCII, NULL, i);
			else if (n->op == OP_ADDR && !addresses_const_table(t, i))
				add_write(w, key, XW_UNKNOWN, NULL, i);
			else if (n->kind != CXCursor_UnaryOperator || n->op == OP_INC ||
				 n->op == OP_DEC)
				note_step(w, key, i);
		}
		free(key);
	}
}

/* A local plain char whose one write reaching the read (node) is a
 * read of a field or global (char c = d->level; ... c > 5): that. */
CXCursor origin_decl(struct walk *w, CXCursor decl, int read)
{
	int v;

	if (!local_variable(decl) || read < 0 ||
	    (v = reaching_value(w, decl, strip_implicit(&w->t, read))) < 0 ||
	    (v = strip_implicit(&w->t, v)) < 0 ||
	    (w->t.n[v].kind != CXCursor_MemberRefExpr && w->t.n[v].kind != CXCursor_DeclRefExpr))
		return decl;
	return clang_getCursorReferenced(w->t.n[v].cur);
}

/* A finding on a value read from a field or global (decl, read at
 * node operand): its record, so that the join can take it back. */
void note_field_read(struct walk *w, const struct finding *f, CXCursor decl, int operand)
{
	char *key;
	CXString name, parent;
	struct xrec *x;

	if (!w->xout)
		return;
	decl = origin_decl(w, decl, operand);
	key = clang_getCursorKind(decl) == CXCursor_FunctionDecl ? returned_table(w, decl) :
	      origin_key(decl);
	if (!key)
		return;
	x = xrecs_add(w->xout, X_READ, key);
	x->arg = f->rule;
	name = clang_getCursorSpelling(decl);
	if (clang_getCursorKind(decl) == CXCursor_FunctionDecl) {
		const char *at = strrchr(key, '@');

		x->text = xasprintf("'%s', which %s() returns", at ? at + 1 : key,
				    clang_getCString(name));
	} else if (clang_getCursorKind(decl) == CXCursor_FieldDecl) {
		parent = clang_getTypeSpelling(clang_getCursorType(clang_getCursorSemanticParent(decl)));
		x->text = xasprintf("field '%s' of %s", clang_getCString(name),
				    clang_getCString(parent));
		clang_disposeString(parent);
	} else {
		x->text = xasprintf(const_table(decl) ? "table '%s'" : "variable '%s'",
				    clang_getCString(name));
	}
	clang_disposeString(name);
	free(key);
	x->loc = f->loc;
	x->loc.path = xstrdup(f->loc.path ? f->loc.path : "?");
}
