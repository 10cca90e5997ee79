/*
 * Which bits of a value computed from a plain char differ between the
 * two signednesses, and whether anything observes them: a mask or a
 * test right around the value (settles()), or the differing bits
 * followed up through operators that keep or move them, to a narrowing
 * that drops them (bits_dropped()), through a local variable's reads.
 */
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

/* Each byte's value d, observed by p (i its operand): the same result
 * for every byte either way?  A zero test or a comparison with a
 * constant; -1 when p is neither. */
static int same_observed(const struct tree *t, int p, int i, const struct domain *d)
{
	long long k;
	enum op op;
	int other;

	if (tested_against_zero(t, p, i)) {
		for (int b = 0; b < 256; b++)
			if ((d->s[b] != 0) != (d->u[b] != 0))
				return 0;
		return 1;
	}
	if (t->n[p].kind != CXCursor_BinaryOperator || !op_is_compare(t->n[p].op))
		return -1;
	other = child(t, p, child(t, p, 0) == i ? 1 : 0);
	if (!eval_const(t, other, &k))
		return -1;
	op = child(t, p, 0) == i ? t->n[p].op : op_mirror(t->n[p].op);
	for (int b = 0; b < 256; b++)
		if (eval_compare(op, d->s[b], k) != eval_compare(op, d->u[b], k))
			return 0;
	return 1;
}

/*
 * Does the value d, computed at node i, give every byte the same value
 * once the parentheses, integer conversions and constant masks (& K)
 * directly around it have been applied, or the same result where it is
 * tested ((c >> 7) as a condition, (c >> 7) != 0)?
 */
int settles(struct walk *w, int i, const struct domain *d0)
{
	const struct tree *t = &w->t;
	struct domain d = *d0;
	long long k;
	int same;

	for (int p = t->n[i].parent; p >= 0; i = p, p = t->n[p].parent) {
		if (t->n[p].kind == CXCursor_ParenExpr)
			continue;
		if ((same = same_observed(t, p, i, &d)) >= 0)
			return same;
		if (is_cast(t, p) && t->n[p].type.cls != T_PTR) {
			domain_convert(&d, t->n[p].type);
		} else if (t->n[p].kind == CXCursor_BinaryOperator && t->n[p].op == OP_AND &&
			   eval_const(t, child(t, p, child(t, p, 0) == i ? 1 : 0), &k)) {
			val_t kk = convert(k, t->n[p].type);

			for (int b = 0; b < 256; b++) {
				d.s[b] &= kk;
				d.u[b] &= kk;
			}
		} else {
			return 0;
		}
		if (!domain_differs(&d))
			return 1;
	}
	return 0;
}

static unsigned long long low_bits(unsigned bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* A write that sets the whole value: not a change in place or out of
 * sight. */
static int plain_write(const struct tree *t, const struct local_write *lw, void *arg)
{
	(void)t;
	(void)arg;
	return !lw->unseen && !lw->rmw;
}

static int dropped_from(struct walk *w, int i, unsigned long long mask, int depth);

/*
 * The value was kept in local variable var (cdrom.c's `int mmc3_profile`,
 * stored into a u16 field): the bits are dropped when every read of var
 * in the function drops them.  Every read, not only those the store
 * reaches: a superset, so never a miss.  Not when var's address is
 * taken or it is changed in place (v |= x, v++), whose new value mixes
 * the old one's bits with others; nor more than two variables deep.
 */
static int dropped_by_reads(struct walk *w, CXCursor var, unsigned long long mask, int depth)
{
	const struct tree *t = &w->t;

	if (depth >= 3 || !local_variable(var) || !each_local_write(t, var, 0, plain_write, NULL))
		return 0;
	for (int i = 1; i < t->len; i++) {
		int p = t->n[i].parent;

		if (t->n[i].kind != CXCursor_DeclRefExpr || !refers_to_decl(t, i, var))
			continue;
		while (p >= 0 && t->n[p].kind == CXCursor_ParenExpr)
			p = t->n[p].parent;
		if (p >= 0 && written_ref(t, p) == i)
			continue;	/* v = ...: the write */
		if (!dropped_from(w, i, mask, depth + 1))
			return 0;
	}
	return 1;
}

/* Stored into a variable or field of type to: the bits still differing
 * in what was stored (*mask), and are they dropped, by the store or, for
 * a local, by every later read? */
static int dropped_by_store(struct walk *w, CXCursor var, struct ctype to,
			    unsigned long long *mask, int depth)
{
	int spreads = to.bits && to.is_signed && (*mask >> (to.bits - 1) & 1);

	if (to.cls < T_PLAIN_CHAR || to.cls > T_INT || to.cls == T_BOOL || !to.bits)
		return 0;
	*mask &= low_bits(to.bits);
	if (spreads)		/* read back, the sign bit fills the rest */
		*mask |= ~low_bits(to.bits);
	return !*mask || (!clang_Cursor_isNull(var) && dropped_by_reads(w, var, *mask, depth));
}

/* Is the value of the assignment at p thrown away: a statement of its
 * own, or a loop's or if's body written without braces? */
static int value_unused(const struct tree *t, int p)
{
	int q = t->n[p].parent;

	if (q < 0)
		return 1;
	switch (t->n[q].kind) {
	case CXCursor_CompoundStmt:	/* ({ ...; p = x; }) gives x on */
		return t->n[p].next >= 0 || t->n[q].parent < 0 ||
		       t->n[t->n[q].parent].kind != CXCursor_StmtExpr;
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		return 1;
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
		return t->n[q].first != p;
	case CXCursor_DoStmt:
		return t->n[q].first == p;
	default:
		return 0;
	}
}

/* The variable a store at p writes: a VarDecl's own, or an assignment's
 * left side when it names one; null for a field or *p. */
static CXCursor stored_variable(const struct tree *t, int p)
{
	int lhs;

	if (t->n[p].kind == CXCursor_VarDecl)
		return t->n[p].cur;
	lhs = strip_parens(t, child(t, p, 0));
	return lhs >= 0 && t->n[lhs].kind == CXCursor_DeclRefExpr ?
	       clang_getCursorReferenced(t->n[lhs].cur) : clang_getNullCursor();
}

static int dropped_from(struct walk *w, int i, unsigned long long mask, int depth)
{
	const struct tree *t = &w->t;
	long long k;

	for (int p = t->n[i].parent; p >= 0 && mask; i = p, p = t->n[p].parent) {
		const struct node *n = &t->n[p];
		int other = n->kind == CXCursor_BinaryOperator ? child(t, p, child(t, p, 0) == i) : -1;
		int constant = other >= 0 && eval_const(t, other, &k);

		if (n->kind == CXCursor_ParenExpr)
			continue;
		if (is_cast(t, p) && n->type.cls >= T_PLAIN_CHAR && n->type.cls <= T_INT &&
		    n->type.cls != T_BOOL && n->type.bits) {
			int spreads = n->type.is_signed && (mask >> (n->type.bits - 1) & 1);

			mask &= low_bits(n->type.bits);
			if (spreads)	/* widened again, the sign bit fills the rest */
				mask |= ~low_bits(n->type.bits);
		} else if (n->kind == CXCursor_BinaryOperator &&
			   (n->op == OP_OR || n->op == OP_XOR || n->op == OP_AND)) {
			if (n->op == OP_AND && constant)
				mask &= (unsigned long long)k;
		} else if (n->kind == CXCursor_BinaryOperator && n->op == OP_SHL && constant &&
			   child(t, p, 0) == i && k >= 0 && k < 64) {
			mask <<= k;
		} else if (n->kind == CXCursor_BinaryOperator &&
			   (n->op == OP_ADD || n->op == OP_SUB)) {
			mask = ~((mask & -mask) - 1);	/* carries: the lowest and up */
		} else if ((n->kind == CXCursor_BinaryOperator && n->op == OP_ASSIGN &&
			    child(t, p, 1) == i) || n->kind == CXCursor_VarDecl) {
			if (!dropped_by_store(w, stored_variable(t, p),
					      n->kind == CXCursor_VarDecl ? n->type :
					      t->n[child(t, p, 0)].type, &mask, depth))
				return 0;
			/* x = (p = c << 8): the assignment's value goes on */
			if (n->kind == CXCursor_VarDecl || value_unused(t, p))
				return 1;
		} else {
			return 0;
		}
	}
	return !mask;
}

/*
 * The bits in which the two signednesses' values differ, followed up
 * through operands that do not observe them: | ^ & with any value keep
 * them (or clear them), a shift by a constant moves them, a sum carries
 * them upwards, and a narrowing cast or a store into a narrower variable
 * drops the high ones.  cdrom.c's `int p = (buffer[6] << 8) |
 * buffer[7]; cdi->mmc3_profile = p;` (a u16): buffer[6]'s sign
 * extension is in bits 16-31 only, which the u16 drops (buffer[7]'s
 * reaches bits 8-15 and stays).  1 when no differing bit is left before
 * anything observes the value.
 */
int bits_dropped(struct walk *w, int i, unsigned long long mask)
{
	return dropped_from(w, i, mask, 0);
}

/* The bits d's values differ in, either way. */
unsigned long long differing_bits(const struct domain *d)
{
	unsigned long long m = 0;

	for (int b = 0; b < 256; b++)
		m |= (unsigned long long)(d->s[b] ^ d->u[b]);
	return m;
}

