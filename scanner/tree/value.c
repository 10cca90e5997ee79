/*
 * Values of a plain char per byte and signedness (value.h), and the
 * arithmetic that carries them: C's conversions and operators on
 * 128-bit values, and the walk that computes an expression's domain
 * from the char it is derived from.
 */
#include <stdio.h>
#include "value.h"

void domain_char(struct domain *d)
{
	for (int b = 0; b < 256; b++) {
		d->u[b] = b;
		d->s[b] = b < 128 ? b : b - 256;
	}
}

val_t convert(val_t v, struct ctype to)
{
	unsigned bits = to.bits;
	unsigned __int128 m, x;

	if (to.cls == T_BOOL)
		return v != 0;
	if (!bits || bits >= 128)
		return v;
	m = ((unsigned __int128)1 << bits) - 1;
	x = (unsigned __int128)v & m;
	if (to.is_signed && (x >> (bits - 1)))
		return (val_t)x - ((val_t)1 << bits);
	return (val_t)x;
}

void domain_convert(struct domain *d, struct ctype to)
{
	for (int b = 0; b < 256; b++) {
		d->s[b] = convert(d->s[b], to);
		d->u[b] = convert(d->u[b], to);
	}
}

int domain_differs(const struct domain *d)
{
	for (int b = 128; b < 256; b++)
		if (d->s[b] != d->u[b])
			return 1;
	return 0;
}

int eval_compare(enum op op, val_t a, val_t b)
{
	switch (op) {
	case OP_LT: return a < b;
	case OP_GT: return a > b;
	case OP_LE: return a <= b;
	case OP_GE: return a >= b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	default: return 0;
	}
}

int eval_binop(enum op op, val_t a, val_t b, struct ctype t, val_t *out)
{
	unsigned __int128 ua = (unsigned __int128)a;

	switch (op) {
	case OP_MUL: *out = (val_t)(ua * (unsigned __int128)b); break;
	case OP_DIV: if (!b) return 0; *out = a / b; break;
	case OP_REM: if (!b) return 0; *out = a % b; break;
	case OP_ADD: *out = (val_t)(ua + (unsigned __int128)b); break;
	case OP_SUB: *out = (val_t)(ua - (unsigned __int128)b); break;
	case OP_SHL:
		if (b < 0 || b >= t.bits) return 0;
		*out = (val_t)(ua << (int)b);
		break;
	case OP_SHR:
		if (b < 0 || b >= t.bits) return 0;
		*out = a >> (int)b;	/* arithmetic for negative a, as clang */
		break;
	case OP_AND: *out = a & b; break;
	case OP_OR: *out = a | b; break;
	case OP_XOR: *out = a ^ b; break;
	default: return 0;
	}
	*out = convert(*out, t);
	return 1;
}

/* A cast to plain char truncates to each signedness's own char. */
static void domain_cast(struct domain *d, struct ctype to)
{
	static const struct ctype schar = { T_SCHAR, 8, 1 }, uchar = { T_UCHAR, 8, 0 };

	if (to.cls != T_PLAIN_CHAR) {
		domain_convert(d, to);
		return;
	}
	for (int b = 0; b < 256; b++) {
		d->s[b] = convert(d->s[b], schar);
		d->u[b] = convert(d->u[b], uchar);
	}
}

/* Casts a derived value goes through and keeps its meaning. */
static int is_value_cast(const struct tree *t, int i)
{
	static const unsigned char classes[] = { T_INT, T_UCHAR, T_SCHAR, T_PLAIN_CHAR };

	for (size_t k = 0; is_cast(t, i) && k < sizeof(classes); k++)
		if (t->n[i].type.cls == classes[k])
			return 1;
	return 0;
}

int is_value_op(enum op op)
{
	static const enum op ops[] = { OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_OR, OP_XOR,
				       OP_SHL, OP_SHR };

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (ops[k] == op)
			return 1;
	return 0;
}

/* v = v OP k, or k OP v (side 1), for every byte: 0 if undefined for one. */
static int domain_binop(struct domain *d, enum op op, int side, val_t k, struct ctype t)
{
	val_t *vals[2] = { d->s, d->u };

	for (int s = 0; s < 2; s++)
		for (int b = 0; b < 256; b++)
			if (!(side ? eval_binop(op, k, vals[s][b], t, &vals[s][b]) :
				     eval_binop(op, vals[s][b], k, t, &vals[s][b])))
				return 0;
	return 1;
}

#define MAX_DERIVED 16	/* operators between the leaf and the value */

static int derive(const struct tree *t, int v, leaf_fn *leaf, void *arg, struct domain *d,
		  int depth)
{
	int i = strip_parens(t, v), src, side;
	long long k;

	if (i < 0 || depth > MAX_DERIVED)
		return -1;
	if ((src = leaf(t, i, arg, d)) >= 0)
		return src;
	if (is_value_cast(t, i)) {
		if ((src = derive(t, cast_operand(t, i), leaf, arg, d, depth + 1)) >= 0)
			domain_cast(d, t->n[i].type);
		return src;
	}
	if (t->n[i].kind != CXCursor_BinaryOperator || !is_value_op(t->n[i].op) ||
	    t->n[i].type.cls != T_INT)
		return -1;
	side = eval_const(t, child(t, i, 1), &k) ? 0 : eval_const(t, child(t, i, 0), &k) ? 1 : -1;
	if (side < 0 || (src = derive(t, child(t, i, side), leaf, arg, d, depth + 1)) < 0 ||
	    !domain_binop(d, t->n[i].op, side, convert(k, t->n[i].type), t->n[i].type))
		return -1;
	return src;
}

int expr_domain(const struct tree *t, int v, leaf_fn *leaf, void *arg, struct domain *d)
{
	return derive(t, v, leaf, arg, d, 0);
}

const char *val_str(val_t v, char *buf, size_t size)
{
	if (v >= ((val_t)1 << 31))
		snprintf(buf, size, "0x%llx", (unsigned long long)v);
	else
		snprintf(buf, size, "%lld", (long long)v);
	return buf;
}
