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

const char *val_str(val_t v, char *buf, size_t size)
{
	if (v >= ((val_t)1 << 31))
		snprintf(buf, size, "0x%llx", (unsigned long long)v);
	else
		snprintf(buf, size, "%lld", (long long)v);
	return buf;
}
