/*
 * A constant outside 0..127 stored into a plain char (CS004) reads back
 * as -128 or 128 only where something reads it as a number.  Bytes that
 * are only copied (memcpy, another char), compared as bytes (memcmp,
 * strcmp, == against another char), printed as bytes (%s, %c) or read
 * through an unsigned or signed char pointer are the same bytes under
 * either signedness: ip.h's multicast addresses, MD5's 0x80 padding.
 *
 * The walk counts how each declaration of the TU reads a char, or an
 * array of char, that only this TU can see: a variable without external
 * linkage, or a field of a struct the main file defines.  The same for
 * the memory a char * parameter of a static function points at: its
 * reads in the body, and what each call passes (an array of this TU,
 * linked to the parameter, or memory of unsigned char).  A CS004
 * finding on a store into such storage is dropped (a pass with
 * --explain) once the whole TU has been seen and every read was a
 * byte's.  Anything else (a number, an address kept, a char * handed to
 * an unknown function or another TU's, a global other TUs may read,
 * storage never read) keeps the finding.  A static function this TU
 * never calls (ip.h's, in most files that include it) makes no code
 * here: the TUs that call it judge its stores by their buffers.
 *
 * A char * parameter of a function other TUs call (ndisc_mc_map()'s
 * buf, which if_inet6.h's ipv6_ib_mc_map() fills) is read here like a
 * static one's; its callers are in the whole scan.  A store read only
 * as bytes but for such a parameter is kept here and handed to the
 * join (xbuffers.c) with the parameter it rests on.
 */
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

/* READ_OPEN: passed to another TU's char *, a number read unless the
 * join shows that TU's stores read as bytes by every caller. */
enum read_kind { READ_NONE, READ_BYTES, READ_NUMBER, READ_OPEN };

/* Functions that take a plain char * and only copy, compare or count
 * its bytes (the str* compare as unsigned char): ones with void * or
 * unsigned char * parameters are known by their types. */
static const char *const byte_functions[] = {
	"strcpy", "strncpy", "strscpy", "strlcpy", "strcat", "strncat", "strlcat",
	"strcmp", "strncmp", "strlen", "strnlen",
	"__builtin_strcpy", "__builtin_strncpy", "__builtin_strcat", "__builtin_strncat",
	"__builtin_strcmp", "__builtin_strncmp", "__builtin_strlen", "__builtin_strnlen",
};

static int is_byte_function(CXCursor fn)
{
	CXString s = clang_getCursorSpelling(fn);
	const char *name = clang_getCString(s);
	int yes = 0;

	for (size_t i = 0; !yes && i < sizeof(byte_functions) / sizeof(byte_functions[0]); i++)
		yes = !strcmp(name, byte_functions[i]);
	clang_disposeString(s);
	return yes;
}

static int is_char_array(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) &&
	       classify_type(clang_getArrayElementType(t)).cls == T_PLAIN_CHAR;
}

static int is_char_storage(CXCursor c)
{
	CXType t = clang_getCursorType(c);

	return classify_type(t).cls == T_PLAIN_CHAR || is_char_array(t);
}

/* A char * field of a struct the main file defines: the bytes it
 * points at (a compound literal of a table's initializer) are read
 * where the field is read. */
static int pointer_field(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));

	return clang_getCursorKind(c) == CXCursor_FieldDecl && t.kind == CXType_Pointer &&
	       classify_type(clang_getPointeeType(t)).cls == T_PLAIN_CHAR &&
	       clang_Location_isFromMainFile(clang_getCursorLocation(
		       clang_getCursorSemanticParent(c)));
}

/* Storage whose every read this TU sees. */
static int storage_of_tu(CXCursor c)
{
	enum CXLinkageKind l;
	CXCursor record;

	if (clang_Cursor_isNull(c))
		return 0;
	if (pointer_field(c))
		return 1;
	if (!is_char_storage(c))
		return 0;
	switch (clang_getCursorKind(c)) {
	case CXCursor_VarDecl:
		l = clang_getCursorLinkage(c);
		return l == CXLinkage_Internal || l == CXLinkage_NoLinkage;
	case CXCursor_FieldDecl:
		/* A struct of a header is read by other TUs too. */
		record = clang_getCursorSemanticParent(c);
		return clang_Location_isFromMainFile(clang_getCursorLocation(record));
	default:
		return 0;
	}
}

int tracked_pointer(struct walk *w, CXCursor c)
{
	return pointer_field(c) || local_pointer(w, c);
}

/* char *buf of a static function: its callers are all in this TU. */
static int param_buffer(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	CXCursor fn;

	if (clang_getCursorKind(c) != CXCursor_ParmDecl || t.kind != CXType_Pointer ||
	    classify_type(clang_getPointeeType(t)).cls != T_PLAIN_CHAR)
		return 0;
	fn = clang_getCursorSemanticParent(c);
	return clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
	       clang_getCursorLinkage(fn) == CXLinkage_Internal;
}

/* The body of a static function a call reaches, or null. */
static CXCursor static_body(CXCursor callee)
{
	if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl ||
	    clang_getCursorLinkage(callee) != CXLinkage_Internal)
		return clang_getNullCursor();
	return clang_getCursorDefinition(callee);
}

/* Parameter k of that body, if it is a buffer parameter. */
static CXCursor buffer_parameter(CXCursor def, int k)
{
	CXCursor p;

	if (clang_Cursor_isNull(def) || k < 0 || k >= clang_Cursor_getNumArguments(def))
		return clang_getNullCursor();
	p = clang_Cursor_getArgument(def, (unsigned)k);
	return param_buffer(p) ? clang_getCanonicalCursor(p) : clang_getNullCursor();
}

static struct store_reads *reads_of(struct walk *w, CXCursor var)
{
	for (size_t k = 0; k < w->nsread; k++)
		if (clang_equalCursors(w->sread[k].var, var))
			return &w->sread[k];
	grow(&w->sread, &w->sreadcap, w->nsread + 1, sizeof(*w->sread));
	w->sread[w->nsread] = (struct store_reads){ var, 0, 0, 0, 0 };
	return &w->sread[w->nsread++];
}

/* The conversion of printf-like call's argument k, or 0. */
static char printed_as(struct walk *w, int call, int k)
{
	CXCursor callee = clang_getCursorReferenced(T(w, call).cur);
	int named = clang_Cursor_getNumArguments(callee);
	struct conversion conv;
	char *fmt;
	int ok;

	if (clang_Cursor_isNull(callee) || !clang_Cursor_isVariadic(callee) || named < 1 ||
	    k < named || k >= clang_Cursor_getNumArguments(T(w, call).cur))
		return 0;
	fmt = literal_text(clang_Cursor_getArgument(T(w, call).cur, (unsigned)named - 1));
	if (!fmt)
		return 0;
	ok = format_conversion(fmt, (unsigned)(k - named), &conv);
	free(fmt);
	return ok ? conv.conv : 0;
}

/* A pointer to var's bytes passed as argument k of call. */
static enum read_kind passed_pointer(struct walk *w, CXCursor var, int call, int k)
{
	CXCursor callee = clang_getCursorReferenced(T(w, call).cur), param;
	CXType pt, pointee;

	if (clang_Cursor_isNull(callee) || k < 0)
		return READ_NUMBER;
	/* Into a static function's char *: read where its body reads it. */
	param = buffer_parameter(static_body(callee), k);
	if (!clang_Cursor_isNull(param)) {
		grow(&w->slink, &w->slinkcap, w->nslink + 1, sizeof(*w->slink));
		w->slink[w->nslink++] = (struct store_link){ var, param };
		return READ_NONE;
	}
	/* %s; %p prints the address, or (the kernel's %ph, %pM, %pE) the
	 * bytes as u8 */
	if (k >= clang_Cursor_getNumArguments(callee))
		return strchr("sp", printed_as(w, call, k) ?: '?') ? READ_BYTES : READ_NUMBER;
	if (open_char_param(callee, k))
		return READ_OPEN;
	pt = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(callee,
										  (unsigned)k)));
	if (pt.kind != CXType_Pointer)
		return READ_NUMBER;
	pointee = clang_getCanonicalType(clang_getPointeeType(pt));
	if (pointee.kind == CXType_Void || pointee.kind == CXType_UChar ||
	    pointee.kind == CXType_SChar)
		return READ_BYTES;
	return classify_type(pointee).cls == T_PLAIN_CHAR && is_byte_function(callee)
		       ? READ_BYTES : READ_NUMBER;
}

static enum read_kind element_read(struct walk *w, CXCursor var, int e);

/* The address of var's bytes at top (an array decayed, &a[i]): used
 * how? */
static enum read_kind pointer_read(struct walk *w, CXCursor var, int top)
{
	int p = T(w, top).parent, deref;
	enum CXTypeKind pointee;

	/* buf + 10, bp++: the same bytes, further on; len > 1 ? &buf[1] :
	 * NULL hands the same pointer on (top is above any parentheses) */
	while (p >= 0 && ((T(w, p).kind == CXCursor_BinaryOperator &&
			   (T(w, p).op == OP_ADD || T(w, p).op == OP_SUB) &&
			   T(w, p).type.cls == T_PTR) ||
			  (T(w, p).kind == CXCursor_UnaryOperator &&
			   (T(w, p).op == OP_INC || T(w, p).op == OP_DEC)) ||
			  (T(w, p).kind == CXCursor_ConditionalOperator && child(&w->t, p, 0) != top))) {
		top = climb_implicit(&w->t, p);
		p = T(w, top).parent;
	}
	if (p < 0)
		return READ_NUMBER;
	if (T(w, p).kind == CXCursor_CallExpr)
		return passed_pointer(w, var, p, argument_index(&w->t, p, top));
	if (T(w, p).kind != CXCursor_CStyleCastExpr) {
		switch (pointer_use(w, var, top, &deref)) {
		case PTR_DEREF:
			return element_read(w, var, deref);
		case PTR_NONE:
			return READ_NONE;
		default:
			return READ_NUMBER;
		}
	}
	/* Read through (const u8 *) or (const s8 *): the same either way. */
	pointee = clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(
		clang_getCursorType(T(w, p).cur)))).kind;
	return pointee == CXType_UChar || pointee == CXType_SChar ? READ_BYTES : READ_NUMBER;
}

/* Is i a char of either signedness written as such: a plain char
 * expression, or a character literal (its value follows char's)? */
static int spelled_as_char(struct walk *w, int i)
{
	i = strip_implicit(&w->t, i);
	return i >= 0 && (T(w, i).type.cls == T_PLAIN_CHAR ||
			  T(w, i).kind == CXCursor_CharacterLiteral);
}

/* A plain char read (top: after its implicit conversions) that stays a
 * char: copied into another char, or only tested against zero. */
static enum read_kind char_read(struct walk *w, int top)
{
	const struct tree *t = &w->t;
	int p = T(w, top).parent;
	enum tclass lhs;

	if (p < 0)
		return READ_NUMBER;
	if (tested_against_zero(t, p, top))
		return READ_BYTES;
	if (T(w, p).kind == CXCursor_VarDecl)
		lhs = T(w, p).type.cls;
	else if (T(w, p).kind == CXCursor_BinaryOperator && T(w, p).op == OP_ASSIGN &&
		 child(t, p, 1) == top)
		lhs = T(w, child(t, p, 0)).type.cls;
	else
		lhs = T(w, p).kind == CXCursor_CStyleCastExpr ? T(w, p).type.cls : T_OTHER;
	return lhs == T_PLAIN_CHAR || lhs == T_UCHAR || lhs == T_SCHAR ? READ_BYTES
								     : READ_NUMBER;
}

static enum read_kind value_read(struct walk *w, int e);

/* A read of one char of var (the variable, or an element). */
static enum read_kind element_read(struct walk *w, CXCursor var, int e)
{
	const struct tree *t = &w->t;
	int p = up(t, e);

	if (p >= 0 && T(w, p).kind == CXCursor_BinaryOperator && T(w, p).op == OP_ASSIGN &&
	    strip_parens(t, child(t, p, 0)) == e)
		return READ_NONE;		/* written */
	/* sum -= x, c ^= k: the low byte of + - * & | ^ << depends only on
	 * the low bytes, and it is all that is stored back (a statement:
	 * its value is not read on the spot) */
	if (p >= 0 && T(w, p).kind == CXCursor_CompoundAssignOperator &&
	    strip_parens(t, child(t, p, 0)) == e && T(w, p).parent >= 0 &&
	    T(w, T(w, p).parent).kind == CXCursor_CompoundStmt &&
	    (T(w, p).op == OP_ADD_A || T(w, p).op == OP_SUB_A || T(w, p).op == OP_MUL_A ||
	     T(w, p).op == OP_AND_A || T(w, p).op == OP_OR_A || T(w, p).op == OP_XOR_A ||
	     T(w, p).op == OP_SHL_A))
		return READ_BYTES;
	if (p >= 0 && T(w, p).kind == CXCursor_UnaryOperator && T(w, p).op == OP_ADDR)
		return pointer_read(w, var, climb_implicit(t, p));
	return value_read(w, e);
}

/* How the plain char value at node e is read where it is used. */
static enum read_kind value_read(struct walk *w, int e)
{
	const struct tree *t = &w->t;
	int top = climb_implicit(t, e), q = T(w, top).parent, k;

	switch (T(w, top).type.cls) {
	case T_UCHAR:			/* converted to a byte of known sign */
	case T_SCHAR:
		return READ_BYTES;
	case T_BOOL:			/* a truth value: the same either way */
		return READ_BYTES;
	case T_PLAIN_CHAR:
		return char_read(w, top);
	case T_INT:
		break;
	default:
		return READ_NUMBER;
	}
	if (q < 0)
		return READ_NUMBER;
	/* c == (char)0x80, c != d: both sides convert alike. */
	if (T(w, q).kind == CXCursor_BinaryOperator && op_is_equality(T(w, q).op))
		return spelled_as_char(w, child(t, q, child(t, q, 0) == top ? 1 : 0))
			       ? READ_BYTES : READ_NUMBER;
	/* memset(p, c, n), strchr(s, c): converted back to a byte. */
	if (T(w, q).kind == CXCursor_CallExpr && to_char_consumer(w, q, top))
		return READ_BYTES;
	if (T(w, q).kind == CXCursor_CallExpr && (k = argument_index(t, q, top)) >= 0)
		return printed_as(w, q, k) == 'c' ? READ_BYTES : READ_NUMBER;
	return READ_NUMBER;
}

/* A constant converted to plain char at cast node i and used at once,
 * not stored: c == (char)0xff, memset(p, (char)0x80, n).  1 when that
 * use reads it as a byte, the same either way. */
int used_as_byte(struct walk *w, int i)
{
	int top = climb_implicit(&w->t, i), q = T(w, top).parent;

	if (q < 0)
		return 0;
	switch (T(w, q).kind) {
	case CXCursor_VarDecl:
	case CXCursor_ReturnStmt:
	case CXCursor_InitListExpr:
	case CXCursor_CompoundAssignOperator:
		return 0;		/* stored: judged at the storage's reads */
	case CXCursor_BinaryOperator:
		if (T(w, q).op == OP_ASSIGN)
			return 0;
		break;
	default:
		break;
	}
	return value_read(w, i) == READ_BYTES;
}

/* How node i, a reference to char storage var, reads it. */
static enum read_kind read_kind(struct walk *w, CXCursor var, int i)
{
	const struct tree *t = &w->t;
	int top, p;

	if (!is_char_array(clang_getCursorType(T(w, i).cur)) && !param_buffer(var) &&
	    !pointer_field(var) && !open_param(var) && !local_pointer(w, var))
		return element_read(w, var, i);
	top = climb_implicit(t, i);
	p = T(w, top).parent;
	if (p >= 0 && T(w, p).kind == CXCursor_ArraySubscriptExpr && child(t, p, 0) == top)
		return element_read(w, var, p);
	return pointer_read(w, var, top);
}

/* Does arg give a buffer parameter memory whose reads are seen (an
 * array of this TU, or another such parameter), or memory read as
 * unsigned or signed char whatever char is? */
static int seen_argument(struct walk *w, int arg)
{
	int a = strip_implicit(&w->t, arg);

	/* (char *)raw: the memory is raw's */
	while (a >= 0 && T(w, a).kind == CXCursor_CStyleCastExpr && T(w, a).type.cls == T_PTR)
		a = strip_implicit(&w->t, cast_operand(&w->t, a));
	if (a < 0)
		return 0;
	if (T(w, a).kind == CXCursor_DeclRefExpr || T(w, a).kind == CXCursor_MemberRefExpr) {
		CXCursor var = clang_getCursorReferenced(T(w, a).cur);

		if ((storage_of_tu(var) && is_char_array(clang_getCursorType(var))) ||
		    param_buffer(var) || open_param(var) || local_pointer(w, var))
			return 1;
	}
	return byte_memory(w, a);
}

/* A call of a static function: its buffer parameters given memory
 * this TU does not see the reads of.  Of another: what it is given for
 * a char * (xbuffers.c). */
static void note_call_arguments(struct walk *w, int call)
{
	CXCursor callee = clang_getCursorReferenced(T(w, call).cur);
	CXCursor def = static_body(callee);
	int n = clang_Cursor_getNumArguments(T(w, call).cur);

	if (clang_Cursor_isNull(def)) {
		note_open_call(w, call, callee);
		return;
	}
	for (int k = 0; k < n; k++) {
		CXCursor param = buffer_parameter(def, k);

		if (!clang_Cursor_isNull(param) && !seen_argument(w, child(&w->t, call, k + 1)))
			reads_of(w, param)->opaque_args++;
	}
}

/* A char * field read as a number at node i, with the entries it can
 * see (tags.c). */
static void note_number_read(struct walk *w, CXCursor var, int i)
{
	struct number_read *r;

	grow(&w->nread, &w->nreadcap, w->nnread + 1, sizeof(*w->nread));
	r = &w->nread[w->nnread++];
	r->var = var;
	read_tag_guard(w, i, &r->guard);
}

void note_store_reads(struct walk *w)
{
	const struct tree *t = &w->t;

	for (int i = 0; i < t->len; i++) {
		CXCursor var;

		if (t->n[i].kind == CXCursor_CallExpr)
			note_call_arguments(w, i);
		if (t->n[i].kind != CXCursor_DeclRefExpr && t->n[i].kind != CXCursor_MemberRefExpr)
			continue;
		var = clang_getCursorReferenced(t->n[i].cur);
		if (clang_getCursorKind(var) == CXCursor_FunctionDecl && !is_callee(t, i))
			note_open_address(w, var);
		if (open_field(var)) {
			size_t links = w->nslink;
			enum read_kind k = read_kind(w, clang_getCanonicalCursor(var), i);

			/* handed to a static function: read there, unseen by
			 * the join (a number, to be safe) */
			if (k != READ_NONE || w->nslink > links)
				note_header_field_read(w, var, k == READ_BYTES);
		}
		if (!storage_of_tu(var) && !param_buffer(var) && !open_param(var) &&
		    !local_pointer(w, var))
			continue;
		var = clang_getCanonicalCursor(var);
		switch (read_kind(w, var, i)) {
		case READ_BYTES:
			reads_of(w, var)->byte_reads++;
			break;
		case READ_OPEN:
			reads_of(w, var)->open_passes++;
			/* fall through */
		case READ_NUMBER:
			reads_of(w, var)->number_reads++;
			if (pointer_field(var))
				note_number_read(w, var, i);
			break;
		default:
			break;
		}
	}
}

void note_store_finding(struct walk *w, CXCursor var, size_t finding, const char *expr,
			const struct tag *tags, int ntags)
{
	struct store_finding *sf;

	if (clang_Cursor_isNull(var) ||
	    (!storage_of_tu(var) && !param_buffer(var) && !open_param(var) && !open_field(var) &&
	     !local_pointer(w, var)))
		return;
	grow(&w->sfind, &w->sfindcap, w->nsfind + 1, sizeof(*w->sfind));
	sf = &w->sfind[w->nsfind++];
	*sf = (struct store_finding){ clang_getCanonicalCursor(var), finding, xstrdup(expr),
				      { { clang_getNullCursor(), 0 } }, 0 };
	for (int k = 0; k < ntags && k < MAX_TAGS; k++)
		sf->tags[sf->ntags++] = tags[k];
}

#define MAX_LINKS 8		/* buffers passed on, nested */
#define MAX_REACHED 64		/* storage reached through links, at most */

/* The storage reached so far: each is asked once (aliases link both
 * ways, and a circle of them adds no read). */
struct reached {
	CXCursor v[MAX_REACHED];
	int n;
};

static int own_bytes_on(struct walk *w, CXCursor var, struct reached *r, int depth)
{
	for (int i = 0; i < r->n; i++)
		if (clang_equalCursors(r->v[i], var))
			return 1;
	if (depth > MAX_LINKS || r->n == MAX_REACHED || reads_of(w, var)->number_reads)
		return 0;
	r->v[r->n++] = var;
	for (size_t k = 0; k < w->nslink; k++)
		if (clang_equalCursors(w->slink[k].from, var) &&
		    !own_bytes_on(w, w->slink[k].to, r, depth + 1))
			return 0;
	return 1;
}

/* Is var read only as bytes, here, through its aliases and in the
 * bodies of the static functions it is passed to? */
static int own_bytes(struct walk *w, CXCursor var, int depth)
{
	struct reached r = { .n = 0 };

	return own_bytes_on(w, var, &r, depth);
}

/* An open parameter on the way: its body's reads are bytes, and the
 * store rests on its callers' (one such parameter per store). */
static int open_bytes(struct walk *w, CXCursor param, int depth)
{
	if (address_taken(w, clang_getCursorSemanticParent(param)) || !own_bytes(w, param, depth) ||
	    (w->nxdep && !clang_equalCursors(w->xdep, param)))
		return 0;
	w->xdep = param;
	w->nxdep = 1;
	return 1;
}

/* Is all memory a buffer parameter points at read only as bytes: its
 * body's reads, and those of every array the calls pass it? */
static int param_bytes(struct walk *w, CXCursor param, int depth)
{
	if (depth > MAX_LINKS || reads_of(w, param)->opaque_args ||
	    address_taken(w, clang_getCursorSemanticParent(param)) ||
	    !own_bytes(w, param, depth))
		return 0;
	for (size_t k = 0; k < w->nslink; k++) {
		CXCursor from = w->slink[k].from;

		if (!clang_equalCursors(w->slink[k].to, param))
			continue;
		if (param_buffer(from) ? !param_bytes(w, from, depth + 1) :
		    open_param(from) ? !open_bytes(w, from, depth + 1) :
		    !own_bytes(w, from, depth + 1))
			return 0;
	}
	return 1;
}

static int has_links(const struct walk *w, CXCursor var)
{
	for (size_t k = 0; k < w->nslink; k++)
		if (clang_equalCursors(w->slink[k].from, var))
			return 1;
	return 0;
}

/* Storage never read keeps its finding: nothing shows it bytes. */
static int read_as_bytes(struct walk *w, CXCursor var)
{
	if (param_buffer(var))
		return param_bytes(w, var, 0);
	if (open_param(var))
		return open_bytes(w, var, 0);
	return (reads_of(w, var)->byte_reads || has_links(w, var)) && own_bytes(w, var, 0);
}

int bytes_but_passed(struct walk *w, CXCursor var)
{
	struct store_reads *r = reads_of(w, var);

	for (size_t k = 0; k < w->nslink; k++)
		if (clang_equalCursors(w->slink[k].from, var) && !own_bytes(w, w->slink[k].to, 1))
			return 0;
	return r->open_passes == 1 && r->number_reads == 1 &&
	       (r->byte_reads || has_links(w, var));
}

/* The reads as a number that can see the store: its storage's, or, for
 * a tagged entry, those of its field that can see that entry (none
 * under `case DCS:` for a store of a DELAY entry). */
static unsigned number_reads(struct walk *w, const struct store_finding *sf)
{
	unsigned n = 0;

	if (!sf->ntags || !pointer_field(sf->var))
		return reads_of(w, sf->var)->number_reads;
	for (size_t k = 0; k < w->nnread; k++)
		if (clang_equalCursors(w->nread[k].var, sf->var) &&
		    guard_sees(&w->nread[k].guard, sf->tags, sf->ntags))
			n++;
	return n;
}

/* Is the stored byte read only as bytes, given its number reads? */
static int store_read_as_bytes(struct walk *w, const struct store_finding *sf,
			       unsigned numbers)
{
	if (!sf->ntags || !pointer_field(sf->var))
		return read_as_bytes(w, sf->var);
	if (numbers)
		return 0;
	for (size_t k = 0; k < w->nslink; k++)
		if (clang_equalCursors(w->slink[k].from, sf->var) &&
		    !own_bytes(w, w->slink[k].to, 1))
			return 0;
	/* never read at all keeps the finding, as for any storage */
	return reads_of(w, sf->var)->byte_reads || has_links(w, sf->var);
}

/* Read back as a number here: the stored byte provably reaches a use
 * where its sign counts. */
static void read_as_number(struct finding *f)
{
	free(f->origin);
	f->confidence = CONF_HIGH;
	f->origin = xstrdup("a constant outside 0..127 is stored and read back as a number "
			    "in this file");
}

void drop_byte_stores(struct walk *w, unsigned char *drop)
{
	for (size_t s = 0; s < w->nsfind; s++) {
		const struct store_finding *sf = &w->sfind[s];
		unsigned numbers;
		int bytes;

		if (open_field(sf->var)) {	/* read in every TU: the join's */
			if (sf->finding < w->out->len)
				note_kept_store(w, sf->finding, sf->var, sf->expr);
			free(sf->expr);
			continue;
		}
		w->nxdep = 0;
		numbers = number_reads(w, sf);
		bytes = store_read_as_bytes(w, sf, numbers);
		if (sf->finding < w->out->len && (!bytes || w->nxdep))
			note_kept_store(w, sf->finding, bytes ? w->xdep : clang_getNullCursor(),
					sf->expr);
		if (sf->finding < w->out->len && !bytes && numbers)
			read_as_number(&w->out->v[sf->finding]);
		else if (sf->finding < w->out->len && bytes && !w->nxdep) {
			if (w->opts->explain)
				finding_make_pass(&w->out->v[sf->finding],
						  xasprintf("'%s': %s", sf->expr,
							    verdict_text(V_READ_AS_BYTES)));
			else
				drop[sf->finding] = 1;
		}
		free(sf->expr);
	}
	note_open_args(w);
	free(w->localp);
	free(w->sread);
	free(w->sfind);
	free(w->slink);
	free(w->nread);
}
