/*
 * A declaration's AST as a flat array of nodes with parent links, built
 * once per top-level declaration from libclang cursors, so that rules can
 * look up (the context of a value) as easily as down.
 */
#ifndef CHARSCAN_AST_H
#define CHARSCAN_AST_H

#include <clang-c/Index.h>

enum tclass {
	T_OTHER, T_PLAIN_CHAR, T_SCHAR, T_UCHAR, T_BOOL, T_INT, T_PTR, T_FLOAT
};

struct ctype {
	unsigned char cls;		/* enum tclass */
	unsigned char bits;		/* T_INT, T_*CHAR: width */
	unsigned char is_signed;
};

/* Operators, independent of the libclang version that reports them. */
enum op {
	OP_NONE, OP_MUL, OP_DIV, OP_REM, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
	OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE, OP_AND, OP_XOR, OP_OR,
	OP_LAND, OP_LOR, OP_ASSIGN, OP_MUL_A, OP_DIV_A, OP_REM_A, OP_ADD_A,
	OP_SUB_A, OP_SHL_A, OP_SHR_A, OP_AND_A, OP_XOR_A, OP_OR_A, OP_COMMA,
	/* unary */
	OP_NEG, OP_NOT, OP_LNOT, OP_PLUS, OP_INC, OP_DEC, OP_ADDR, OP_DEREF,
	NR_OPS
};

struct node {
	CXCursor cur;
	enum CXCursorKind kind;
	int parent, first, next;	/* indexes, -1 for none */
	struct ctype type;
	enum op op;
	unsigned char runtime;		/* reads a variable or calls: no constant */
};

struct tree {
	CXTranslationUnit tu;
	struct node *n;
	int len, cap;
};

/* Build the tree of a declaration and everything below it. */
void tree_build(struct tree *t, CXTranslationUnit tu, CXCursor root);
void tree_free(struct tree *t);

int child(const struct tree *t, int i, int k);	/* k-th child or -1 */
int last_child(const struct tree *t, int i);	/* or -1 */
/* Is i what if, while, do or ?: p tests?  For a for, its first clause
 * present: the condition unless it has an init (libclang skips the
 * absent ones), and an init is never a bare value. */
int is_condition_of(const struct tree *t, int p, int i);
/* Is i, a child of p, only tested against zero there: a condition, the
 * operand of !, &&, ||? */
int tested_against_zero(const struct tree *t, int p, int i);
int nchildren(const struct tree *t, int i);
/* Skip parentheses downwards / upwards. */
int strip_parens(const struct tree *t, int i);
int up(const struct tree *t, int i);
/* One past the last node of i's subtree (the tree is in preorder). */
int subtree_end(const struct tree *t, int i);
/* Down through parens and implicit conversions to what was written. */
int strip_implicit(const struct tree *t, int i);
/* Up through parens and implicit conversions: the outermost of them
 * around i (i itself when there is none). */
int climb_implicit(const struct tree *t, int i);
int is_callee(const struct tree *t, int i);

int is_expr(enum CXCursorKind k);
/* A declaration's initializer: its last expression child, or -1. */
int last_expr_child(const struct tree *t, int i);
int is_implicit_cast(const struct tree *t, int i);
int is_loaded(const struct tree *t, int i);	/* read for its value */
int is_cast(const struct tree *t, int i);	/* implicit or explicit */
/* What cast i converts: a cast to a typedef, (uint32_t)c, has the
 * type's name (a TypeRef) as its first child and the operand last. */
int cast_operand(const struct tree *t, int i);

/* The first / last child cursor of c (libclang's own, not the tree's),
 * or null. */
CXCursor cursor_first_child(CXCursor c);
CXCursor cursor_last_child(CXCursor c);
/* The k-th field of struct declaration rec (0-based), or null. */
CXCursor nth_field(CXCursor rec, unsigned k);
struct ctype classify_type(CXType type);
enum op cursor_op(CXTranslationUnit tu, CXCursor c);
const char *op_spelling(enum op op);

int op_is_compare(enum op op);
int op_is_equality(enum op op);	/* == != */
enum op op_mirror(enum op op);	/* a < b  ==  b > a */

/* print.c: expression c as the compiler sees it, for one in a macro's
 * body (caller frees). */
char *expr_print(CXTranslationUnit tu, CXCursor c);

/* Integer constant value of expression i; 0 if not a constant. */
int eval_const(const struct tree *t, int i, long long *value);
/* A constant char compared with a constant: signedness introspection. */
int in_constant_test(const struct tree *t, int i);

#endif
