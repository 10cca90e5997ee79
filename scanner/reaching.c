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
 * Structured code only, and only what dominance in straight-line blocks
 * proves: the write is an earlier statement of the read's block (or of
 * a block around it, without leaving a loop), nothing between writes
 * the variable, and no label or case lies between (a jump could enter
 * there).  Anything else is "don't know", and the read is not followed.
 */
#include "walk.h"

static int is_loop(enum CXCursorKind k)
{
	return k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt;
}

static int is_entry(enum CXCursorKind k)
{
	return k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || k == CXCursor_LabelStmt;
}

/* How many writes carrier k has in nodes [from, to); the last in *last. */
static int written_in(const struct walk *w, int k, int from, int to, int *last)
{
	int count = 0;

	for (size_t n = 0; n < w->nwr; n++)
		if (w->wr[n].car == k && w->wr[n].at >= from && w->wr[n].at < to) {
			count++;
			if (last)
				*last = (int)n;
		}
	return count;
}

/* Statement x, if it is one plain write of carrier k and nothing else
 * writes it there: that write, or -1.  A write is the assignment
 * statement itself, or the declaration its DeclStmt holds. */
static int plain_write(const struct walk *w, int k, int x)
{
	const struct tree *t = &w->t;
	int n, at;

	if (written_in(w, k, x, subtree_end(t, x), &n) != 1 || !w->wr[n].plain)
		return -1;
	at = w->wr[n].at;
	if (at == x || (t->n[x].kind == CXCursor_DeclStmt && t->n[at].parent == x))
		return n;
	return -1;
}

int reaching_write(const struct walk *w, int k, int read)
{
	const struct tree *t = &w->t;
	int s = read;

	for (size_t n = 0; n < w->nwr; n++)
		if (w->wr[n].car == k && w->wr[n].address)
			return -1;
	for (;;) {
		int p = t->n[s].parent, first;

		/* Up to the statement of a block that holds the read. */
		while (p >= 0 && t->n[p].kind != CXCursor_CompoundStmt) {
			/* A loop around the read: a later write comes
			 * back; a label or case: entered from elsewhere. */
			if (is_entry(t->n[p].kind) ||
			    (is_loop(t->n[p].kind) && written_in(w, k, p, subtree_end(t, p), NULL)))
				return -1;
			s = p;
			p = t->n[p].parent;
		}
		if (p < 0 || written_in(w, k, s, read, NULL))
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
			if (!written_in(w, k, x, subtree_end(t, x), NULL))
				continue;
			return plain_write(w, k, x);
		}
		/* None in this block: the block's own statement, unless it
		 * is the body of a loop that writes it (the end of the body
		 * comes back). */
		if (t->n[p].parent < 0 ||
		    (is_loop(t->n[t->n[p].parent].kind) &&
		     written_in(w, k, t->n[p].parent, subtree_end(t, t->n[p].parent), NULL)))
			return -1;
		s = p;
	}
}
