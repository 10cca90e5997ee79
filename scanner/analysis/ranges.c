/*
 * The values an int expression can take, from its shape alone: an
 * interval [lo, hi] computed bottom up over constants, truth values,
 * masks, shifts, sums, products, quotients and remainders, casts,
 * either arm of ?:, bit-fields, and the type of whatever else is there.
 * `n % 10 + '0'` is 39..57 even for a negative n; `1 << ((cap1 &
 * 0xc00) >> 10)` is 1..8; `es_pblk >> 59` of a u64 is 0..31.  A result
 * that leaves its type's range wraps (unsigned) or is undefined
 * (signed): either way, any value of the type.  With leaves, a part
 * that ascii_value() proves 0..127 by what it is (a guarded read, a
 * local written only ASCII constants) counts as 0..127.
 */
#include <limits.h>
#include "core/core.h"
#include "walk.h"

/* Beyond this the arithmetic below could overflow: unknown. */
#define BIG (1LL << 61)

struct range {
	long long lo, hi;
};

static const struct range unknown = { LLONG_MIN, LLONG_MAX };

static struct range span(long long lo, long long hi)
{
	return (struct range){ lo, hi };
}

static int known(struct range r)
{
	return r.lo > -BIG && r.hi < BIG;
}

static int within(struct range r, struct range in)
{
	return r.lo >= in.lo && r.hi <= in.hi;
}

static struct range join(struct range a, struct range b)
{
	return span(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

/* What type ty holds.  Plain char: what either signedness gives. */
static struct range type_range(struct ctype ty)
{
	switch (ty.cls) {
	case T_BOOL:
		return span(0, 1);
	case T_PLAIN_CHAR:
		return span(-128, 255);
	case T_SCHAR:
		return span(-128, 127);
	case T_UCHAR:
		return span(0, 255);
	case T_INT:
		if (!ty.bits || ty.bits >= 63)
			return unknown;
		return ty.is_signed ? span(-(1LL << (ty.bits - 1)), (1LL << (ty.bits - 1)) - 1) :
				      span(0, (1LL << ty.bits) - 1);
	default:
		return unknown;
	}
}

/* r as a value of type ty: kept when it fits, else anything ty holds.
 * Into plain char only 0..127 is kept: any other value means something
 * else under each signedness. */
static struct range fit(struct range r, struct ctype ty)
{
	if (ty.cls == T_PLAIN_CHAR)
		return within(r, span(0, 0x7f)) ? r : type_range(ty);
	return within(r, type_range(ty)) ? r : type_range(ty);
}

static long long min4(long long a, long long b, long long c, long long d)
{
	long long m = a < b ? a : b;

	m = m < c ? m : c;
	return m < d ? m : d;
}

static long long max4(long long a, long long b, long long c, long long d)
{
	long long m = a > b ? a : b;

	m = m > c ? m : c;
	return m > d ? m : d;
}

/* The smallest 2^n - 1 that covers v >= 0: what | and ^ of values up
 * to v can reach. */
static long long ones_over(long long v)
{
	long long m = 0;

	while (m < v)
		m = m << 1 | 1;
	return m;
}

static int small(struct range r)
{
	return r.lo >= -(1LL << 30) && r.hi <= (1LL << 30);
}

/* a % b: as large as the divisor allows, with the dividend's sign. */
static struct range remainder_of(struct range a, struct range b)
{
	long long m;

	if (!known(b) || (b.lo <= 0 && b.hi >= 0))
		return unknown;		/* may divide by 0 */
	m = (b.hi > -b.lo ? b.hi : -b.lo) - 1;
	if (a.lo >= 0)
		return span(0, a.hi < m ? a.hi : m);
	return span(a.lo > -m ? a.lo : -m, a.hi > 0 ? (a.hi < m ? a.hi : m) : 0);
}

static struct range shift_left(struct range a, struct range b)
{
	if (a.lo < 0 || b.lo < 0 || b.hi >= 62 || !known(a) ||
	    (a.hi && a.hi > (BIG >> b.hi)))
		return unknown;
	return span(a.lo << b.lo, a.hi << b.hi);
}

/* a >> k; of an unsigned type of `bits`, at most bits - k bits are
 * left whatever a is. */
static struct range shift_right(struct range a, long long k, struct ctype ty)
{
	if (k < 0 || k >= 63)
		return unknown;		/* undefined (x86 masks the count) */
	if (known(a))
		return span(a.lo >> k, a.hi >> k);
	if (ty.cls == T_INT && !ty.is_signed && ty.bits && k < ty.bits && ty.bits - k < 63)
		return span(0, (1LL << (ty.bits - k)) - 1);
	return unknown;
}

static struct range binary_range(enum op op, struct range a, struct range b, int bk,
				 long long k, struct ctype ty)
{
	if (op_is_compare(op) || op == OP_LAND || op == OP_LOR)
		return span(0, 1);
	switch (op) {
	case OP_AND:		/* no larger than a non-negative operand */
		if (a.lo >= 0 && b.lo >= 0)
			return span(0, a.hi < b.hi ? a.hi : b.hi);
		if (a.lo >= 0 || b.lo >= 0)
			return span(0, a.lo >= 0 ? a.hi : b.hi);
		return unknown;
	case OP_OR:
	case OP_XOR:
		if (a.lo < 0 || b.lo < 0 || !known(a) || !known(b))
			return unknown;
		return span(op == OP_OR ? (a.lo > b.lo ? a.lo : b.lo) : 0,
			    ones_over(a.hi > b.hi ? a.hi : b.hi));
	case OP_ADD:
		return known(a) && known(b) ? span(a.lo + b.lo, a.hi + b.hi) : unknown;
	case OP_SUB:
		return known(a) && known(b) ? span(a.lo - b.hi, a.hi - b.lo) : unknown;
	case OP_MUL:
		if (!small(a) || !small(b))
			return unknown;
		return span(min4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi),
			    max4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi));
	case OP_DIV:		/* truncation is monotone for a divisor > 0 */
		return bk && k > 0 && known(a) ? span(a.lo / k, a.hi / k) : unknown;
	case OP_REM:
		return remainder_of(a, b);
	case OP_SHL:
		return shift_left(a, b);
	case OP_SHR:
		return bk ? shift_right(a, k, ty) : unknown;
	default:
		return unknown;
	}
}

static struct range bit_field_range(CXCursor f)
{
	struct ctype ft = classify_type(clang_getCursorType(f));
	int width = clang_getFieldDeclBitWidth(f);

	if (width <= 0 || width >= 62 || (ft.cls != T_INT && ft.cls != T_UCHAR))
		return unknown;
	return ft.is_signed ? span(-(1LL << (width - 1)), (1LL << (width - 1)) - 1) :
			      span(0, (1LL << width) - 1);
}

static struct range shape_range(const struct tree *t, int v, int leaves, int depth);

#define MAX_RANGE_HOPS 2	/* int d = x % 10; char c = '0' + d; */

/* The writes of a local, joined: values, and how far loop steps go. */
struct joined_writes {
	struct range r;
	long long top, bottom;	/* of the steps up, down */
	int any, up, down, leaves, depth;
};

static int join_write(const struct tree *t, const struct local_write *lw, void *arg)
{
	struct joined_writes *j = arg;
	struct range r;

	if (lw->step > 0) {
		j->up = 1;
		j->top = lw->lim > j->top ? lw->lim : j->top;
		return 1;
	}
	if (lw->step < 0) {
		j->down = 1;
		j->bottom = lw->lim < j->bottom ? lw->lim : j->bottom;
		return 1;
	}
	if (lw->value < 0)
		return 1;		/* `int c;`: read before a write, undefined */
	r = shape_range(t, lw->value, j->leaves, j->depth);
	j->r = j->any ? join(j->r, r) : r;
	j->any = 1;
	return known(j->r);
}

/*
 * What a local variable (not static) holds: the join of every value
 * written to it in the function, and of what its counting loops' steps
 * make: a step up goes no further than its loop's limit, and starts
 * from a value written (`for (i = 0; i < 10; i++)`: 0..10).
 */
static struct range local_range(const struct tree *t, int ref, int leaves, int depth)
{
	CXCursor d = clang_getCursorReferenced(t->n[ref].cur);
	struct joined_writes j = { .top = LLONG_MIN, .bottom = LLONG_MAX,
				   .leaves = leaves, .depth = depth + 1 };

	if (depth >= MAX_RANGE_HOPS || clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_Cursor_hasVarDeclGlobalStorage(d) || !each_local_write(t, d, 1, join_write, &j) ||
	    !j.any || (j.up && j.down))
		return unknown;
	if (j.up)
		return span(j.r.lo, j.top > j.r.hi ? j.top : j.r.hi);
	if (j.down)
		return span(j.bottom < j.r.lo ? j.bottom : j.r.lo, j.r.hi);
	return j.r;
}

static struct range node_range(const struct tree *t, int v, int leaves, int depth)
{
	const struct node *n = &t->n[v];
	struct range a, b;
	long long k;
	int bk;
	CXCursor f;

	if (is_cast(t, v))
		return shape_range(t, cast_operand(t, v), leaves, depth);	/* fit() below */
	switch (n->kind) {
	case CXCursor_ConditionalOperator:
		return join(shape_range(t, child(t, v, 1), leaves, depth),
			    shape_range(t, child(t, v, 2), leaves, depth));
	case CXCursor_UnaryOperator:
		if (n->op == OP_LNOT)
			return span(0, 1);
		a = shape_range(t, child(t, v, 0), leaves, depth);
		if (n->op == OP_NEG && known(a))
			return span(-a.hi, -a.lo);
		if (n->op == OP_NOT && known(a))
			return span(~a.hi, ~a.lo);
		if (n->op == OP_PLUS)
			return a;
		break;
	case CXCursor_BinaryOperator:
		a = shape_range(t, child(t, v, 0), leaves, depth);
		b = shape_range(t, child(t, v, 1), leaves, depth);
		bk = eval_const(t, child(t, v, 1), &k);
		return binary_range(n->op, a, b, bk, k, n->type);
	case CXCursor_DeclRefExpr:
		a = local_range(t, v, leaves, depth);
		if (known(a))
			return a;
		break;
	case CXCursor_MemberRefExpr:
		f = clang_getCursorReferenced(n->cur);
		if (clang_getCursorKind(f) == CXCursor_FieldDecl && clang_Cursor_isBitField(f))
			return bit_field_range(f);
		break;
	default:
		break;
	}
	return leaves && ascii_value(t, v) ? span(0, 0x7f) : unknown;
}

static struct range shape_range(const struct tree *t, int v, int leaves, int depth)
{
	long long k;

	v = strip_parens(t, v);
	if (v < 0)
		return unknown;
	if (eval_const(t, v, &k))
		return span(k, k);
	if (t->n[v].type.cls == T_BOOL)
		return span(0, 1);
	return fit(node_range(t, v, leaves, depth), t->n[v].type);
}

long long value_bound(const struct tree *t, int v)
{
	struct range r = shape_range(t, v, 1, 0);

	return r.lo >= 0 && r.hi < UNBOUNDED ? r.hi : UNBOUNDED;
}

int shape_ascii(const struct tree *t, int v)
{
	return within(shape_range(t, v, 0, 0), span(0, 0x7f));
}
