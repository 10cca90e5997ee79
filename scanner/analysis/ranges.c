/*
 * The values an int expression can take, from its shape alone: an
 * interval [lo, hi] computed bottom up over constants, truth values,
 * masks, shifts, sums, products, quotients and remainders, casts,
 * either arm of ?:, bit-fields, locals (the join of what is written to
 * them), and the type of whatever else is there.  `d % 10 + '0'` is
 * 39..57 even for a negative local d; `1 << ((cap1 & 0xc00) >> 10)` is
 * 1..8; `es_pblk >> 59` of a u64 is 0..31.  A result that leaves its
 * type's range wraps (unsigned) or is undefined (signed): either way,
 * any value of the type.
 *
 * A value computed from a plain char read is another value under each
 * signedness, even when both lie in 0..127 (`s[0] % 10 + '0'` is '(' or
 * '8' for byte 0x80): such a range is marked dependent, with how many
 * of its low bits are the same either way, and only a mask or a cast
 * within those bits (`(c + 1) & 0x7f`, `(u16)(c << 8)`) takes the mark
 * off.  A value this file cannot see into (a parameter, a field, a
 * call, `*p`: an int of its type's range) may hold a char another part
 * of the walk follows, so it is marked opaque: a mask, an unsigned
 * shift right, a narrowing to an unsigned byte or 16 bits, a truth
 * value bound it, as they bound any value, but the sums and remainders
 * that would squeeze it into 0..127 (`n % 10 + '0'`) prove nothing.  A
 * value is ASCII when it lies in 0..127 with neither mark.  With
 * leaves, a part that ascii_value() proves 0..127 by what it is (a
 * guarded read, a table of ASCII constants) counts as 0..127.
 */
#include <limits.h>
#include "core/core.h"
#include "walk.h"

/* Beyond this the arithmetic below could overflow: unknown. */
#define BIG (1LL << 61)

struct range {
	long long lo, hi;
	unsigned char dep;	/* computed from a plain char: may differ */
	unsigned char same;	/* ... above this many low bits only */
	unsigned char opaque;	/* from a value not seen into */
};

static const struct range unknown = { LLONG_MIN, LLONG_MAX, 0, 0, 0 };

static struct range span(long long lo, long long hi)
{
	return (struct range){ lo, hi, 0, 0, 0 };
}

/* A plain char read: any value, other under each signedness above its
 * byte. */
static const struct range char_read = { LLONG_MIN, LLONG_MAX, 1, 8, 0 };

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
	struct range r = span(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);

	r.dep = a.dep || b.dep;
	r.same = !a.dep ? b.same : !b.dep ? a.same : a.same < b.same ? a.same : b.same;
	r.opaque = a.opaque || b.opaque;
	return r;
}

static struct range opaque(struct range r, int yes)
{
	r.opaque = (unsigned char)yes;
	return r;
}

/* r's values, with the mark of what they were computed from. */
static struct range marked(struct range r, int dep, int same)
{
	r.dep = (unsigned char)dep;
	r.same = (unsigned char)(dep ? (same < 0 ? 0 : same > 64 ? 64 : same) : 0);
	return r;
}

/* What type ty holds: unknown for 64 bits (an unsigned one's values do
 * not fit a long long) and for plain char, whose values are not the
 * same under each signedness. */
static struct range type_range(struct ctype ty)
{
	switch (ty.cls) {
	case T_BOOL:
		return span(0, 1);
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

/*
 * r as a value of type ty: kept when it fits, else anything ty holds.
 * Into plain char only 0..127 is kept: any other value means something
 * else under each signedness.  An unsigned 64-bit type wraps what is
 * negative.  A value narrowed to bits that are the same either way is
 * the same value ((u8)c, (u16)(c << 8)).
 */
static struct range fit(struct range r, struct ctype ty)
{
	int bits = ty.cls == T_SCHAR || ty.cls == T_UCHAR ? 8 : ty.cls == T_INT ? ty.bits : 0;

	if (r.dep && bits && r.same >= bits)
		r = opaque(marked(type_range(ty), 0, 0), r.opaque);
	if (bits && bits < 32 && !(ty.cls == T_INT && ty.is_signed))
		r.opaque = 0;	/* (u8)x, (u16)x: any value fits, as any value's does */
	if (ty.cls == T_PLAIN_CHAR)
		return within(r, span(0, 0x7f)) && !r.dep && !r.opaque ? r :
		       marked(unknown, 1, r.dep && r.same < 8 ? r.same : 8);
	if (ty.cls == T_INT && !ty.is_signed && ty.bits >= 63)
		return r.lo >= 0 && known(r) ? r : opaque(marked(unknown, r.dep, r.same), r.opaque);
	return within(r, type_range(ty)) ? r :
	       opaque(marked(type_range(ty), r.dep, r.same), r.opaque);
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

static struct range shift_left(struct range a, struct range b, struct ctype ty)
{
	if (a.lo < 0 || b.lo < 0 || b.hi >= 62 || b.hi >= ty.bits || !known(a) ||
	    (a.hi && a.hi > (BIG >> b.hi)))
		return unknown;
	return span(a.lo << b.lo, a.hi << b.hi);
}

/* a >> k; of an unsigned type of `bits`, at most bits - k bits are
 * left whatever a is. */
static struct range shift_right(struct range a, long long k, struct ctype ty)
{
	if (k < 0 || k >= 63 || k >= ty.bits)
		return unknown;		/* undefined (x86 masks the count) */
	if (known(a))
		return span(a.lo >> k, a.hi >> k);
	if (ty.cls == T_INT && !ty.is_signed && ty.bits && k < ty.bits && ty.bits - k < 63)
		return span(0, (1LL << (ty.bits - k)) - 1);
	return unknown;
}

static struct range arith_range(enum op op, struct range a, struct range b, int bk,
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
	case OP_DIV:		/* truncation is monotone in the dividend */
		if (!bk || !k || !known(a) || (k == -1 && a.lo == LLONG_MIN))
			return unknown;
		return k > 0 ? span(a.lo / k, a.hi / k) : span(a.hi / k, a.lo / k);
	case OP_REM:
		return remainder_of(a, b);
	case OP_SHL:
		return shift_left(a, b, ty);
	case OP_SHR:
		return bk ? shift_right(a, k, ty) : unknown;
	default:
		return unknown;
	}
}

/* How many low bits of a OP b are the same either way, given the
 * operands': the low bits of + - * & | ^ depend on the operands' low
 * bits only; a shift by a constant moves them. */
static int same_bits(enum op op, struct range a, struct range b, int bk, long long k)
{
	int sa = a.dep ? a.same : 64, sb = b.dep ? b.same : 64, m = sa < sb ? sa : sb;

	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_AND: case OP_OR: case OP_XOR:
		return m;
	case OP_SHL:	/* the low bits move up, by however much */
		return b.dep ? 0 : bk && k >= 0 && k <= 64 ? sa + (int)k : sa;
	case OP_SHR:
		return !b.dep && bk && k >= 0 && k <= 64 ? sa - (int)k : 0;
	default:
		return 0;
	}
}

/* A shift count whose low 6 bits are the same either way is the same
 * count in every shift that is defined. */
static int count_differs(enum op op, struct range b)
{
	return (op == OP_SHL || op == OP_SHR) && b.dep && b.same < 6;
}

static struct range binary_range(enum op op, struct range a, struct range b, int bk,
				 long long k, struct ctype ty)
{
	struct range r = arith_range(op, a, b, bk, k, ty);
	int shift = op == OP_SHL || op == OP_SHR;
	int dep = a.dep || (shift ? count_differs(op, b) : b.dep);
	int same = same_bits(op, a, shift && !count_differs(op, b) ? span(0, 0) : b, bk, k);
	int opq = a.opaque || b.opaque;

	/* c & 0x7f: the mask keeps only bits that are the same either way */
	if (op == OP_AND && dep && same < 63 &&
	    ((!a.dep && within(a, span(0, (1LL << same) - 1))) ||
	     (!b.dep && within(b, span(0, (1LL << same) - 1)))))
		dep = 0;
	/* what bounds any value: a mask, an unsigned shift right; a truth
	 * value that differs is judged where it is computed */
	if ((op == OP_AND && ((!a.opaque && a.lo >= 0) || (!b.opaque && b.lo >= 0))) ||
	    (op == OP_SHR && bk && ty.cls == T_INT && !ty.is_signed))
		opq = 0;
	if (op_is_compare(op) || op == OP_LAND || op == OP_LOR)
		dep = opq = 0;
	return opaque(marked(r, dep, same), opq);
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

static struct range shape_range(const struct tree *t, int v, int leaves);

#define MAX_RANGE_HOPS 2	/* int d = x & 7; char c = 'a' + d; */

/* A value not seen into: a plain char read, a byte of any value, or
 * (opaque) anything its type holds. */
static struct range leaf_range(const struct tree *t, int v)
{
	struct ctype ty = t->n[v].type;

	if (ty.cls == T_PLAIN_CHAR)
		return char_read;
	return opaque(type_range(ty), ty.cls == T_INT);
}

/* v OP= x: the low bits of the result are those of v and x. */
static int keeps_low_bits(enum op op)
{
	static const enum op ops[] = {
		OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_OR, OP_XOR,
		OP_ADD_A, OP_SUB_A, OP_MUL_A, OP_AND_A, OP_OR_A, OP_XOR_A,
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i] == op)
			return 1;
	return 0;
}

/* The writes of a local, joined: values, and how far loop steps go. */
struct joined_writes {
	struct range r;
	long long top, bottom;	/* of the steps up, down */
	int any, up, down, leaves;
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
	if (lw->unseen)			/* &v, an asm output: any value */
		r = opaque(unknown, 1);
	else if (lw->value < 0 && !lw->rmw)
		return 1;		/* `int c;`: read before a write, undefined */
	else
		r = lw->value < 0 ? unknown : shape_range(t, lw->value, j->leaves);
	/* v += x: x's char goes in; the low bits of + - * & | ^ stay those
	 * of the operands, as a circle through v keeps them */
	if (lw->rmw)
		r = opaque(marked(unknown, r.dep, keeps_low_bits(lw->rmw) ? r.same : 0), 1);
	j->r = j->any ? join(j->r, r) : r;
	j->any = 1;
	return 1;
}

/* The locals whose writes are being joined, innermost last: a write
 * that reads one of them again is a circle (invert = !invert), and
 * whether one was met. */
static _Thread_local CXCursor joining[MAX_RANGE_HOPS];
static _Thread_local int njoining, circled;

/*
 * What a local variable (not static) holds: the join of every value
 * written to it in the function, and of what its counting loops' steps
 * make: a step up goes no further than its loop's limit, and starts
 * from a value written (`for (i = 0; i < 10; i++)`: 0..10).  One
 * changed out of sight (&v, v += x) holds any value (opaque), as a
 * field does.  A local read again while its own writes are joined
 * (acc = acc >> 4) adds no char the other writes do not: when none
 * does, the circle is any value too; when one does, each turn of the
 * circle may shift its same bits away, so none are left.  Too many
 * locals deep, it was not looked at: maybe a char, no bit the same.
 */
static struct range local_range(const struct tree *t, int ref, int leaves)
{
	CXCursor d = clang_getCursorReferenced(t->n[ref].cur);
	struct joined_writes j = { .top = LLONG_MIN, .bottom = LLONG_MAX, .leaves = leaves };
	int ok, was;

	if (!local_variable(d))
		return leaf_range(t, ref);
	for (int k = 0; k < njoining; k++)
		if (clang_equalCursors(joining[k], d)) {
			circled = 1;
			return opaque(unknown, 1);
		}
	if (njoining == MAX_RANGE_HOPS)
		return opaque(marked(unknown, 1, 0), 1);
	was = circled;
	circled = 0;
	joining[njoining++] = d;
	ok = each_local_write(t, d, 1, join_write, &j);
	njoining--;
	if (circled && j.r.dep)
		j.r = opaque(marked(j.r, 1, 0), 1);
	circled |= was;
	if (!ok || !j.any || (j.up && j.down))
		return opaque(marked(unknown, j.any && j.r.dep, 0), 1);
	/* how many steps run depends on the start: a char's start leaves
	 * no bit the same */
	if (j.up)
		return opaque(marked(span(j.r.lo, j.top > j.r.hi ? j.top : j.r.hi), j.r.dep, 0),
			      j.r.opaque);
	if (j.down)
		return opaque(marked(span(j.bottom < j.r.lo ? j.bottom : j.r.lo, j.r.hi), j.r.dep, 0),
			      j.r.opaque);
	return j.r;
}

static struct range node_range(const struct tree *t, int v, int leaves)
{
	const struct node *n = &t->n[v];
	struct range a, b;
	long long k;
	int bk;
	CXCursor f;

	if (is_cast(t, v))
		return shape_range(t, cast_operand(t, v), leaves);	/* fit() below */
	switch (n->kind) {
	case CXCursor_ConditionalOperator:	/* which arm: the test's */
		if (child(t, v, 2) < 0)
			break;		/* GNU a ?: b */
		a = join(shape_range(t, child(t, v, 1), leaves),
			 shape_range(t, child(t, v, 2), leaves));
		return shape_range(t, child(t, v, 0), leaves).dep ? marked(a, 1, 0) : a;
	case CXCursor_UnaryOperator:
		if (n->op == OP_LNOT)	/* differs only where it is judged */
			return span(0, 1);
		if (n->op == OP_INC || n->op == OP_DEC) {	/* ++t: t's low bits, moved */
			a = shape_range(t, child(t, v, 0), leaves);
			return opaque(marked(unknown, a.dep, a.same), 1);
		}
		if (n->op != OP_NEG && n->op != OP_NOT && n->op != OP_PLUS)
			break;		/* *p */
		a = shape_range(t, child(t, v, 0), leaves);
		if (n->op == OP_NEG && known(a))
			return opaque(marked(span(-a.hi, -a.lo), a.dep, a.same), a.opaque);
		if (n->op == OP_NOT && known(a))
			return opaque(marked(span(~a.hi, ~a.lo), a.dep, a.same), a.opaque);
		return n->op == OP_PLUS || a.dep ? a : opaque(unknown, a.opaque);
	case CXCursor_BinaryOperator:
		a = shape_range(t, child(t, v, 0), leaves);
		b = shape_range(t, child(t, v, 1), leaves);
		bk = eval_const(t, child(t, v, 1), &k);
		return binary_range(n->op, a, b, bk, k, n->type);
	case CXCursor_DeclRefExpr:
		return local_range(t, v, leaves);
	case CXCursor_MemberRefExpr:
		f = clang_getCursorReferenced(n->cur);
		if (clang_getCursorKind(f) == CXCursor_FieldDecl && clang_Cursor_isBitField(f))
			return bit_field_range(f);
		break;
	default:
		break;
	}
	if (leaves && ascii_value(t, v))
		return span(0, 0x7f);
	return leaf_range(t, v);
}

static struct range shape_range(const struct tree *t, int v, int leaves)
{
	long long k;

	v = strip_parens(t, v);
	if (v < 0)
		return unknown;
	if (eval_const(t, v, &k))
		return span(k, k);
	if (t->n[v].type.cls == T_BOOL)	/* (bool)(c + 1): its zero test */
		return marked(span(0, 1), (is_cast(t, v) ? shape_range(t, cast_operand(t, v), leaves) :
					   node_range(t, v, leaves)).dep, 0);
	return fit(node_range(t, v, leaves), t->n[v].type);
}

long long value_bound(const struct tree *t, int v)
{
	struct range r = shape_range(t, v, 1);

	return !r.dep && !r.opaque && r.lo >= 0 && r.hi < UNBOUNDED ? r.hi : UNBOUNDED;
}

int shape_ascii(const struct tree *t, int v)
{
	struct range r = shape_range(t, v, 0);

	return !r.dep && !r.opaque && within(r, span(0, 0x7f));
}
