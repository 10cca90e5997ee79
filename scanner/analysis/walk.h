/*
 * Shared by the engine's files: the state of one declaration's walk and
 * one place where a plain char value is observed.
 */
#ifndef CHARSCAN_WALK_H
#define CHARSCAN_WALK_H

#include "tree/tree.h"
#include "engine.h"

/* What a check can conclude: one row each in rules/verdicts.def. */
enum verdict_id {
#define FINDING(name, rule, text) V_##name,
#define PASS(name, rule, text) V_##name,
#include "verdicts.def"
#undef FINDING
#undef PASS
	NR_VERDICTS
};

/* A local integer variable every write of which is a plain char (or a
 * constant): its reads carry the char's two meanings (p4.c's "j"). */
struct carrier {
	CXCursor decl;
	int src;		/* the plain char expression assigned */
	int assign;		/* where */
	int bad;		/* written from something else too */
	struct ctype type;	/* the variable's */
	const char *caller;	/* a parameter: the function passing a char */
	CXCursor call;		/* ... and its call */
	const struct loc *call_loc;	/* ... or where it is in another TU */
	int ret;		/* assigned a call of w->ret[ret], or -1 */
	int derived;		/* assigned a value computed from src (c - '0'):
				 * that expression, or -1 */
};

/* A write of a carrier (carriers.c): where, and the value written. */
struct write {
	int car;		/* index in walk.car */
	int at;			/* the assignment, declaration, ++ or & */
	int value;		/* what a plain write (= or an initializer) writes */
	unsigned char plain;
	unsigned char address;	/* &v: written out of sight */
};

/* Parameter `index` of the function defined at `fn` is given a widened
 * plain char by `caller`: its body is walked again with it as a carrier. */
struct param_in {
	CXCursor fn;
	unsigned index;
	char *caller;
	CXCursor call;		/* null: a call in another TU, at call_loc */
	CXCursor caller_fn;	/* the function the call is in */
	const struct loc *call_loc;
	struct domain *d;	/* a value computed from the char (c - '0'),
				 * per byte; NULL: the widened char itself */
};

/* A function of this TU that returns a widened plain char: its calls
 * are values to follow on in the callers (the value's way out).  Or a
 * field or global variable a widened plain char is stored into: its
 * reads are values to follow in the functions reading it. */
struct ret_val {
	CXCursor fn;		/* canonical: the function, field or variable */
	int field;		/* a field or variable, stored by function `by` */
	char *by;
	CXCursor call;		/* a parameter returned: only this call's */
	CXCursor caller;	/* ... which is in this function */
	char *name;		/* the function's */
	char *what;		/* the plain char expression returned */
	CXCursor stmt;		/* the return statement */
	const struct loc *stmt_loc;	/* ... when it is in another TU */
	CXCursor decl;		/* the char's declaration, for the fix */
	struct domain d;	/* the value returned, per byte */
	int derived;		/* computed from the char: judged where tested */
	int param;		/* the char is the function's own parameter
				 * (index), so each call's argument: or -1 */
};

/* A call from one function of this TU to another that returns an int. */
struct int_call {
	CXCursor caller, callee;	/* callee canonical */
};

/* A table of plain char of this TU: how its uses read it (tables.c). */
/* A function of this TU, and whether every value it returns is in
 * 0..127 (sources.c). */
struct ascii_fn {
	CXCursor fn;		/* its definition */
	int ascii;
};

struct table_use {
	CXCursor var;		/* canonical */
	unsigned signed_reads;	/* (const signed char *)table */
	unsigned other_uses;
};

/* A CS004 finding on a table's initializer, kept until the TU is seen. */
struct table_store {
	CXCursor var;
	size_t finding;		/* index in walk.out */
};

/* Char storage only this TU can see (readback.c): how its reads
 * read it. */
struct store_reads {
	CXCursor var;		/* canonical: a variable, a field or a
				 * static function's char * parameter */
	unsigned byte_reads, number_reads;
	unsigned opaque_args;	/* a parameter: calls passing memory whose
				 * reads are not seen */
	unsigned open_passes;	/* passed to another TU's char * (counted in
				 * number_reads too: xbuffers.c) */
};

/* An array of this TU passed as argument k of a function with external
 * linkage whose parameter is a char * (xbuffers.c). */
struct open_arg {
	CXCursor var;		/* canonical */
	char *fn;
	unsigned k;
	struct loc loc;		/* the call */
};

/* A CS004 store finding kept here: the open parameter whose callers'
 * memory decides it, or the header's field whose reads do (null:
 * nothing else can take it back). */
struct kept_store {
	size_t finding;		/* index in walk.out */
	CXCursor dep;
	char *expr;		/* the constant, for the pass */
	int value;		/* dep is a function, its char parameter
				 * index rests on its callers' values */
	int index;
};

/* A local char *: does it point into fresh memory only (aliases.c)? */
struct local_pointer {
	CXCursor var;		/* canonical */
	int fresh;
};

/* A finding on a plain char field: a CS004 store into it (store: the
 * constant as written) or one on a value read from it (fold.c). */
struct field_use {
	CXCursor field;		/* canonical */
	size_t finding;		/* index in walk.out */
	char *store;
};

/* Storage `from` passed to buffer parameter `to` of a static function. */
struct store_link {
	CXCursor from, to;	/* canonical */
};

/* A constant member of a table entry beside the bytes stored (tags.c):
 * .type = DELAY_CMD. */
struct tag {
	CXCursor field;		/* canonical */
	long long value;
};

#define MAX_TAGS 4
#define MAX_GUARD_VALUES 8

/* The entries a read of a field can see: those whose member `field`
 * holds one of v[0..n), under switch (p->field) or if (p->field == K);
 * n < 0: every entry. */
struct tag_guard {
	CXCursor field;
	long long v[MAX_GUARD_VALUES];
	int n;
};

/* A CS004 finding on a store into such storage, kept until the TU is
 * seen. */
struct store_finding {
	CXCursor var;
	size_t finding;		/* index in walk.out */
	char *expr;		/* the constant, for the pass */
	struct tag tags[MAX_TAGS];	/* of its table entry */
	int ntags;
};

/* A read of a table's char * field as a number, under its guard. */
struct number_read {
	CXCursor var;		/* canonical */
	struct tag_guard guard;
};

/* A value returned by a function with internal linkage: its CS010 note
 * and its pass (SIZE_MAX: none), one of which goes once the TU tells
 * whether the function's address is taken (then callers are unknown). */
struct static_return {
	CXCursor fn;		/* canonical */
	size_t note, pass;	/* indices in walk.out */
};

/* A plain char parameter of a function only this TU calls (params.c);
 * index -1 holds whether the function's address is taken. */
struct param_use {
	CXCursor fn;		/* canonical */
	int index;
	unsigned ascii_args, other_args;
	int address_taken;
	/* calls that pass a parameter of the calling function, one the
	 * join judges by its own calls (via, argument via_index) */
	unsigned via_args;
	CXCursor via;
	int via_index;
};

/* A finding about such a parameter's char, kept until the TU is seen. */
struct param_finding {
	CXCursor fn;
	int index;
	size_t finding;		/* index in walk.out */
};

struct walk {
	CXTranslationUnit tu;
	const struct engine_opts *opts;
	struct findings *out;
	const struct xtu_ctx *xin;	/* what other TUs told this one */
	struct xrecs *xout;		/* what this one tells them */
	struct tree t;
	char *function;		/* name of the declaration walked */
	struct carrier *car;
	size_t ncar, carcap;
	struct write *wr;	/* every write of a carrier */
	size_t nwr, wrcap;
	struct param_in *pin;	/* calls into bodies of this TU */
	size_t npin, pincap;
	const struct param_in *seed;	/* walking a callee for this one */
	struct ret_val *ret;	/* functions returning a widened char */
	size_t nret, retcap;
	struct int_call *calls;
	size_t ncalls, callcap;
	int ret_pass;		/* walking callers: only the calls of ret[] */
	size_t ret_from;	/* ... from this one on (the last round's) */
	struct table_use *tab;
	size_t ntab, tabcap;
	struct table_store *tstore;
	size_t ntstore, tstorecap;
	struct store_reads *sread;
	size_t nsread, sreadcap;
	struct store_finding *sfind;
	size_t nsfind, sfindcap;
	struct store_link *slink;
	size_t nslink, slinkcap;
	struct number_read *nread;	/* of char * fields, guarded */
	size_t nnread, nreadcap;
	struct param_use *param;
	size_t nparam, paramcap;
	struct static_return *sret;	/* returns of static functions */
	size_t nsret, sretcap;
	struct param_finding *pfind;
	size_t npfind, pfindcap;
	struct ascii_fn *afn;	/* functions asked: do they return 0..127? */
	size_t nafn, afncap;
	struct ascii_fn *alocal;	/* local ints asked: do they hold 0..127? */
	size_t nalocal, alocalcap;
	struct uncalled *uncalled;	/* static functions with findings */
	size_t nuncalled, uncalledcap;
	CXCursor xdep;		/* the open parameter a store rests on */
	int nxdep;
	struct open_arg *oarg;	/* arrays passed to open parameters */
	size_t noarg, oargcap;
	struct kept_store *kept;	/* CS004 stores kept, for the join */
	size_t nkept, keptcap;
	char **fread_seen;	/* header fields' reads told (key and kind) */
	size_t nfread, freadcap;
	struct field_use *fuse;	/* findings on fields, stores and reads */
	size_t nfuse, fusecap;
	struct local_pointer *localp;	/* local char *s asked about */
	size_t nlocalp, localpcap;
};

/* A plain char value on its way to where it is observed. */
struct occ {
	int ref;		/* what is read: the char, or the carrier */
	int src;		/* the plain char expression */
	int carrier;		/* index in walk.car, or -1 */
	int top;		/* the value after its integer conversions */
	int ctx;		/* the parent of top: where it is observed */
	int derived;		/* computed from the char (c | 0x20, c - '0') */
	struct domain d;	/* its value per byte and signedness */
	/* Set by a check that finds the observed result the same for
	 * every byte: its verdict (enum verdict_id, or -1) and where. */
	int pass;
	int pass_node;
	/* Set by a check that computed a new value from the char without
	 * observing it (c - '0', c | 0x20): d is that value, to be
	 * followed on from ctx. */
	int goes_on;
};

/* carriers.c */
void find_carriers(struct walk *w);			/* of the tree walked */
int find_carrier(struct walk *w, CXCursor decl);	/* -1 if none */
int referenced_carrier(struct walk *w, int i);		/* of a DeclRefExpr */
/* The plain char expression node i widens to an integer, or -1. */
int widened_char(const struct tree *t, int i);
/* Expression v as a plain char widened and combined with constants
 * (c - '0', (c | 0x20) << 1): its value per byte in *d and the char
 * expression, or -1 when v is anything else. */
int char_expr(const struct tree *t, int v, struct domain *d);
/* c ^ d, c & d, c | d of two widened plain chars: the left one, or -1. */
int bitwise_chars(const struct tree *t, int i);
/* reaching.c: the one write (index in w->wr) that reaches carrier k's
 * read, or -1 when more than one may, or it cannot tell. */
int reaching_write(const struct walk *w, int k, int read);
/* The variable node i writes (v = x, v += x, v++, &v): its DeclRefExpr,
 * or -1. */
int written_ref(const struct tree *t, int i);
/* The value of the one write of local decl that reaches read, or -1. */
int reaching_value(const struct walk *w, CXCursor decl, int read);
/* carriers.c: a carrier of its own for a read only that write reaches,
 * if it writes a char; its index, or -1. */
int reached_carrier(struct walk *w, int k, int read);
/* Which argument of call arg is, or -1. */
int argument_index(const struct tree *t, int call, int arg);
/* A widened plain char is passed to a function of this TU: queue its
 * body, to be walked again with that parameter as the carrier. */
/* A verdict's message template, or a pass's reason. */
const char *verdict_text(enum verdict_id id);
int seed_parameter(struct walk *w, struct param_in p, const struct domain *d);
int follow_into(struct walk *w, int call, int arg, const struct domain *d);
void pass_on_derived(struct walk *w, struct occ *o);

/* checks.c: one function per kind of context. */
void check_context(struct walk *w, struct occ *o);
/* ...and what stores.c shares with it. */
struct report_at at_value(struct walk *w, const struct occ *o, int node);
char *value_name(struct walk *w, const struct occ *o);	/* caller frees */
int is_lhs(const struct walk *w, const struct occ *o);
int other_operand(const struct walk *w, const struct occ *o);
/* compare.c: a comparison of the value (CS001, CS002, CS003, CS008). */
void check_compare(struct walk *w, struct occ *o);
/* CS006 verdict id at o->ctx (type: for V_EXTENDED_STORED): byte b gives
 * vs when char is signed, vu when it is unsigned. */
void report_extension(struct walk *w, struct occ *o, enum verdict_id id, const char *type,
		      int b, val_t vs, val_t vu);
/* stores.c */
void check_store(struct walk *w, struct occ *o);

/* bits.c: whether the bits in which a value's two meanings differ are
 * observed, from node i up. */
int settles(struct walk *w, int i, const struct domain *d);
int bits_dropped(struct walk *w, int i, unsigned long long mask);
unsigned long long differing_bits(const struct domain *d);
/* The observed result is the same for every byte: say why (--explain). */
void harmless(struct occ *o, enum verdict_id why, int node);
void check_stores(struct walk *w);	/* constants into plain char */
/* The string literal argument arg is (through conversions), as written
 * between its quotes; NULL if none (caller frees). */
char *literal_text(CXCursor arg);


/* returns.c: a widened plain char returned as an int goes on in the
 * callers of this TU. */
void note_int_calls(struct walk *w);			/* of the tree walked */
void record_return(struct walk *w, const struct occ *o);
/* o is stored into a field or a global variable (lhs: node). */
void record_field(struct walk *w, const struct occ *o, int lhs);
int returned_value(struct walk *w, int i);	/* index in w->ret, or -1 */
/* The function that returned o's value (a call, or a variable assigned
 * one), or NULL. */
const struct ret_val *returned_by(struct walk *w, const struct occ *o);
/* The callers to walk again for the functions recorded from w->ret[from]
 * on (malloc'd array; count returned). */
size_t callers_of_returners(struct walk *w, size_t from, CXCursor **callers);
void returns_free(struct walk *w);
/* The functions other TUs return a widened char from (w->xin), as if
 * their bodies were here. */
void preload_returns(struct walk *w);

/* guard.c: the condition that lets only bytes 0x00-0x7f reach o's
 * observation, or -1. */
int ascii_guard(struct walk *w, const struct occ *o);
/* The same for the plain char read at node read, as it is read there. */
int ascii_guarded_read(struct walk *w, int read);
/* An integer of any type read at node read behind a condition that only
 * 0..127 pass (intervals.c judges the condition on sets of values). */
int int_ascii_guarded(struct walk *w, int read);
int keeps_int_ascii(struct walk *w, int cond, const char *key, int want);
/* Is node i the value key names (guard.c's text of a value)? */
int key_at(struct walk *w, int i, const char *key);
/* Is argument arg of call i ASCII there (a constant, an ASCII source, or
 * guarded)?  The verdict that says so, or -1. */
int ascii_argument(struct walk *w, int call, int arg);
/* ...or that lets bytes 0x80-0xff reach it under one signedness only. */
int one_sided_guard(struct walk *w, const struct occ *o);
/* The condition that compares o's value on the way to its observation
 * (p4.c's j != -1 before test_bit(j, ...)), or -1. */
int tested_guard(struct walk *w, const struct occ *o);
/* ...by a test whose answer differs between the signednesses (that
 * test is the finding), or -1. */
int judging_guard(struct walk *w, const struct occ *o);

/* sources.c: a source that holds bytes 0x00-0x7f only (a const ASCII
 * table, a local assigned only ASCII constants, reads of such tables or
 * values masked to 0..127); a value that is one. */
int ascii_source(struct walk *w, int src);
int ascii_value(const struct tree *t, int v);
/* The same with what the walk sees: guards, this TU's functions. */
int ascii_value_seen(struct walk *w, int v);
/* locals.c: each write of local variable decl in the tree, to fn until
 * it returns 0: a value (-1: none, `int c;`); with steps the step of a
 * counting loop whose test keeps what it makes <= lim (step +1) or >=
 * lim (step -1); a change in place (c += x: rmw the operator's, value
 * x; c++: rmw OP_ADD, no value); or one out of sight (unseen: &c, an
 * asm output).  0 when fn said so, or when decl is not declared in the
 * tree. */
struct local_write {
	int value;
	int step;
	long long lim;
	enum op rmw;
	int unseen;
};
int each_local_write(const struct tree *t, CXCursor decl, int steps,
		     int (*fn)(const struct tree *, const struct local_write *, void *), void *arg);
/* Is node i (conversions off) a read or write of variable decl? */
int refers_to_decl(const struct tree *t, int i, CXCursor decl);
/* A variable declared in a function, not static or extern. */
int local_variable(CXCursor d);

/* ranges.c: the largest value v can have, when it is never negative,
 * from its shape (masks, shifts, sums, remainders, truth values, narrow
 * bit-fields; parts ascii_value() proves), or UNBOUNDED; whether its
 * shape alone keeps it in 0..127. */
#define UNBOUNDED 0x7fffffff
long long value_bound(const struct tree *t, int v);
int shape_ascii(const struct tree *t, int v);
/* Argument arg points at an ASCII-only constant table or literal. */
int ascii_pointer(const struct tree *t, int arg);
/* Node i reads a local variable whose one write is its initializer, a
 * constant (min/max's temporaries: typeof(y) __y = (y)): its value. */
int constant_local(struct walk *w, int i, long long *k);

/* fields.c: what this TU writes into plain char fields and globals, and
 * a finding on a value read from one (decl), for the join across TUs. */
void note_field_writes(struct walk *w);			/* of the tree walked */
void note_field_read(struct walk *w, const struct finding *f, CXCursor decl, int operand);
/* The declaration a value read at node `read` comes from: decl, or the
 * field or global a local (decl) holds a copy of there. */
CXCursor origin_decl(struct walk *w, CXCursor decl, int read);

/* origin.c: the finding's confidence and the origin of its bytes. */
struct report_at;
void judge_origin(struct walk *w, struct finding *f, const struct report_at *at);

/* tables.c: CS004 on tables read only through signed char pointers. */
void note_table_uses(struct walk *w);			/* of the tree walked */
void note_table_store(struct walk *w, CXCursor var, size_t finding);
void drop_signed_tables(struct walk *w, unsigned char *drop);	/* frees */

/* readback.c: CS004 on char storage of this TU read only as bytes. */
void note_store_reads(struct walk *w);			/* of the tree walked */
void note_store_finding(struct walk *w, CXCursor var, size_t finding, const char *expr,
			const struct tag *tags, int ntags);
/* tags.c: which entries of a tagged table a read sees.  A compound
 * literal's bytes (list: its initializer) kept behind a field, `.data =
 * (char[]){ 0xb0, 0x05 }` or positionally: that field, or null; and the
 * constant members of its entry. */
CXCursor literal_field(struct walk *w, int list);
int entry_tags(struct walk *w, int list, struct tag *tags, int max);
void read_tag_guard(struct walk *w, int read, struct tag_guard *g);
int guard_sees(const struct tag_guard *g, const struct tag *tags, int ntags);
void drop_byte_stores(struct walk *w, unsigned char *drop);	/* frees */
/* A char * field of the main file's struct, or a local_pointer(). */
int tracked_pointer(struct walk *w, CXCursor c);
/* aliases.c: a local char * into fresh memory only, and how a pointer
 * into char memory is used at top (the outermost node of its value):
 * its byte read at *deref, nothing read (compared, overwritten, tested,
 * or stored into another tracked pointer: linked), or anything else. */
enum { PTR_OTHER, PTR_NONE, PTR_DEREF };
int local_pointer(struct walk *w, CXCursor c);
/* v gives a pointer memory of its own: NULL, an allocator's. */
int fresh_memory(const struct tree *t, int v);
int pointer_use(struct walk *w, CXCursor var, int top, int *deref);
/* Read only as bytes here, but for its one pass to an open parameter? */
int bytes_but_passed(struct walk *w, CXCursor var);
/* xbuffers.c: char * parameters of functions other TUs call.  The
 * records of a call's arguments, of a function's address taken, and
 * (after every drop of the TU) of the CS004 stores kept. */
int open_param(CXCursor c);
int byte_memory(struct walk *w, int a);		/* u8 *, s8 *, u8 [] */
/* A struct or union declaration. */
int is_record(CXCursor c);
int open_field(CXCursor c);
void note_header_field_read(struct walk *w, CXCursor field, int bytes);
int open_char_param(CXCursor callee, int k);
void note_open_call(struct walk *w, int call, CXCursor callee);
void note_open_address(struct walk *w, CXCursor fn);
void note_kept_store(struct walk *w, size_t finding, CXCursor dep, const char *expr);
/* A finding on char parameter k of fn, a function other TUs call, and
 * what a call gives that parameter (ascii: 0..127 only). */
void note_kept_value(struct walk *w, size_t finding, CXCursor fn, int k);
void note_value_argument(struct walk *w, int call, CXCursor fn, int k, int ascii);
void note_open_args(struct walk *w);				/* frees */
void note_kept_records(struct walk *w, const unsigned char *drop);	/* frees */
/* fold.c: a CS004 store into a field folded into the findings on that
 * field's reads in the TU. */
void note_field_use(struct walk *w, size_t finding, CXCursor field, const char *store);
CXCursor init_field(const struct tree *t, int i);
void fold_stores(struct walk *w, unsigned char *drop);		/* frees */
int used_as_byte(struct walk *w, int i);	/* a (char)K read at once */
/* stores.c: is arg of call the char memset, strchr, putc... take back
 * from an int? */
int to_char_consumer(const struct walk *w, int call, int arg);

/* params.c: findings about char parameters every call passes ASCII. */
void note_param_args(struct walk *w);			/* of the tree walked */
void note_param_finding(struct walk *w, CXCursor decl, size_t finding);
int address_taken(struct walk *w, CXCursor fn);		/* once the TU is seen */
void drop_ascii_params(struct walk *w, unsigned char *drop);	/* frees */
/* uncalled.c: the findings a static function's walk from out index
 * `from` on made; at the end, those of functions nothing refers to. */
void note_static_walk(struct walk *w, CXCursor fn, size_t from);
void drop_uncalled(struct walk *w, unsigned char *drop);	/* frees */
void note_static_return(struct walk *w, size_t note, size_t pass);
void settle_static_returns(struct walk *w, unsigned char *drop);	/* frees */

/* report.c */
struct report_at {
	int node;		/* where: a node of w->t */
	CXCursor decl;		/* the char's declaration, or null */
	int assign;		/* carrier assignment node, or -1 */
	const struct carrier *car;	/* the carrier, or NULL */
	const struct ret_val *ret;	/* returned by a function, or NULL */
	int operand;		/* the char (or its carrier) as read, or -1 */
};

/* What a check concludes: the rule, message and kind of result come
 * from the verdict's row in rules/verdicts.def, the facts from here. */
struct verdict {
	enum verdict_id id;
	enum breaks br;		/* the signedness it misbehaves under */
	struct report_at at;
	const char *value;	/* {value}, {expr}, ...: see verdicts.def */
	const char *expr;
	const char *other;
	const char *callee;
	const char *type;
	const char *printed_s, *printed_u;
	int byte;
	val_t vs, vu;
	long long k, k2;
	int more;
};
/* A finding from a FINDING verdict. */
void judge(struct walk *w, const struct verdict *v);
/* --explain: a result of kind pass from a PASS verdict, at node. */
void report_pass(struct walk *w, enum verdict_id id, int node);
/* The same, at node, quoting what the pass is about (named). */
void report_pass_of(struct walk *w, enum verdict_id id, int node, int named);
CXCursor trace_decl(const struct tree *t, int i);
/* The storage a store to lvalue i writes: *p++ = c writes p's memory. */
CXCursor trace_storage(const struct tree *t, int i);
char *node_text(struct walk *w, int i);
char *operand_text(struct walk *w, int i);	/* parens, conversions off */
/* The macro a node is expanded from (its MacroExpansion cursor in *macro
 * when macro is not NULL), or NULL when not in a macro. */
char *macro_name(struct walk *w, int i, CXCursor *macro);

#endif
