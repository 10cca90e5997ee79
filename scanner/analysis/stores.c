/*
 * Where a char value leaves the expression: stored, returned or passed
 * (a wider unsigned type shows the sign extension, CS006; a wider signed
 * one carries it away, CS010, unless the callee's body is here to judge
 * it), and constants outside 0..127 stored into plain char (CS004).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

/* The local integer variable o is stored into (a carrier: judged
 * where it is read), or -1. */
static int local_carrier(struct walk *w, const struct occ *o)
{
	const struct node *c = &T(w, o->ctx);

	if (c->kind == CXCursor_VarDecl)
		return find_carrier(w, c->cur);
	if (c->kind == CXCursor_BinaryOperator && c->op == OP_ASSIGN)
		return referenced_carrier(w, child(&w->t, o->ctx, 0));
	return -1;
}

/* Functions that take a char in an int and convert it back to a char
 * before they look at it, and which argument that is: passing a widened
 * char there is harmless (as memset's length it is not). */
static const struct {
	const char *name;
	int arg;
} char_consumers[] = {
	{ "strchr", 1 }, { "strrchr", 1 }, { "strchrnul", 1 }, { "strnchr", 2 },
	{ "strnchrnul", 2 }, { "memchr", 1 }, { "memrchr", 1 }, { "memscan", 1 },
	{ "memset", 1 }, { "putchar", 0 }, { "putc", 0 }, { "fputc", 0 },
	{ "putc_unlocked", 0 }, { "fputc_unlocked", 0 }, { "__builtin_memset", 1 },
	{ "__builtin_strchr", 1 }, { "__builtin_memchr", 1 },
};

int to_char_consumer(const struct walk *w, int call, int arg)
{
	CXString s = clang_getCursorSpelling(T(w, call).cur);
	const char *name = clang_getCString(s);
	int k = argument_index(&w->t, call, arg), yes = 0;

	for (size_t i = 0; !yes && k >= 0 && i < sizeof(char_consumers) / sizeof(char_consumers[0]); i++)
		yes = !strcmp(name, char_consumers[i].name) && char_consumers[i].arg == k;
	clang_disposeString(s);
	return yes;
}

/* A store into something other than a local variable: a field, a
 * global, an element or what a pointer points at. */
static int stores_outside(struct walk *w, const struct occ *o)
{
	int lhs = strip_parens(&w->t, child(&w->t, o->ctx, 0));
	CXCursor d;

	if (T(w, o->ctx).kind != CXCursor_BinaryOperator || T(w, o->ctx).op != OP_ASSIGN ||
	    lhs < 0)
		return 0;
	if (T(w, lhs).kind != CXCursor_DeclRefExpr)
		return 1;
	d = clang_getCursorReferenced(T(w, lhs).cur);
	return clang_getCursorKind(d) == CXCursor_VarDecl &&
	       clang_Cursor_hasVarDeclGlobalStorage(d);
}

/*
 * The string literal an argument is (through conversions), as written
 * with its escapes, or NULL.  libclang spells a literal whole, adjacent
 * pieces joined ("\0016" "%02x" from KERN_INFO "%02x"); escapes do
 * not hide a conversion (nobody writes \045 for '%').
 */
char *literal_text(CXCursor arg)
{
	for (int depth = 0; depth < 4 && !clang_Cursor_isNull(arg); depth++) {
		if (clang_getCursorKind(arg) == CXCursor_StringLiteral) {
			CXString sp = clang_getCursorSpelling(arg);
			const char *q = strchr(clang_getCString(sp), '"');
			char *s = q ? xstrdup(q + 1) : NULL;

			clang_disposeString(sp);
			return s;
		}
		arg = cursor_first_child(arg);
	}
	return NULL;
}

/*
 * A char passed to a printf-like function (a variadic one whose last
 * named parameter is given a string literal): judged by the conversion
 * that prints it.  %c prints the byte; %hhx the same number either way;
 * %d, %x, %u print -23 / ffffffe9 for byte 0xe9 when char is signed.
 * 1 when judged.
 */
static int check_printed(struct walk *w, struct occ *o, CXCursor callee, const char *name)
{
	CXCursor call = T(w, o->ctx).cur;
	int named = clang_Cursor_getNumArguments(callee), n = clang_Cursor_getNumArguments(call), k;
	struct conversion conv;
	char *fmt, *what, ps[40], pu[40];
	int b;

	if (clang_Cursor_isNull(callee) || !clang_Cursor_isVariadic(callee) || named < 1)
		return 0;
	k = argument_index(&w->t, o->ctx, o->top);
	if (k < named || k >= n || !(fmt = literal_text(clang_Cursor_getArgument(call, named - 1))))
		return 0;
	if (!format_conversion(fmt, (unsigned)(k - named), &conv)) {
		free(fmt);
		return 0;
	}
	free(fmt);
	if (conv.conv == 'c') {
		harmless(o, V_PRINTED_AS_CHAR, o->top);
		return 1;
	}
	for (b = 128; b < 256; b++) {
		if (!format_int(&conv, (long long)o->d.s[b], ps, sizeof(ps)) ||
		    !format_int(&conv, (long long)o->d.u[b], pu, sizeof(pu)))
			return 0;	/* %s, %ld...: not an int's conversion */
		if (strcmp(ps, pu))
			break;
	}
	if (b == 256) {
		harmless(o, V_PRINTED_SAME, o->top);
		return 1;
	}
	what = value_name(w, o);
	judge(w, &(struct verdict){ .id = V_PRINTED, .br = BREAKS_SIGNED,
				    .at = at_value(w, o, o->top), .value = what, .callee = name,
				    .type = conv.spec, .byte = b, .printed_s = ps, .printed_u = pu });
	free(what);
	return 1;
}

/* A widened char (or value d computed from one) at node passed to a
 * function with no body here: where, for the TU that has the body
 * (summary.h). */
static void note_passed(struct walk *w, int node, const char *callee, int k,
			const struct domain *d)
{
	struct xrec *x;
	struct loc l;
	CXCursor macro;

	if (!w->xout || k < 0 || cursor_region(w->tu, T(w, node).cur, &l, &macro))
		return;
	x = xrecs_add(w->xout, X_ARG, callee);
	x->arg = (unsigned)k;
	x->text = xstrdup(w->function);
	x->loc = l;
	if (d) {
		x->d = xmalloc(sizeof(*d));
		*x->d = *d;
	}
}

/* The parameter of a bodiless callee that a non-variadic argument at
 * node is passed to (a body in another TU may judge it), or -1. */
static int bodiless_parameter(struct walk *w, int call, int node)
{
	CXCursor callee = clang_getCursorReferenced(T(w, call).cur);
	int k;

	if (clang_Cursor_isNull(callee) || !clang_Cursor_isNull(clang_getCursorDefinition(callee)))
		return -1;
	k = argument_index(&w->t, call, node);
	return k >= 0 && k < clang_Cursor_getNumArguments(callee) ? k : -1;
}

/* A callee walked for one call here: what it returns goes back to that
 * call, which is walked again with it. */
static int returns_to_its_call(struct walk *w)
{
	return w->seed && !clang_Cursor_isNull(w->seed->call);
}

/* The function walked has internal linkage: unless its address is
 * taken (settle_static_returns), its callers are all in this TU and are
 * walked again with what it returns. */
static int static_function(struct walk *w)
{
	return !w->seed && clang_getCursorLinkage(w->t.n[0].cur) == CXLinkage_Internal;
}

/* --explain: the pass for such a return, kept if the callers are all
 * here; its index in walk.out, or SIZE_MAX. */
static size_t explained_return(struct walk *w, struct occ *o)
{
	size_t at = w->out->len;

	if (!w->opts->explain)
		return SIZE_MAX;
	report_pass(w, V_RETURNED_FOLLOWED, o->top);
	return w->out->len > at ? at : SIZE_MAX;
}

/*
 * A sentinel returned next to the char: a negative constant (EOF,
 * -ENOSYS) the function returns elsewhere, or writes into the local it
 * returns.  Where one byte of the value comes back as that constant
 * under one signedness only (byte 0xff as EOF when char is signed), the
 * callers take a byte for the sentinel.
 */
struct sentinel {
	int node;		/* the constant */
	long long k;
	int byte;		/* the first byte that comes back as k */
};

/* Does constant node i collide with value d under one signedness? */
static int collides(const struct tree *t, int i, const struct domain *d, struct ctype type,
		    struct sentinel *s)
{
	long long k;
	val_t kk;

	i = strip_parens(t, i);
	if (i < 0 || !eval_const(t, i, &k) || k >= 0)
		return 0;
	kk = convert(k, type);
	for (int b = 0; b < 256; b++)
		if ((d->s[b] == kk) != (d->u[b] == kk)) {
			*s = (struct sentinel){ i, k, b };
			return 1;
		}
	return 0;
}

/* A return's value, or either arm of the ?: it is. */
static int returns_sentinel(const struct tree *t, int ret, const struct domain *d,
			    struct ctype type, struct sentinel *s)
{
	int e = strip_parens(t, last_expr_child(t, ret));

	if (e >= 0 && t->n[e].kind == CXCursor_ConditionalOperator)
		return collides(t, child(t, e, 1), d, type, s) ||
		       collides(t, child(t, e, 2), d, type, s);
	return e >= 0 && collides(t, e, d, type, s);
}

static int find_sentinel(struct walk *w, const struct occ *o, struct sentinel *s)
{
	const struct tree *t = &w->t;
	struct ctype type = T(w, o->top).type;

	if (type.cls != T_INT || !type.is_signed || returns_to_its_call(w))
		return 0;
	for (int i = 0; i < t->len; i++)
		if (t->n[i].kind == CXCursor_ReturnStmt && returns_sentinel(t, i, &o->d, type, s))
			return 1;
	for (size_t k = 0; o->carrier >= 0 && k < w->nwr; k++) {
		const struct write *wr = &w->wr[k];

		if (wr->plain && wr->value >= 0 &&
		    clang_equalCursors(w->car[wr->car].decl, w->car[o->carrier].decl) &&
		    collides(t, wr->value, &o->d, type, s))
			return 1;
	}
	return 0;
}

/* The first byte whose value differs, or -1. */
static int first_differing(const struct domain *d)
{
	for (int b = 0; b < 256; b++)
		if (d->s[b] != d->u[b])
			return b;
	return -1;
}

/* Fill v for a value returned next to sentinel s (its texts to free). */
static void sentinel_verdict(struct walk *w, const struct occ *o, const struct sentinel *s,
			     struct verdict *v)
{
	v->id = V_RETURNED_AS_SENTINEL;
	v->br = o->d.s[s->byte] == convert(s->k, T(w, o->top).type) ? BREAKS_SIGNED
								    : BREAKS_UNSIGNED;
	v->byte = s->byte;
	v->vs = o->d.s[s->byte];
	v->vu = o->d.u[s->byte];
	v->k = s->k;
	v->expr = node_text(w, o->top);
	v->other = node_text(w, s->node);
}

/* The value leaves the function as a signed int: returned, stored
 * outside, passed to a function we cannot see into or to assembly. */
static void check_escape(struct walk *w, struct occ *o)
{
	const struct node *c = &T(w, o->ctx);
	CXString ts = clang_getTypeSpelling(clang_getCursorType(T(w, o->top).cur));
	struct verdict v = { .id = NR_VERDICTS, .br = BREAKS_EITHER, .type = clang_getCString(ts) };
	char *what = NULL, *lhs = NULL, *name = NULL, *expr = NULL;
	struct sentinel s;
	int arg = -1;

	/* A callee that takes it back as a char gets the same byte,
	 * whatever tested it before. */
	if (c->kind == CXCursor_CallExpr && to_char_consumer(w, o->ctx, o->top))
		harmless(o, V_CHAR_CONSUMER, o->top);
	/* Returned next to a sentinel it can be taken for: whatever
	 * tested it, the callers' test of the sentinel is what differs. */
	else if (c->kind == CXCursor_ReturnStmt && judging_guard(w, o) < 0 &&
		 find_sentinel(w, o, &s)) {
		record_return(w, o);
		sentinel_verdict(w, o, &s, &v);
		expr = (char *)v.expr;
		lhs = (char *)v.other;
	}
	/* Tested on its way out: judged at the test (CS001/CS002/CS003). */
	else if (tested_guard(w, o) >= 0)
		harmless(o, V_TESTED_BEFORE, o->top);
	else if (c->kind == CXCursor_ReturnStmt) {
		/* Callers here are walked again with it (a parameter's
		 * value goes back only to the call that passed it). */
		record_return(w, o);
		if (returns_to_its_call(w))
			harmless(o, V_RETURNED_FOLLOWED, o->top);
		else
			v.id = V_ESCAPES_RETURNED;
	} else if (stores_outside(w, o)) {
		lhs = node_text(w, child(&w->t, o->ctx, 0));
		/* Its reads in this TU are walked again with it. */
		record_field(w, o, strip_parens(&w->t, child(&w->t, o->ctx, 0)));
		v.id = V_ESCAPES_STORED;
	} else if (c->kind == CXCursor_GCCAsmStmt) {
		/* An input operand: the instructions see the whole register
		 * (put_user()'s int into user memory).  Its type is often a
		 * macro's typeof(): say what it is. */
		clang_disposeString(ts);
		ts = clang_getTypeSpelling(clang_getCanonicalType(
			clang_getCursorType(T(w, o->top).cur)));
		v.type = clang_getCString(ts);
		v.id = V_ESCAPES_ASM;
	} else if (c->kind == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c->cur);
		CXString s = clang_getCursorSpelling(c->cur);

		name = xstrdup(clang_getCString(s));
		clang_disposeString(s);
		if (check_printed(w, o, callee, name))
			;
		/* A body in this TU: judged there; a variadic call
		 * without a literal format: left to what reads it. */
		else if (follow_into(w, o->ctx, o->top, NULL))
			harmless(o, V_FOLLOWED, o->top);
		else if (!clang_Cursor_isNull(callee) &&
			 clang_Cursor_isNull(clang_getCursorDefinition(callee)) &&
			 !clang_Cursor_isVariadic(callee)) {
			/* Another TU has the body: judged there. */
			arg = argument_index(&w->t, o->ctx, o->top);
			if (xtu_resolved(w->xin, name, (unsigned)arg))
				harmless(o, V_FOLLOWED, o->top);
			else
				v.id = V_ESCAPES_PASSED;
		}
	}
	if (v.id != NR_VERDICTS) {
		size_t before = w->out->len;

		v.at = at_value(w, o, o->top);
		v.value = what = value_name(w, o);
		v.other = lhs;
		v.callee = name;
		judge(w, &v);
		if ((v.id == V_ESCAPES_RETURNED || v.id == V_RETURNED_AS_SENTINEL) &&
		    static_function(w))
			note_static_return(w, w->out->len > before ? before : SIZE_MAX,
					   explained_return(w, o));
		if (v.id == V_ESCAPES_PASSED)
			note_passed(w, v.at.node, name, arg, NULL);
	}
	clang_disposeString(ts);
	free(what);
	free(lhs);
	free(name);
	free(expr);
}

/*
 * A value computed from a char and returned as a wider signed int
 * leaves as the char does (hub.c's return info->nports + 1, next to
 * return -ENOSYS): a CS010 note, unless tested on its way out, or
 * followed to the callers here.  1 when judged.
 */
static int escape_derived(struct walk *w, struct occ *o)
{
	struct ctype type = T(w, o->top).type;
	CXString ts;
	struct verdict v = { .id = V_DERIVED_RETURNED, .br = BREAKS_EITHER };
	struct sentinel s;
	char *what;
	size_t before = w->out->len;
	int b = first_differing(&o->d);

	if (type.cls != T_INT || !type.is_signed || type.bits <= 8 || b < 0)
		return 0;
	if (judging_guard(w, o) < 0 && find_sentinel(w, o, &s)) {
		sentinel_verdict(w, o, &s, &v);
	} else if (tested_guard(w, o) >= 0) {
		harmless(o, V_TESTED_BEFORE, o->top);
		return 1;
	} else {
		v.byte = b;
		v.vs = o->d.s[b];
		v.vu = o->d.u[b];
		v.expr = node_text(w, o->top);
	}
	ts = clang_getTypeSpelling(clang_getCursorType(T(w, o->top).cur));
	v.type = clang_getCString(ts);
	v.at = at_value(w, o, o->top);
	v.value = what = value_name(w, o);
	judge(w, &v);
	if (static_function(w))
		note_static_return(w, w->out->len > before ? before : SIZE_MAX,
				   explained_return(w, o));
	clang_disposeString(ts);
	free(what);
	free((char *)v.expr);
	free((char *)v.other);
	return 1;
}

/* Into another TU's body: judged there once the records are joined. */
static void pass_on_to_tu(struct walk *w, struct occ *o, int k)
{
	CXString s = clang_getCursorSpelling(T(w, o->ctx).cur);
	const char *name = clang_getCString(s);

	if (xtu_resolved(w->xin, name, (unsigned)k))
		harmless(o, V_FOLLOWED, o->top);
	else
		note_passed(w, o->top, name, k, &o->d);
	clang_disposeString(s);
}

/*
 * A value computed from a char (c - '0', c | 0x20) is judged only where
 * it is tested: stored, indexed or added up it is most often
 * range-checked first.  So it is followed on, as a char is, to where it
 * is tested: in the variable it is kept in, in the callee's body (here,
 * or in another TU through the records), in the callers here of a
 * function no other TU can call, and in the reads here of the field or
 * global it is stored into.
 */
void pass_on_derived(struct walk *w, struct occ *o)
{
	const struct node *c = &T(w, o->ctx);
	int k;

	if (c->kind == CXCursor_BinaryOperator && is_lhs(w, o))
		return;
	if ((k = local_carrier(w, o)) >= 0) {
		if (!w->car[k].bad)
			harmless(o, V_KEPT_IN_LOCAL, o->top);
	} else if (c->kind == CXCursor_ReturnStmt) {
		record_return(w, o);
		if (returns_to_its_call(w))
			harmless(o, V_RETURNED_FOLLOWED, o->top);
		else if (escape_derived(w, o))
			;
		else if (static_function(w))
			note_static_return(w, SIZE_MAX, explained_return(w, o));
	} else if (stores_outside(w, o)) {
		record_field(w, o, strip_parens(&w->t, child(&w->t, o->ctx, 0)));
	} else if (c->kind == CXCursor_CallExpr) {
		if (follow_into(w, o->ctx, o->top, &o->d))
			harmless(o, V_FOLLOWED, o->top);
		else if ((k = bodiless_parameter(w, o->ctx, o->top)) >= 0)
			pass_on_to_tu(w, o, k);
	}
}

/* Stored, passed or returned: a wider unsigned type shows the sign
 * extension at once (CS006); a wider signed one carries it away (CS010). */
void check_store(struct walk *w, struct occ *o)
{
	struct ctype t = T(w, o->top).type;
	CXString ts;
	int k;

	if (T(w, o->ctx).kind == CXCursor_BinaryOperator && is_lhs(w, o))
		return;
	/* A local integer variable is judged where it is read (carriers),
	 * unless it is written other values too. */
	if ((k = local_carrier(w, o)) >= 0) {
		if (!w->car[k].bad)
			harmless(o, V_KEPT_IN_LOCAL, o->top);
		return;
	}
	if (t.cls != T_INT || t.bits <= 8)
		return;
	if (t.is_signed) {
		check_escape(w, o);
		return;
	}
	/* A variable declared int was widened on purpose; its uses as
	 * unsigned under a test of it are judged at the test CS001/CS002
	 * judge (p4.c's test_bit(j, ...) after j != -1).  Untested, the
	 * extension goes on into the unsigned use (int len = buf[0];
	 * memcpy(dst, src, len)).  One declared unsigned holds the sign
	 * extension already: it shows wherever the value goes. */
	if (o->carrier >= 0 && w->car[o->carrier].type.is_signed && tested_guard(w, o) >= 0)
		return;
	ts = clang_getTypeSpelling(clang_getCursorType(T(w, o->top).cur));
	report_extension(w, o, V_EXTENDED_STORED, clang_getCString(ts), 0xff,
			 o->d.s[0xff], o->d.u[0xff]);
	clang_disposeString(ts);
}

/* ---- stores of constants into plain char ------------------------------ */

static int outer_init_list(const struct tree *t, int i)
{
	int list = -1;

	for (i = t->n[i].parent; i >= 0; i = t->n[i].parent) {
		if (t->n[i].kind == CXCursor_InitListExpr)
			list = i;
		else if (t->n[i].kind != CXCursor_ParenExpr &&
			 t->n[i].kind != CXCursor_UnexposedExpr)	/* [i] = designators */
			break;
	}
	return list;
}

/* The declaration a store at cast node i writes to, for the fix. */
static CXCursor store_target(struct walk *w, int i, int list)
{
	const struct tree *t = &w->t;
	int p = list >= 0 ? up(t, list) : up(t, i);

	if (p < 0)
		return clang_getNullCursor();
	switch (t->n[p].kind) {
	case CXCursor_VarDecl:
		return t->n[p].cur;
	case CXCursor_BinaryOperator:
		return t->n[p].op == OP_ASSIGN ? trace_storage(t, child(t, p, 0))
					       : clang_getNullCursor();
	case CXCursor_ReturnStmt:
		return t->n[0].cur;
	default:
		return clang_getNullCursor();
	}
}

/* The field of a header's struct that an initializer's constant at i
 * lands in (`.name = { 0xc3 }`): judged, as `t->name[0] = 0xc3` is, at
 * its reads in every TU.  Null for any other store. */
static CXCursor open_init_field(const struct tree *t, int i)
{
	CXCursor f = init_field(t, i);

	return !clang_Cursor_isNull(f) && open_field(f) ? f : clang_getNullCursor();
}

/* The constant at i, the first of more; field: open_init_field()'s. */
static void report_store(struct walk *w, int i, int list, long long k, int more,
			 CXCursor field)
{
	int byte = (int)(k & 0xff);
	char *text = node_text(w, i), number[32];
	CXCursor target = store_target(w, i, list);
	size_t before = w->out->len;

	snprintf(number, sizeof(number), "%lld", k);
	if (strcmp(text, number)) {
		char *both = xasprintf("'%s' (%lld)", text, k);

		free(text);
		text = both;
	}
	judge(w, &(struct verdict){ .id = V_STORE_OUT_OF_RANGE,
				    .br = k < 0 ? BREAKS_UNSIGNED : BREAKS_SIGNED,
				    .at = { i, target, -1, NULL, NULL, -1 }, .expr = text,
				    .vs = byte - 256, .vu = byte, .more = more });
	if (list >= 0 && w->out->len > before)
		note_table_store(w, target, before);
	/* Taken back if every read of the storage is a byte's. */
	if (w->out->len > before) {
		struct tag tags[MAX_TAGS];
		int ntags = clang_Cursor_isNull(target) ? entry_tags(w, list, tags, MAX_TAGS) : 0;

		if (clang_Cursor_isNull(field))
			field = clang_Cursor_isNull(target) ? literal_field(w, list) : target;
		free(text);
		text = node_text(w, i);
		note_store_finding(w, field, before, text, tags, ntags);
		note_field_use(w, before, clang_getCursorKind(target) == CXCursor_FieldDecl ?
				  target : init_field(&w->t, i), text);
	}
	free(text);
}

/* One finding per initializer, or per field a header's struct has in
 * it (each judged at its own reads): the constants of one initializer
 * gathered by field until the next initializer. */
#define MAX_GROUPS 16

struct store_group {
	int first;		/* the constant reported */
	long long k;
	int more;		/* constants after it */
	CXCursor field;		/* open_init_field()'s, or null */
};

struct pending_stores {
	int list;
	int n;
	struct store_group g[MAX_GROUPS];
};

static void report_groups(struct walk *w, struct pending_stores *p)
{
	for (int k = 0; k < p->n; k++)
		report_store(w, p->g[k].first, p->list, p->g[k].k, p->g[k].more, p->g[k].field);
	p->n = 0;
}

static void gather_store(struct walk *w, struct pending_stores *p, int i, int list, long long k)
{
	CXCursor field = list >= 0 ? open_init_field(&w->t, i) : clang_getNullCursor();

	if (list < 0 || list != p->list || p->n == MAX_GROUPS)
		report_groups(w, p);
	p->list = list;
	for (int g = 0; list >= 0 && g < p->n; g++)
		if (clang_equalCursors(p->g[g].field, field)) {
			p->g[g].more++;
			return;
		}
	p->g[p->n++] = (struct store_group){ i, k, 0, field };
}

void check_stores(struct walk *w)
{
	const struct tree *t = &w->t;
	struct pending_stores p = { .list = -1 };

	for (int i = 0; i < t->len; i++) {
		int c, inner;
		long long k;

		if (!is_cast(t, i) || t->n[i].type.cls != T_PLAIN_CHAR)
			continue;
		c = strip_parens(t, cast_operand(t, i));
		if (c < 0 || t->n[c].type.cls != T_INT || !eval_const(t, c, &k) ||
		    (k & 0xff) < 0x80)
			continue;
		inner = strip_implicit(t, c);
		if ((inner >= 0 && t->n[inner].kind == CXCursor_CharacterLiteral) ||
		    in_constant_test(t, i))
			continue;
		if (used_as_byte(w, i)) {
			if (w->opts->explain && !w->seed)
				report_pass(w, V_READ_AS_BYTES, i);
			continue;
		}
		gather_store(w, &p, i, outer_init_list(t, i), k);
	}
	report_groups(w, &p);
}
