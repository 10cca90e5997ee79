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
 * linkage, or a field of a struct the main file defines.  A CS004
 * finding on a store into one is dropped (a pass with --explain) once
 * the whole TU has been seen and every read was a byte's.  Anything
 * else (a number, an address kept, a char * handed to an unknown
 * function, memory through a pointer parameter, a global other TUs may
 * read, storage never read) keeps the finding.
 */
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

enum read_kind { READ_NONE, READ_BYTES, READ_NUMBER };

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

/* Storage whose every read this TU sees. */
static int storage_of_tu(CXCursor c)
{
	enum CXLinkageKind l;
	CXCursor record;

	if (clang_Cursor_isNull(c) || !is_char_storage(c))
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

static struct store_reads *reads_of(struct walk *w, CXCursor var)
{
	for (size_t k = 0; k < w->nsread; k++)
		if (clang_equalCursors(w->sread[k].var, var))
			return &w->sread[k];
	grow(&w->sread, &w->sreadcap, w->nsread + 1, sizeof(*w->sread));
	w->sread[w->nsread] = (struct store_reads){ var, 0, 0 };
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

/* A pointer to the bytes passed as argument k of call. */
static enum read_kind passed_pointer(struct walk *w, int call, int k)
{
	CXCursor callee = clang_getCursorReferenced(T(w, call).cur);
	CXType pt, pointee;

	if (clang_Cursor_isNull(callee) || k < 0)
		return READ_NUMBER;
	if (k >= clang_Cursor_getNumArguments(callee))
		return printed_as(w, call, k) == 's' ? READ_BYTES : READ_NUMBER;
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

/* The bytes' address at top (an array decayed, &a[i]): used how? */
static enum read_kind pointer_read(struct walk *w, int top)
{
	int p = T(w, top).parent;
	enum CXTypeKind pointee;

	if (p < 0)
		return READ_NUMBER;
	if (T(w, p).kind == CXCursor_CallExpr)
		return passed_pointer(w, p, argument_index(&w->t, p, top));
	if (T(w, p).kind != CXCursor_CStyleCastExpr)
		return READ_NUMBER;
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

/* A read of one char of the storage (the variable, or an element). */
static enum read_kind element_read(struct walk *w, int e)
{
	const struct tree *t = &w->t;
	int p = up(t, e), top, q, k;

	if (p >= 0 && T(w, p).kind == CXCursor_BinaryOperator && T(w, p).op == OP_ASSIGN &&
	    strip_parens(t, child(t, p, 0)) == e)
		return READ_NONE;		/* written */
	if (p >= 0 && T(w, p).kind == CXCursor_UnaryOperator && T(w, p).op == OP_ADDR)
		return pointer_read(w, climb_implicit(t, p));
	top = climb_implicit(t, e);
	q = T(w, top).parent;
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
	if (T(w, q).kind == CXCursor_CallExpr && (k = argument_index(t, q, top)) >= 0)
		return printed_as(w, q, k) == 'c' ? READ_BYTES : READ_NUMBER;
	return READ_NUMBER;
}

/* How node i, a reference to char storage, reads it. */
static enum read_kind read_kind(struct walk *w, int i)
{
	const struct tree *t = &w->t;
	int top, p;

	if (!is_char_array(clang_getCursorType(T(w, i).cur)))
		return element_read(w, i);
	top = climb_implicit(t, i);
	p = T(w, top).parent;
	if (p >= 0 && T(w, p).kind == CXCursor_ArraySubscriptExpr && child(t, p, 0) == top)
		return element_read(w, p);
	return pointer_read(w, top);
}

void note_store_reads(struct walk *w)
{
	const struct tree *t = &w->t;

	for (int i = 0; i < t->len; i++) {
		CXCursor var;
		struct store_reads *r;

		if (t->n[i].kind != CXCursor_DeclRefExpr && t->n[i].kind != CXCursor_MemberRefExpr)
			continue;
		var = clang_getCursorReferenced(t->n[i].cur);
		if (!storage_of_tu(var))
			continue;
		r = reads_of(w, clang_getCanonicalCursor(var));
		switch (read_kind(w, i)) {
		case READ_BYTES:
			r->byte_reads++;
			break;
		case READ_NUMBER:
			r->number_reads++;
			break;
		default:
			break;
		}
	}
}

void note_store_finding(struct walk *w, CXCursor var, size_t finding, const char *expr)
{
	if (!storage_of_tu(var))
		return;
	grow(&w->sfind, &w->sfindcap, w->nsfind + 1, sizeof(*w->sfind));
	w->sfind[w->nsfind++] = (struct store_finding){ clang_getCanonicalCursor(var), finding,
							xstrdup(expr) };
}

void drop_byte_stores(struct walk *w, unsigned char *drop)
{
	for (size_t s = 0; s < w->nsfind; s++) {
		const struct store_finding *sf = &w->sfind[s];
		const struct store_reads *r = reads_of(w, sf->var);

		if (r->byte_reads && !r->number_reads && sf->finding < w->out->len) {
			if (w->opts->explain)
				finding_make_pass(&w->out->v[sf->finding],
						  xasprintf("'%s': %s", sf->expr,
							    verdict_text(V_READ_AS_BYTES)));
			else
				drop[sf->finding] = 1;
		}
		free(sf->expr);
	}
	free(w->sread);
	free(w->sfind);
}
