/*
 * Guards: a condition that lets only ASCII bytes (0x00-0x7f) reach a
 * char value's use makes every observation of it the same under either
 * signedness, so the use is harmless there:
 *
 *	while (isdigit(*s))			the loop body
 *		n = n * 10 + *s++ - '0';
 *	if (c >= 'a' && c <= 'z') ...		the then branch, and && operands
 *	if (!isdigit(c) || c > '7') ...		an || operand, an else branch
 *	if (c < '0' || c > '9') return -1;	what follows an early exit
 *	if (!(c & 0x80)), if ((unsigned char)c < 0x80)
 *
 * A condition that lets bytes 0x80-0xff through under one signedness
 * only (c >= 0) makes the use differ only by whether it runs: that is
 * the test's finding (CS002), not the use's.
 *
 * A condition is evaluated for each byte, signed and unsigned, in three
 * values (false, true, unknown): comparisons with constants of the value
 * or of it cast or combined with a constant (c & 0x80), a bare test of
 * such an expression, the ASCII-only classifiers, !, && and ||.  Anything else is unknown and
 * narrows nothing.  A case of a switch on the value whose labels are all
 * ASCII, and that nothing falls into from above, is a guard too.  The
 * value is recognised by its text, with ++, -- and parentheses taken off
 * (*s++ reads what isdigit(*s) tested); a write between the test and the
 * use to a variable the text names (s++, i = ...) undoes the guard, and
 * so does one anywhere in a loop between them, unless the loop tests
 * again before each next round (do ... while (isdigit(*s))): rewrites.c.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"
#include "guard.h"

enum { NO, YES, MAYBE };

/* Classifiers whose answer is "no" for every byte above 0x7f, in the C
 * library and in the kernel's <linux/ctype.h> alike (the kernel's
 * isalpha() and friends admit Latin-1 letters, so they are not here). */
static const char *const ascii_only[] = { "isdigit", "isxdigit", "isascii", "isodigit" };

/* The condition's value for bytes 0x80-0xff, signed [0] and unsigned [1]. */
struct truth {
	unsigned char v[2][128];
};

static void set_all(struct truth *r, int x)
{
	memset(r, x, sizeof(*r));
}

/* Text of node i as written (a macro's temporary as the argument it
 * holds, toupper()'s (c) as c) without ++, -- and parentheses: the value
 * it reads (*((*s)++) reads what isdigit(**s) tested). */
char *value_key(struct walk *w, int i)
{
	char *s = operand_text(w, i), *o = s;

	for (const char *p = s; *p; p++) {
		if ((p[0] == '+' || p[0] == '-') && p[1] == p[0]) {
			p++;
			continue;
		}
		if (*p != ' ' && *p != '(' && *p != ')')
			*o++ = *p;
	}
	*o = '\0';
	return s;
}

static int is_key(struct walk *w, int i, const char *key)
{
	char *k;
	int same;

	i = strip_implicit(&w->t, i);
	if (i < 0)
		return 0;
	k = value_key(w, i);
	same = !strcmp(k, key);
	free(k);
	return same;
}

/* isdigit((unsigned char)c) tests c's byte as isdigit(c) does: a cast
 * to a char type or int in front of the argument, as written. */
static const char *const byte_casts[] = {
	"", "unsignedchar", "signedchar", "char", "u8", "__u8", "uint8_t", "int",
};

static int tests_key(struct walk *w, int arg, const char *key)
{
	const struct tree *t = &w->t;
	int inner = strip_implicit(t, arg);

	if (inner >= 0 && t->n[inner].kind == CXCursor_CStyleCastExpr &&
	    t->n[inner].type.cls >= T_PLAIN_CHAR && t->n[inner].type.cls <= T_INT &&
	    t->n[inner].type.cls != T_BOOL)
		arg = cast_operand(t, inner);
	return is_key(w, arg, key);
}

/* The same for a macro's invocation, as text: "isdigit" "u8" "c". */
static int invokes_with_key(const char *text, const char *name, const char *key)
{
	size_t n = strlen(name);

	if (strncmp(text, name, n))
		return 0;
	text += n;
	for (size_t i = 0; i < sizeof(byte_casts) / sizeof(byte_casts[0]); i++) {
		size_t c = strlen(byte_casts[i]);

		if (!strncmp(text, byte_casts[i], c) && !strcmp(text + c, key))
			return 1;
	}
	return 0;
}

static void classify_call(struct walk *w, int i, const char *key, struct truth *r)
{
	const struct tree *t = &w->t;
	char *name = NULL, *text = NULL;
	int arg = -1, known = 0;

	set_all(r, MAYBE);
	if (t->n[i].kind == CXCursor_CallExpr && nchildren(t, i) == 2) {
		CXString s = clang_getCursorSpelling(t->n[i].cur);

		name = xstrdup(clang_getCString(s));
		clang_disposeString(s);
		arg = child(t, i, 1);
		known = tests_key(w, arg, key);
	} else if ((name = macro_name(w, i, NULL))) {
		/* libc's isdigit(c) is a macro over a table: the node is
		 * inside the expansion, quoted as the invocation (its key:
		 * parentheses off, as the value's). */
		text = value_key(w, i);
		known = invokes_with_key(text, name, key);
	}
	for (size_t k = 0; known && k < sizeof(ascii_only) / sizeof(ascii_only[0]); k++)
		if (!strcmp(name, ascii_only[k]))
			set_all(r, NO);
	free(name);
	free(text);
}

/* Deeper conditions are "maybe": no guard, so nothing is hidden. */
#define MAX_COND_DEPTH 64

struct key_leaf {
	struct walk *w;
	const char *key;
};

/* The callee's one parameter: the char the call is given, converted
 * to the parameter's type. */
static int param_leaf(const struct tree *t, int i, void *arg, struct domain *d)
{
	const CXCursor *param = arg;
	struct ctype type;

	if (t->n[i].kind != CXCursor_DeclRefExpr ||
	    !clang_equalCursors(clang_getCursorReferenced(t->n[i].cur), *param))
		return -1;
	domain_char(d);
	type = classify_type(clang_getCursorType(*param));
	if (type.cls != T_PLAIN_CHAR)
		domain_convert(d, type);
	return i;
}

/* The return statement that is the whole body of the function tree ft,
 * or -1. */
static int only_return(const struct tree *ft)
{
	for (int i = 1; i < ft->len; i++)
		if (ft->n[i].kind == CXCursor_CompoundStmt && ft->n[i].parent == 0)
			return nchildren(ft, i) == 1 &&
			       ft->n[ft->n[i].first].kind == CXCursor_ReturnStmt ? ft->n[i].first : -1;
	return -1;
}

/* f(c), f a function of this TU whose body is one return of its one
 * parameter combined with constants (the kernel's _tolower(c), c |
 * 0x20): the call's value per byte. */
static int call_domain(struct walk *w, int call, const char *key, struct domain *d)
{
	struct tree ft = { 0 };
	CXCursor fn, param;
	int ret, ok;

	if (w->t.n[call].kind != CXCursor_CallExpr || nchildren(&w->t, call) != 2 ||
	    !is_key(w, child(&w->t, call, 1), key))
		return 0;
	fn = clang_getCursorDefinition(clang_getCursorReferenced(w->t.n[call].cur));
	if (clang_Cursor_isNull(fn) || clang_Cursor_getNumArguments(fn) != 1)
		return 0;
	param = clang_Cursor_getArgument(fn, 0);
	tree_build(&ft, w->t.tu, fn);
	ret = only_return(&ft);
	ok = ret >= 0 && ft.n[ret].first >= 0 &&
	     expr_domain(&ft, ft.n[ret].first, param_leaf, &param, d) >= 0;
	tree_free(&ft);
	return ok;
}

/* The guarded value itself is the leaf: the char, byte by byte; or a
 * call of a one-line function of it. */
static int key_leaf(const struct tree *t, int i, void *arg, struct domain *d)
{
	const struct key_leaf *k = arg;

	(void)t;
	if (!is_key(k->w, i, k->key))
		return call_domain(k->w, i, k->key, d) ? i : -1;
	domain_char(d);
	return i;
}

/* Expression i as a function of the value (value.h), for bytes 0x80-0xff:
 * its truth, or its comparison with a constant. */
static int eval_test(struct walk *w, int i, const char *key, struct truth *r)
{
	const struct tree *t = &w->t;
	const struct node *n = &t->n[i];
	struct key_leaf leaf = { w, key };
	struct domain d;
	long long k;

	if (n->kind == CXCursor_BinaryOperator && op_is_compare(n->op)) {
		for (int side = 0; side < 2; side++) {
			int x = child(t, i, side), y = child(t, i, !side);
			enum op op = side ? op_mirror(n->op) : n->op;

			if (x < 0 || y < 0 || !eval_const(t, y, &k) ||
			    expr_domain(t, x, key_leaf, &leaf, &d) < 0)
				continue;
			for (int b = 0; b < 128; b++) {
				r->v[0][b] = (unsigned char)eval_compare(op, d.s[b + 0x80], k);
				r->v[1][b] = (unsigned char)eval_compare(op, d.u[b + 0x80], k);
			}
			return 1;
		}
		return 0;
	}
	if (expr_domain(t, i, key_leaf, &leaf, &d) < 0)
		return 0;
	for (int b = 0; b < 128; b++) {
		r->v[0][b] = d.s[b + 0x80] != 0;
		r->v[1][b] = d.u[b + 0x80] != 0;
	}
	return 1;
}

/* The condition at node i, byte by byte. */
static void eval_cond(struct walk *w, int i, const char *key, struct truth *r, int depth)
{
	const struct tree *t = &w->t;
	const struct node *n;
	struct truth a, c;

	i = strip_implicit(t, i);
	set_all(r, MAYBE);
	if (i < 0 || depth > MAX_COND_DEPTH)
		return;
	n = &t->n[i];
	if (n->kind == CXCursor_UnaryOperator && n->op == OP_LNOT) {
		eval_cond(w, child(t, i, 0), key, &a, depth + 1);
		for (int s = 0; s < 2; s++)
			for (int b = 0; b < 128; b++)
				r->v[s][b] = a.v[s][b] == MAYBE ? MAYBE : !a.v[s][b];
	} else if (n->kind == CXCursor_BinaryOperator && (n->op == OP_LAND || n->op == OP_LOR)) {
		int dom = n->op == OP_LAND ? NO : YES;

		eval_cond(w, child(t, i, 0), key, &a, depth + 1);
		eval_cond(w, child(t, i, 1), key, &c, depth + 1);
		for (int s = 0; s < 2; s++)
			for (int b = 0; b < 128; b++)
				r->v[s][b] = a.v[s][b] == dom || c.v[s][b] == dom ? dom :
					     a.v[s][b] == MAYBE || c.v[s][b] == MAYBE ? MAYBE : !dom;
	} else if (!eval_test(w, i, key, r)) {
		set_all(r, MAYBE);
		classify_call(w, i, key, r);
	}
}

/* Does cond, taken as `want`, keep every byte 0x80-0xff out? */
static int keeps_ascii(struct walk *w, int cond, const char *key, int want)
{
	struct truth r;

	eval_cond(w, cond, key, &r, 0);
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < 128; b++)
			if (r.v[s][b] != !want)
				return 0;
	return 1;
}

int is_jump(const struct tree *t, int i)
{
	enum CXCursorKind k;

	while (i >= 0 && t->n[i].kind == CXCursor_CompoundStmt)
		i = last_child(t, i);
	if (i < 0)
		return 0;
	k = t->n[i].kind;
	return k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
	       k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt;
}

/* Does cond, taken as `want`, let bytes 0x80-0xff through under one
 * signedness at most (c >= 0: none when char is signed)? */
static int keeps_one_side(struct walk *w, int cond, const char *key, int want)
{
	struct truth r;

	eval_cond(w, cond, key, &r, 0);
	for (int b = 0; b < 128; b++)
		if (r.v[0][b] == MAYBE || r.v[1][b] == MAYBE ||
		    (r.v[0][b] == want && r.v[1][b] == want))
			return 0;
	return 1;
}

/* if (cond) jump; before `stmt` in its block: cond is false after it. */
static int early_exit_guard(struct walk *w, int block, int stmt, const char *key,
			    guard_test test)
{
	const struct tree *t = &w->t;

	for (int s = t->n[block].first; s >= 0 && s != stmt; s = t->n[s].next)
		if (t->n[s].kind == CXCursor_IfStmt && nchildren(t, s) == 2 &&
		    is_jump(t, child(t, s, 1)) && test(w, child(t, s, 0), key, 0))
			return child(t, s, 0);
	return -1;
}

/* Can control fall from statement i of a switch's body into the next? */
static int falls_through(const struct tree *t, int i)
{
	while (i >= 0 && (t->n[i].kind == CXCursor_CaseStmt || t->n[i].kind == CXCursor_DefaultStmt))
		i = child(t, i, t->n[i].kind == CXCursor_CaseStmt ? 1 : 0);
	return i >= 0 && !is_jump(t, i);
}

/*
 * Node i is the statement of case p (case 'b': case 'a': stmt is two
 * nested cases): the switch, when it is on the value, every label on the
 * way is ASCII and nothing falls in from the statement before; else -1.
 */
static int case_guard(struct walk *w, int p, int i, const char *key)
{
	const struct tree *t = &w->t;
	int top = p, block, sw, prev = -1;
	long long k;

	if (child(t, p, 1) != i)
		return -1;
	for (;; top = t->n[top].parent) {
		if (!eval_const(t, child(t, top, 0), &k) || k < 0 || k > 0x7f)
			return -1;
		if (t->n[top].parent < 0 || t->n[t->n[top].parent].kind != CXCursor_CaseStmt ||
		    child(t, t->n[top].parent, 1) != top)
			break;
	}
	block = t->n[top].parent;
	sw = block >= 0 ? t->n[block].parent : -1;
	if (sw < 0 || t->n[block].kind != CXCursor_CompoundStmt ||
	    t->n[sw].kind != CXCursor_SwitchStmt || !is_key(w, child(t, sw, 0), key))
		return -1;
	for (int c = t->n[block].first; c >= 0 && c != top; c = t->n[c].next)
		prev = c;
	return prev >= 0 && falls_through(t, prev) ? -1 : sw;
}

/* The condition that guards node i, or -1. */
static int guard_of(struct walk *w, int i, const char *key, guard_test test)
{
	const struct tree *t = &w->t;

	for (int p = t->n[i].parent; p >= 0; i = p, p = t->n[p].parent) {
		const struct node *n = &t->n[p];
		int cond = -1, want = 1, g;

		/* then: cond true; else: false; a && b: a true; a || b: a false */
		if ((n->kind == CXCursor_IfStmt || n->kind == CXCursor_ConditionalOperator) &&
		    (child(t, p, 1) == i || child(t, p, 2) == i)) {
			cond = child(t, p, 0);
			want = child(t, p, 1) == i;
		} else if (n->kind == CXCursor_WhileStmt && child(t, p, 1) == i) {
			cond = child(t, p, 0);
		} else if (n->kind == CXCursor_BinaryOperator &&
			   (n->op == OP_LAND || n->op == OP_LOR) && child(t, p, 1) == i) {
			cond = child(t, p, 0);
			want = n->op == OP_LAND;
		}
		if (cond >= 0 && test(w, cond, key, want))
			return cond;
		if (n->kind == CXCursor_CaseStmt && test == keeps_ascii &&
		    (g = case_guard(w, p, i, key)) >= 0)
			return g;
		if (n->kind == CXCursor_CompoundStmt &&
		    (g = early_exit_guard(w, p, i, key, test)) >= 0)
			return g;
	}
	return -1;
}

/* The condition (or switch) that guards use at, if nothing between them
 * writes what the key reads.  From a switch, control jumps to the case:
 * only the case's own statement lies between. */
static int unwritten_guard(struct walk *w, int at, const char *key, guard_test test)
{
	const struct tree *t = &w->t;
	int g = guard_of(w, at, key, test), from;

	if (g < 0)
		return -1;
	if (t->n[g].kind == CXCursor_SwitchStmt) {
		for (from = at; from >= 0 && t->n[from].parent != child(t, g, 1); )
			from = t->n[from].parent;
	} else {
		from = subtree_end(t, g);
	}
	return from >= 0 && !written_between(w, from, at, key) &&
	       !loop_rewrites(w, from, at, key, test) ? g : -1;
}

/* Is carrier k's assignment of the char its only write of anything but
 * a constant (depth = fmt[1] - '0' under case '2', depth = 1 else)? */
static int only_char_write(const struct walk *w, int k)
{
	long long ignored;

	for (size_t n = 0; n < w->nwr; n++)
		if (w->wr[n].car == k && w->wr[n].at != w->car[k].assign &&
		    !(w->wr[n].plain && w->wr[n].value >= 0 &&
		      eval_const(&w->t, w->wr[n].value, &ignored)))
			return 0;
	return w->car[k].assign >= 0;
}

/* The guard of o's observation by test, on the char read or its
 * carrier; or, for a carrier, on the char where it was stored. */
static int guard_of_value(struct walk *w, const struct occ *o, guard_test test)
{
	int at = o->ctx >= 0 ? o->ctx : o->top;
	char *key = value_key(w, o->src);
	int g = unwritten_guard(w, at, key, test);

	/* isdigit(c) ? c - '0' : 0 guards the arm, below where it is observed */
	if (g < 0 && o->ref >= 0 && at != o->ref)
		g = unwritten_guard(w, o->ref, key, test);
	if (g < 0 && o->carrier >= 0 && only_char_write(w, o->carrier))
		g = unwritten_guard(w, w->car[o->carrier].assign, key, test);
	if (g < 0 && o->carrier >= 0) {
		free(key);
		key = value_key(w, o->ref);
		g = unwritten_guard(w, at, key, test);
	}
	free(key);
	return g;
}

int ascii_guard(struct walk *w, const struct occ *o)
{
	return guard_of_value(w, o, keeps_ascii);
}

int key_at(struct walk *w, int i, const char *key)
{
	return is_key(w, i, key);
}

int int_ascii_guarded(struct walk *w, int read)
{
	char *key = value_key(w, read);
	int g = unwritten_guard(w, read, key, keeps_int_ascii);

	free(key);
	return g >= 0;
}

int ascii_guarded_read(struct walk *w, int read)
{
	struct occ o = { .ref = read, .src = read, .carrier = -1, .top = read, .ctx = -1 };

	return ascii_guard(w, &o) >= 0;
}

int one_sided_guard(struct walk *w, const struct occ *o)
{
	return guard_of_value(w, o, keeps_one_side);
}

/* Does cond answer differently for some byte under the two signednesses
 * (j != -1)?  Then that test is the finding, and what it guards is
 * judged there; c == '\0' or c == '\n' judges nothing. */
static int differs_by_signedness(struct walk *w, int cond, const char *key, int want)
{
	struct truth r;

	(void)want;
	eval_cond(w, cond, key, &r, 0);
	for (int b = 0; b < 128; b++)
		if (r.v[0][b] != r.v[1][b])
			return 1;
	return 0;
}

int judging_guard(struct walk *w, const struct occ *o)
{
	return guard_of_value(w, o, differs_by_signedness);
}

/* Does cond compare the value with anything (either way taken)? */
static int compares_value(struct walk *w, int cond, const char *key, int want)
{
	const struct tree *t = &w->t;

	(void)want;
	for (int i = cond; i < t->len && i >= 0; i++) {
		int in = 0;

		for (int p = i; p >= 0 && !in; p = t->n[p].parent)
			in = p == cond;
		if (!in)
			break;
		if (t->n[i].kind == CXCursor_BinaryOperator && op_is_compare(t->n[i].op) &&
		    (is_key(w, child(t, i, 0), key) || is_key(w, child(t, i, 1), key)))
			return 1;
	}
	return 0;
}

int tested_guard(struct walk *w, const struct occ *o)
{
	return guard_of_value(w, o, compares_value);
}

int ascii_argument(struct walk *w, int call, int arg)
{
	const struct tree *t = &w->t;
	int a = strip_implicit(t, child(t, call, arg + 1));
	struct occ o = { .ref = a, .src = a, .carrier = -1, .top = a, .ctx = call };

	if (a < 0)
		return -1;
	if (ascii_value(t, a) || ascii_source(w, a))
		return V_ASCII_SOURCE;
	return ascii_guard(w, &o) >= 0 ? V_ASCII_GUARD : -1;
}
