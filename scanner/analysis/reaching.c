/*
 * The one write that reaches a read.  A local written both chars and
 * other values is no carrier (carriers.c), but a read that only one
 * write can reach still holds that write's value:
 *
 *	key = getchar();			(another meaning of key)
 *	...
 *	key = entry_buf[i] | 0x20;
 *	v += (key > '9') ? ...			only the line above reaches here
 *
 * The same holds for a plain char local given other values on other
 * paths (xarray's offset = (index >> shift) & XA_CHUNK_MASK): the read
 * holds 0..63 there, whatever the variable holds elsewhere.
 *
 * Structured code only, and only what dominance in straight-line blocks
 * proves: the write is an earlier statement of the read's block (or of
 * a block around it, without leaving a loop), nothing between writes
 * the variable, and no label or case lies between (a jump could enter
 * there).  Anything else is "don't know", and the read is not followed.
 */
#include <stdlib.h>
#include "core/core.h"
#include "walk.h"

static int is_loop(enum CXCursorKind k)
{
	return k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt;
}

static int is_entry(enum CXCursorKind k)
{
	return k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || k == CXCursor_LabelStmt;
}

/* The writes of one variable: carrier car's among wr[0..n). */
struct writes {
	const struct write *wr;
	size_t n;
	int car;
};

/* How many writes it has in nodes [from, to); the last in *last. */
static int written_in(const struct writes *ws, int from, int to, int *last)
{
	int count = 0;

	for (size_t n = 0; n < ws->n; n++)
		if (ws->wr[n].car == ws->car && ws->wr[n].at >= from && ws->wr[n].at < to) {
			count++;
			if (last)
				*last = (int)n;
		}
	return count;
}

/* Statement x, if it is one plain write of the variable and nothing
 * else writes it there: that write, or -1.  A write is the assignment
 * statement itself, or the declaration its DeclStmt holds. */
static int plain_write(const struct tree *t, const struct writes *ws, int x)
{
	int n, at;

	if (written_in(ws, x, subtree_end(t, x), &n) != 1 || !ws->wr[n].plain)
		return -1;
	at = ws->wr[n].at;
	if (at == x || (t->n[x].kind == CXCursor_DeclStmt && t->n[at].parent == x))
		return n;
	return -1;
}

/* Does a loop around node read hold node at too? */
static int looped(const struct tree *t, int read, int at)
{
	for (int p = t->n[read].parent; p >= 0; p = t->n[p].parent)
		if (is_loop(t->n[p].kind) && at < subtree_end(t, p))
			return 1;
	return 0;
}

static int reaching(const struct tree *t, const struct writes *ws, int read)
{
	int s = read;

	/* Its address taken before: anything may write it.  Taken after
	 * (put_user()'s copy of the value, once it is read): not, unless a
	 * loop around the read comes back to it. */
	for (size_t n = 0; n < ws->n; n++)
		if (ws->wr[n].car == ws->car && ws->wr[n].address &&
		    (ws->wr[n].at < read || looped(t, read, ws->wr[n].at)))
			return -1;
	for (;;) {
		int p = t->n[s].parent, first;

		/* Up to the statement of a block that holds the read. */
		while (p >= 0 && t->n[p].kind != CXCursor_CompoundStmt) {
			/* A loop around the read: a later write comes
			 * back; a label or case: entered from elsewhere. */
			if (is_entry(t->n[p].kind) ||
			    (is_loop(t->n[p].kind) && written_in(ws, p, subtree_end(t, p), NULL)))
				return -1;
			s = p;
			p = t->n[p].parent;
		}
		if (p < 0 || written_in(ws, s, read, NULL))
			return -1;
		/* The statements before it, nearest first. */
		first = t->n[p].first;
		for (int x = s; x != first; ) {
			int prev = first;

			while (t->n[prev].next != x)
				prev = t->n[prev].next;
			x = prev;
			if (is_entry(t->n[x].kind))
				return -1;
			if (!written_in(ws, x, subtree_end(t, x), NULL))
				continue;
			return plain_write(t, ws, x);
		}
		/* None in this block: the block's own statement, unless it
		 * is the body of a loop that writes it (the end of the body
		 * comes back). */
		if (t->n[p].parent < 0 ||
		    (is_loop(t->n[t->n[p].parent].kind) &&
		     written_in(ws, t->n[p].parent, subtree_end(t, t->n[p].parent), NULL)))
			return -1;
		s = p;
	}
}

int reaching_write(const struct walk *w, int k, int read)
{
	return reaching(&w->t, &(struct writes){ w->wr, w->nwr, k }, read);
}

int written_ref(const struct tree *t, int i)
{
	const struct node *n = &t->n[i];
	int ref;

	if (!((n->kind == CXCursor_BinaryOperator && n->op == OP_ASSIGN) ||
	      n->kind == CXCursor_CompoundAssignOperator ||
	      (n->kind == CXCursor_UnaryOperator &&
	       (n->op == OP_INC || n->op == OP_DEC || n->op == OP_ADDR))))
		return -1;
	ref = strip_parens(t, child(t, i, 0));
	return ref >= 0 && t->n[ref].kind == CXCursor_DeclRefExpr ? ref : -1;
}

/* Is node i a write of decl (v = ..., v++, v += ..., &v)?  Its kind of
 * write in *plain / *address, the value a plain one writes in *value. */
static int writes_decl(const struct tree *t, int i, CXCursor decl, int *value, int *plain,
		       int *address)
{
	const struct node *n = &t->n[i];
	int ref;

	if (n->kind == CXCursor_VarDecl) {
		*value = last_expr_child(t, i);
		*plain = 1;
		*address = 0;
		return *value >= 0 && clang_equalCursors(n->cur, decl);
	}
	if ((ref = written_ref(t, i)) < 0 ||
	    !clang_equalCursors(clang_getCursorReferenced(t->n[ref].cur), decl))
		return 0;
	*plain = n->op == OP_ASSIGN;
	*address = n->op == OP_ADDR;
	*value = *plain ? child(t, i, 1) : -1;
	return 1;
}

int reaching_value(const struct walk *w, CXCursor decl, int read)
{
	const struct tree *t = &w->t;
	struct write *wr = NULL;
	size_t n = 0, cap = 0;
	int value, plain, address, k;

	for (int i = 1; i < t->len; i++)
		if (writes_decl(t, i, decl, &value, &plain, &address)) {
			grow(&wr, &cap, n + 1, sizeof(*wr));
			wr[n++] = (struct write){ 0, i, value, (unsigned char)plain,
						  (unsigned char)address };
		}
	k = reaching(t, &(struct writes){ wr, n, 0 }, read);
	value = k >= 0 ? wr[k].value : -1;
	free(wr);
	return value;
}
