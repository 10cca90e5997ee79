/*
 * Writes that undo a guard (guard.c).  A test of *s says nothing of the
 * next byte: a write between the test and the use to a variable the
 * tested text names (s++, i = ...) undoes the guard, and so does one
 * anywhere in a loop around the use that the guard does not enclose,
 * since the loop runs the use again after the write:
 *
 *	if (isdigit(*p))
 *		while (k--)
 *			n = n * 10 + *p++ - '0';	only *p's first byte tested
 *
 * unless the loop tests again before each next round (do ... while
 * (isdigit(*p)), or an early exit at the end of its body).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"
#include "guard.h"

/* Does name stand in key as a whole word ("fmt" in "*fmt", "i" in
 * "buf[i]")? */
static int names(const char *key, const char *name)
{
	size_t n = strlen(name);

	if (!n)
		return 0;
	for (const char *p = strstr(key, name); p; p = strstr(p + 1, name)) {
		int before = p > key && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_';

		if (!before && !after)
			return 1;
	}
	return 0;
}

/* Does node n write a variable the key reads (s++, i = ..., n += 2)? */
static int writes_key(struct walk *w, int n, const char *key)
{
	const struct tree *t = &w->t;
	const struct node *x = &t->n[n];
	int target = -1, hit;
	char *name;

	if ((x->kind == CXCursor_UnaryOperator && (x->op == OP_INC || x->op == OP_DEC)) ||
	    (x->kind == CXCursor_BinaryOperator && x->op == OP_ASSIGN) ||
	    x->kind == CXCursor_CompoundAssignOperator)
		target = strip_implicit(t, child(t, n, 0));
	if (target < 0)
		return 0;
	name = value_key(w, target);
	hit = names(key, name);
	free(name);
	return hit;
}

/* Is a variable the key reads written in nodes [from, use) (after the
 * guard: qualifier = *fmt++; then *fmt is another byte)?  The use's own
 * ++ (*s++ reads before it steps) is not before it, and neither is an
 * assignment the use is an operand of (s[2] = toupper(s[2]) reads, then
 * writes). */
int written_between(struct walk *w, int from, int use, const char *key)
{
	const struct tree *t = &w->t;

	for (int n = from; n < use && n < t->len; n++)
		if (use >= subtree_end(t, n) && writes_key(w, n, key))
			return 1;
	return 0;
}

static int is_loop(enum CXCursorKind k)
{
	return k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt;
}

/* Does the block around write n (inside loop l) end with a return, or
 * with a break of l itself: so that no next round of l sees the write
 * (`if (n > 1000) { p++; return n; }`)? */
static int leaves_loop_after(const struct tree *t, int n, int l)
{
	int inner = 0;		/* a loop or switch between takes the break */

	for (int c = t->n[n].parent; c >= 0 && c != l; c = t->n[c].parent) {
		int last = t->n[c].kind == CXCursor_CompoundStmt ? last_child(t, c) : -1;

		if (last >= 0 && (t->n[last].kind == CXCursor_ReturnStmt ||
				  (t->n[last].kind == CXCursor_BreakStmt && !inner)))
			return 1;
		inner |= is_loop(t->n[c].kind) || t->n[c].kind == CXCursor_SwitchStmt;
	}
	return 0;
}

/* Does the write at n reach a next round of loop l? */
static int rewrites_in(struct walk *w, int n, int l, const char *key)
{
	return writes_key(w, n, key) && !leaves_loop_after(&w->t, n, l);
}

/* Does loop l's body end each round by testing again, after its every
 * write of what the key reads: `if (!isdigit(*p)) break;` as a
 * statement of the body, the writes before its test or inside it
 * (`if (!isdigit(*++p)) break;`), none in the loop's header, and no
 * continue that could skip it? */
static int retests_each_round(struct walk *w, int l, const char *key, guard_test test)
{
	const struct tree *t = &w->t;
	int body = t->n[l].kind == CXCursor_DoStmt ? child(t, l, 0) : last_child(t, l);
	int end = -1;

	if (body < 0 || t->n[body].kind != CXCursor_CompoundStmt)
		return 0;
	for (int s = t->n[body].first; s >= 0; s = t->n[s].next)
		if (t->n[s].kind == CXCursor_IfStmt && nchildren(t, s) == 2 &&
		    is_jump(t, child(t, s, 1)) && test(w, child(t, s, 0), key, 0))
			end = subtree_end(t, child(t, s, 0));
	if (end < 0)
		return 0;
	for (int n = l; n < subtree_end(t, l); n++)
		if (t->n[n].kind == CXCursor_ContinueStmt ||
		    (rewrites_in(w, n, l, key) && (n < body || n >= end)))
			return 0;
	return 1;
}

/* A loop between the guard (whose region starts at node from) and the
 * use runs the use again after its own writes: `if (isdigit(*p)) while
 * (k--) n += *p++;` tests the first byte only.  Unless the loop tests
 * again before each next round (do ... while (isdigit(*p)), or an early
 * exit at the end of its body), a write anywhere in it of what the key
 * reads undoes the guard. */
int loop_rewrites(struct walk *w, int from, int use, const char *key, guard_test test)
{
	const struct tree *t = &w->t;

	for (int l = t->n[use].parent; l >= from; l = t->n[l].parent) {
		if (!is_loop(t->n[l].kind))
			continue;
		if (t->n[l].kind == CXCursor_DoStmt && test(w, child(t, l, 1), key, 1))
			continue;
		if (retests_each_round(w, l, key, test))
			continue;
		for (int n = l; n < subtree_end(t, l); n++)
			if (rewrites_in(w, n, l, key))
				return 1;
	}
	return 0;
}
