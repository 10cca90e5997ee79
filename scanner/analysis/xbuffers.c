/*
 * Buffers other TUs fill: a char * parameter of a function with
 * external linkage ("open").  A constant outside 0..127 its body stores
 * there (or a static helper's, given the parameter: ndisc_mc_map()'s buf
 * filled by if_inet6.h's ipv6_ib_mc_map()) is read back, if at all, by
 * the callers, in whatever TU they are.  This file leaves the records
 * the join needs (xtu/buffers.c):
 *
 *	G  name, k, "bytes"	a call gives argument k memory this TU reads
 *				only as bytes (unsigned char, or an array of
 *				its own read as bytes); "number" anything else
 *				(once per TU for each name, k and kind);
 *	G  name, 0, "address"	the function's address is taken: callers
 *				the scan cannot see;
 *	P  name, k, at		a CS004 store kept here that rests on what
 *				the callers of name() give argument k;
 *	P  "-", 0, at		one kept here for good: nothing takes it
 *				back (a header's store, judged in each TU).
 *
 * A plain char field of a struct a header defines is read in every TU
 * that includes it: its reads are G records under the field's USR (arg
 * 0, "bytes" or "number"), its CS004 stores P records under the same,
 * whether an assignment or an initializer makes them.  mpparse.c's
 * `mpc->checksum = 0xff`, only summed back into itself.  The plain char
 * members of a union share one key: each reads the others' bytes.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

/* char * (not const char *, which nothing stores through). */
static int writable_char_pointer(CXType t)
{
	CXType p;

	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return 0;
	p = clang_getPointeeType(t);
	return classify_type(p).cls == T_PLAIN_CHAR && !clang_isConstQualifiedType(p);
}

static int external_function(CXCursor fn)
{
	return clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
	       clang_getCursorLinkage(fn) == CXLinkage_External;
}

int open_param(CXCursor c)
{
	return clang_getCursorKind(c) == CXCursor_ParmDecl &&
	       writable_char_pointer(clang_getCursorType(c)) &&
	       external_function(clang_getCursorSemanticParent(c));
}

int is_record(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	return k == CXCursor_StructDecl || k == CXCursor_UnionDecl;
}

/* The outermost union a field is a member of, through the records it
 * is declared in, or null. */
static CXCursor outer_union(CXCursor field)
{
	CXCursor outer = clang_getNullCursor();

	for (CXCursor r = clang_getCursorSemanticParent(field); is_record(r);
	     r = clang_getCursorSemanticParent(r))
		if (clang_getCursorKind(r) == CXCursor_UnionDecl)
			outer = r;
	return outer;
}

/* Does a member of the record (through anonymous ones) have a struct or
 * union type of its own, whose fields have keys of their own? */
static enum CXChildVisitResult typed_member(CXCursor c, CXCursor parent, CXClientData data)
{
	int *found = data;
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	CXCursor d;

	(void)parent;
	if (is_record(c)) {
		clang_visitChildren(c, typed_member, data);
		return *found ? CXChildVisit_Break : CXChildVisit_Continue;
	}
	if (clang_getCursorKind(c) != CXCursor_FieldDecl)
		return CXChildVisit_Continue;
	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	d = clang_getTypeDeclaration(t);
	if (t.kind == CXType_Record && !clang_Cursor_isAnonymousRecordDecl(d))
		*found = 1;
	return *found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* char c or char name[N] of a struct or union that a header defines.
 * Not a member of a union one of whose members is a struct of its own
 * (`union { struct in in; char raw[2]; }`): in.x reads raw's bytes under
 * another key. */
int open_field(CXCursor c)
{
	CXCursor record = clang_getCursorSemanticParent(c), u;
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	int typed = 0;

	if (clang_getCursorKind(c) != CXCursor_FieldDecl || clang_Cursor_isBitField(c) ||
	    !is_record(record) || clang_Location_isFromMainFile(clang_getCursorLocation(record)))
		return 0;
	if (t.kind == CXType_ConstantArray)
		t = clang_getArrayElementType(t);
	if (classify_type(t).cls != T_PLAIN_CHAR)
		return 0;
	u = outer_union(c);
	if (!clang_Cursor_isNull(u))
		clang_visitChildren(u, typed_member, &typed);
	return !typed;
}

int open_char_param(CXCursor callee, int k)
{
	return external_function(callee) && k >= 0 &&
	       k < clang_Cursor_getNumArguments(callee) &&
	       writable_char_pointer(clang_getCursorType(clang_Cursor_getArgument(callee,
										 (unsigned)k)));
}

static char *spelling(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

static struct xrec *add(struct walk *w, char kind, const char *name, unsigned k,
			const char *text, const struct loc *at)
{
	struct xrec *x = xrecs_add(w->xout, kind, name);

	x->arg = k;
	x->text = xstrdup(text);
	x->loc = *at;
	x->loc.path = xstrdup(at->path ? at->path : "?");
	return x;
}

static struct loc where(struct walk *w, int i)
{
	struct loc l = { 0 };

	if (cursor_region(w->tu, T(w, i).cur, &l, &(CXCursor){ 0 }) || !l.path)
		l.path = xstrdup("?");
	return l;
}

static char *usr(CXCursor c)
{
	CXString s = clang_getCursorUSR(c);
	char *r = *clang_getCString(s) ? xstrdup(clang_getCString(s)) : NULL;

	clang_disposeString(s);
	return r;
}

/* The join's key for a field's bytes: its USR, or for a member of a
 * union (nfs4_stateid's `data`, and `other` in the struct beside it)
 * the outermost union's, since every plain char member of it reads the
 * same bytes; an anonymous one's with its offset, as two anonymous
 * unions of a struct share a USR.  Members of other types read them as
 * the same bits whatever char is. */
static char *field_key(CXCursor field)
{
	CXCursor outer = outer_union(field);
	unsigned off = 0;
	char *u, *key;

	if (clang_Cursor_isNull(outer))
		return usr(field);
	u = usr(outer);
	if (clang_Cursor_isAnonymousRecordDecl(outer) || clang_Cursor_isAnonymous(outer))
		clang_getExpansionLocation(clang_getCursorLocation(outer), NULL, NULL, NULL, &off);
	key = u ? xasprintf("%s@%u#chars", u, off) : NULL;
	free(u);
	return key;
}

/* A G record, once per TU for each name, argument and kind: a kernel
 * TU calls snprintf() and reads `comm` hundreds of times, and the join
 * needs to know only that it does, and how. */
static void tell_once(struct walk *w, const char *name, unsigned k, const char *how,
		      const struct loc *at)
{
	char *seen = xasprintf("%u %s %s", k, how, name);

	for (size_t i = 0; i < w->nfread; i++)
		if (!strcmp(w->fread_seen[i], seen)) {
			free(seen);
			return;
		}
	grow(&w->fread_seen, &w->freadcap, w->nfread + 1, sizeof(*w->fread_seen));
	w->fread_seen[w->nfread++] = seen;
	add(w, X_PARG, name, k, how, at);
}

void note_header_field_read(struct walk *w, CXCursor field, int bytes)
{
	char *key = w->xout ? field_key(field) : NULL;
	struct loc at = { .path = "?" };

	if (!key)
		return;
	tell_once(w, key, 0, bytes ? "bytes" : "number", &at);
	free(key);
}

/* Memory read as unsigned or signed char whatever char is: ha of
 * `unsigned char ha[]` passed where a char * is taken. */
int byte_memory(struct walk *w, int a)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(T(w, a).cur));
	enum CXTypeKind k;

	if (t.kind == CXType_Pointer)
		k = clang_getCanonicalType(clang_getPointeeType(t)).kind;
	else if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		k = clang_getCanonicalType(clang_getArrayElementType(t)).kind;
	else
		return 0;
	return k == CXType_UChar || k == CXType_SChar;
}

/* An array of this TU's own (a local, a static), judged once its reads
 * are all seen; or null. */
static CXCursor own_array(struct walk *w, int a)
{
	CXCursor var;
	CXType t;
	enum CXLinkageKind l;

	if (T(w, a).kind != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	var = clang_getCursorReferenced(T(w, a).cur);
	t = clang_getCanonicalType(clang_getCursorType(var));
	l = clang_getCursorLinkage(var);
	if (clang_getCursorKind(var) != CXCursor_VarDecl || t.kind != CXType_ConstantArray ||
	    classify_type(clang_getArrayElementType(t)).cls != T_PLAIN_CHAR ||
	    (l != CXLinkage_Internal && l != CXLinkage_NoLinkage))
		return clang_getNullCursor();
	return clang_getCanonicalCursor(var);
}

void note_open_call(struct walk *w, int call, CXCursor callee)
{
	int n = clang_Cursor_getNumArguments(T(w, call).cur);
	char *name = NULL;

	if (!w->xout || !external_function(callee))
		return;
	/* `int f();`: any argument may be the memory a char * takes */
	if (clang_getCursorType(callee).kind == CXType_FunctionNoProto) {
		struct loc at = where(w, call);

		name = spelling(callee);
		for (int k = 0; k < n; k++)
			tell_once(w, name, (unsigned)k, "number", &at);
		free(at.path);
		free(name);
		return;
	}
	for (int k = 0; k < n; k++) {
		int a = strip_implicit(&w->t, child(&w->t, call, k + 1));
		struct loc at;
		CXCursor var;

		if (!open_char_param(callee, k) || a < 0)
			continue;
		while (a >= 0 && T(w, a).kind == CXCursor_CStyleCastExpr &&
		       T(w, a).type.cls == T_PTR)
			a = strip_implicit(&w->t, cast_operand(&w->t, a));
		if (a < 0)
			continue;
		if (!name)
			name = spelling(callee);
		at = where(w, call);
		var = own_array(w, a);
		if (!clang_Cursor_isNull(var)) {
			grow(&w->oarg, &w->oargcap, w->noarg + 1, sizeof(*w->oarg));
			w->oarg[w->noarg++] = (struct open_arg){ var, xstrdup(name), (unsigned)k, at };
			continue;
		}
		tell_once(w, name, (unsigned)k, byte_memory(w, a) ? "bytes" : "number", &at);
		free(at.path);
	}
	free(name);
}

/* The kernel's export tables take a function's address to link modules
 * against it (EXPORT_SYMBOL: `__ksymtab_f`, or __ADDRESSABLE(f)'s
 * `__UNIQUE_ID___addressable_f1`), not to call it through a pointer;
 * the tree's modules are in the scan with their calls. */
static int export_table(const char *decl)
{
	return decl && (!strncmp(decl, "__ksymtab_", 10) || strstr(decl, "__addressable_"));
}

void note_open_address(struct walk *w, CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn), any = 0;
	struct loc at = { 0 };
	char *name;

	if (!w->xout || !external_function(fn) || export_table(w->function))
		return;
	for (int k = 0; k < n && !any; k++) {
		CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn,
										       (unsigned)k)));

		any = open_char_param(fn, k) || classify_type(t).cls == T_PLAIN_CHAR ||
		      (t.kind == CXType_Pointer &&
		       classify_type(clang_getPointeeType(t)).cls == T_PLAIN_CHAR);
	}
	if (!any)
		return;
	name = spelling(fn);
	at.path = "?";
	tell_once(w, name, 0, "address", &at);
	free(name);
}

void note_kept_store(struct walk *w, size_t finding, CXCursor dep, const char *expr)
{
	grow(&w->kept, &w->keptcap, w->nkept + 1, sizeof(*w->kept));
	w->kept[w->nkept++] = (struct kept_store){ finding, dep, xstrdup(expr ? expr : ""), 0, 0 };
}

void note_kept_value(struct walk *w, size_t finding, CXCursor fn, int k)
{
	grow(&w->kept, &w->keptcap, w->nkept + 1, sizeof(*w->kept));
	w->kept[w->nkept++] = (struct kept_store){ finding, fn, NULL, 1, k };
}

void note_value_argument(struct walk *w, int call, CXCursor fn, int k, int ascii)
{
	char *name, *key;
	struct loc at;

	if (!w->xout)
		return;
	name = spelling(fn);
	key = xasprintf("v:%s", name);
	at = where(w, call);
	tell_once(w, key, (unsigned)k, ascii ? "bytes" : "number", &at);
	free(at.path);
	free(key);
	free(name);
}

void note_open_args(struct walk *w)
{
	for (size_t i = 0; i < w->noarg; i++) {
		struct open_arg *o = &w->oarg[i];

		if (w->xout)
			tell_once(w, o->fn, o->k, bytes_but_passed(w, o->var) ? "bytes" : "number",
				  &o->loc);
		free(o->fn);
		free(o->loc.path);
	}
	free(w->oarg);
	w->oarg = NULL;
	w->noarg = w->oargcap = 0;
}

/* The index of parameter p in its function. */
static unsigned param_index(CXCursor p)
{
	CXCursor fn = clang_getCursorSemanticParent(p);
	int n = clang_Cursor_getNumArguments(fn);

	for (int k = 0; k < n; k++)
		if (clang_equalCursors(clang_getCanonicalCursor(clang_Cursor_getArgument(fn, (unsigned)k)),
				       clang_getCanonicalCursor(p)))
			return (unsigned)k;
	return 0;
}

void note_kept_records(struct walk *w, const unsigned char *drop)
{
	for (size_t i = 0; w->xout && i < w->nkept; i++) {
		const struct kept_store *k = &w->kept[i];
		const struct finding *f;

		if (k->finding >= w->out->len || drop[k->finding] || w->out->v[k->finding].pass)
			continue;
		f = &w->out->v[k->finding];
		if (k->value) {
			char *name = spelling(k->dep), *key = xasprintf("v:%s", name);
			char *text = xasprintf("%s %s", rules[f->rule].id,
					       f->operand ? f->operand : "value");

			add(w, X_PSTORE, key, (unsigned)k->index, text, &f->loc);
			free(text);
			free(key);
			free(name);
		} else if (!clang_Cursor_isNull(k->dep) && open_field(k->dep)) {
			char *key = field_key(k->dep);

			add(w, X_PSTORE, key ? key : "-", 0, k->expr, &f->loc);
			free(key);
		} else if (!clang_Cursor_isNull(k->dep)) {
			char *name = spelling(clang_getCursorSemanticParent(k->dep));

			add(w, X_PSTORE, name, param_index(k->dep), k->expr, &f->loc);
			free(name);
		} else {
			add(w, X_PSTORE, "-", 0, k->expr, &f->loc);
		}
	}
	for (size_t i = 0; i < w->nkept; i++)
		free(w->kept[i].expr);
	free(w->kept);
	w->kept = NULL;
	w->nkept = w->keptcap = 0;
	for (size_t i = 0; i < w->nfread; i++)
		free(w->fread_seen[i]);
	free(w->fread_seen);
	w->fread_seen = NULL;
	w->nfread = w->freadcap = 0;
}
