/*
 * Cross-TU summaries.  A TU's walk leaves records of what crosses its
 * border: the functions it defines, the widened chars it passes to a
 * function it has no body of, the widened chars its functions return,
 * the bodiless functions it calls for an int.  Once every TU is seen,
 * the records are joined into a plan: each TU that can learn something
 * from another is walked a second time with what the others told it.
 * The records are also the summary store a sharded scan leaves for its
 * merge (one file per shard, --summaries DIR).
 */
#ifndef CHARSCAN_SUMMARY_H
#define CHARSCAN_SUMMARY_H

#include <stdint.h>
#include "input/input.h"
#include "core/core.h"
#include "tree/tree.h"

/*
 * D and C are sets, one record per TU: a kernel TU calls hundreds of
 * functions it has no body of, and allmodconfig has 33,900 TUs.  Their
 * names are kept as 64-bit hashes: a collision can only make a name
 * look defined twice (left alone) or called where it is not (a second
 * walk that finds no call: the walk matches the spelled name).
 */
enum xkind {
	X_DEF = 'D',		/* set: functions with external linkage defined here */
	X_ARG = 'A',		/* a widened char passed as argument `arg` of name() */
	X_RET = 'R',		/* name() returns a widened char */
	X_CALL = 'C',		/* set: functions called for an int, no body here */
	X_WRITE = 'W',		/* a plain char field or global `name` (its USR)
				 * is written here: arg says how (enum xwrite) */
	X_READ = 'F',		/* a finding (rule arg, at loc) on a value read
				 * from field or global `name`, text as named */
	X_PARG = 'G',		/* a call gives argument arg of name(), a
				 * char *, memory read as text says: "bytes",
				 * "number"; or name's "address" is taken */
	X_PSTORE = 'P',		/* a CS004 store finding at loc kept: it rests
				 * on what callers give argument arg of name()
				 * ("-": on nothing) */
};

/* How an X_WRITE writes: a struct's fields all at once (XW_RAW: `name`
 * is the struct's USR), or one field. */
enum xwrite {
	XW_ASCII,		/* a value in 0..127 */
	XW_UNKNOWN,		/* any byte, or its address taken */
	XW_COPY,		/* the value of field or global `text` */
	XW_RAW,			/* the struct filled from raw bytes or another
				 * program (memcpy, copy_from_user, a cast) */
	XW_HIGH,		/* a constant outside 0..127 (text: its value) */
	XW_USER,		/* the struct filled from user space (name: its USR) */
	XW_ZERO,		/* the struct zeroed (kzalloc(), memset(p, 0, n)) */
	NR_XWRITES
};

struct xrec {
	char kind;		/* enum xkind */
	char *tu;		/* the TU's file: set by the parent */
	char *name;		/* X_ARG, X_RET */
	uint64_t *set;		/* X_DEF, X_CALL: name hashes, ascending */
	size_t nset, setcap;
	unsigned arg;		/* X_ARG; X_WRITE: enum xwrite; X_READ: the rule */
	char *text;		/* X_ARG: the calling function; X_RET: the char;
				 * X_WRITE: the field copied; X_READ: its name */
	struct loc loc;		/* X_ARG: its CS010 finding; X_RET: the return;
				 * X_WRITE: the write; X_READ: the finding */
	struct domain *d;	/* X_RET: the value returned, per byte;
				 * X_ARG: a value computed from the char, or NULL */
};

struct xrecs {
	struct xrec *v;
	size_t len, cap;
};

struct xrec *xrecs_add(struct xrecs *r, char kind, const char *name);
/* Put name into the TU's set of kind (X_DEF, X_CALL). */
void xrecs_add_name(struct xrecs *r, char kind, const char *name);
uint64_t xname_hash(const char *name);
void xrecs_move(struct xrecs *dst, struct xrecs *src, const char *tu);
void xrecs_free(struct xrecs *r);
void xrec_free(struct xrec *x);

/* One record per line, the same for the wire and the store. */
char *xrec_line(const struct xrec *x);
int xrec_parse(char *line, struct xrec *x);	/* -1 if malformed */

/* What the second walk of one TU is told. */
struct xtu_ctx {
	const struct xrec **seeds;	/* X_ARG of others into functions defined here */
	size_t nseeds;
	const struct xrec **resolved;	/* this TU's X_ARG into a body elsewhere */
	size_t nresolved;
	const struct xrec **rets;	/* X_RET of functions this TU calls */
	size_t nrets;
};

/* A finding's read of a field (X_READ), and what the scan saw written:
 * how many writes, and the one that keeps it from settling (NULL: no
 * write seen, or settled).  Sorted by the finding's place and rule. */
struct field_read {
	const struct xrec *read;
	const struct xrec *why;
	unsigned writes;
};

struct xtu_plan {
	struct xtu_ctx *ctx;		/* one per TU of the database planned for */
	size_t ntus, busy;		/* TUs, and those with something to learn */
	const struct xrec **drop;	/* X_ARG resolved: their CS010 findings go */
	size_t ndrop;
	struct field_read *settled;	/* X_READ of a field every write of
					 * which is in 0..127: the finding goes */
	size_t nsettled;
	struct field_read *unsettled;	/* X_READ of the other fields read */
	size_t nunsettled;
	const struct xrec **bytes;	/* X_PSTORE every caller of which gives
					 * memory read as bytes: the store goes */
	size_t nbytes;
	const struct xrec **bytes_calls;	/* X_PARG, by name and argument */
	size_t nbytes_calls;
	int explain;			/* ... or becomes a pass */
};

/* Join the records; db NULL: only the findings to drop (a merge).
 * explain: the callers of a computed value passed on are walked again
 * too, for their pass (nothing else of theirs changes). */
void xtu_plan(const struct xrecs *r, const struct compdb *db, int explain, struct xtu_plan *p);
void xtu_plan_free(struct xtu_plan *p);
/* Drop the CS010 findings of the plan's resolved escapes, and the
 * findings on fields settled in 0..127 (passes with explain). */
void xtu_drop(struct findings *f, const struct xtu_plan *p);
/* settle.c: the reads of fields every write of which is in 0..127
 * (X_WRITE, X_READ), and their findings taken back. */
void xtu_plan_fields(struct xtu_plan *p, const struct xrecs *r);
void xtu_drop_settled(struct findings *f, const struct xtu_plan *p);
/* A field's or global's USR in words: "field 'level' of struct t". */
char *usr_words(const char *usr);
/* ...and on the other fields' reads, the write that keeps them. */
void xtu_explain_unsettled(struct findings *f, const struct xtu_plan *p);
/* buffers.c: stores into another TU's buffers (X_PARG, X_PSTORE), and
 * those read only as bytes taken back. */
void xtu_plan_buffers(struct xtu_plan *p, const struct xrecs *r);
void xtu_drop_buffers(struct findings *f, const struct xtu_plan *p);
/* Has the plan something to tell this TU (a second walk)? */
int xtu_busy(const struct xtu_ctx *c);
/* Is argument arg of name() one the plan followed into another TU? */
int xtu_resolved(const struct xtu_ctx *c, const char *name, unsigned arg);

/* The store (xstore.c): DIR/shard-K-of-N.sum, written atomically; key identifies the
 * database and the options of the scan, opts ("--rules=... --signedness=...")
 * says the options in words.  Reading checks that all N shards are there,
 * complete, and made with one key (key 0: any), and names the option
 * that differs from opts (NULL: none to compare).  0, or -1 with *err
 * and r emptied. */
int xstore_write(const char *dir, unsigned k, unsigned n, uint64_t key, const char *opts,
		 const struct xrecs *r, char **err);
int xstore_read(const char *dir, uint64_t key, const char *opts, struct xrecs *r, char **err);
/* Before the scan: can a file be created in dir?  0, or -1 with *err. */
int xstore_probe(const char *dir, char **err);
/* The key of a scan: its database's files and its options in words. */
uint64_t xstore_key(const struct compdb *db, const char *opts);

#endif
