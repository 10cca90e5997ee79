/*
 * The value a plain char takes for each byte 0x00-0xff, once when char
 * is signed and once when it is unsigned, carried through the integer
 * conversions that follow.  A place is sign-dependent exactly when what
 * it observes differs between the two for some byte.
 */
#ifndef CHARSCAN_VALUE_H
#define CHARSCAN_VALUE_H

#include <stddef.h>
#include "ast.h"

typedef __int128 val_t;

struct domain {
	val_t s[256];		/* value when char is signed */
	val_t u[256];		/* value when char is unsigned */
};

void domain_char(struct domain *d);
void domain_convert(struct domain *d, struct ctype to);
int domain_differs(const struct domain *d);

val_t convert(val_t v, struct ctype to);
/* a OP b in type t; 0 when it is undefined (division by zero, shift
 * out of range) or OP is not arithmetic. */
int eval_binop(enum op op, val_t a, val_t b, struct ctype t, val_t *out);
int eval_compare(enum op op, val_t a, val_t b);
/* Operators a value goes through with a constant and stays one value. */
int is_value_op(enum op op);

/*
 * An expression as a function of one leaf: the leaf, casts of it to an
 * integer or char type, and it with a constant through + - * & | ^ << >>
 * (c - '0', (unsigned char)c >> 4).  leaf() says whether node i is one:
 * then it fills in the leaf's domain and returns the node to report (the
 * char read), else -1.  The expression's domain in d, and that node; -1
 * when v is none of these or its arithmetic is undefined for a byte.
 */
typedef int leaf_fn(const struct tree *t, int i, void *arg, struct domain *d);
int expr_domain(const struct tree *t, int v, leaf_fn *leaf, void *arg, struct domain *d);

/* Decimal, or hex for large unsigned values (0xffffffff). */
const char *val_str(val_t v, char *buf, size_t size);

#endif
