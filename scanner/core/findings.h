/* What a scan produces: findings and execution notices, in memory. */
#ifndef CHARSCAN_FINDINGS_H
#define CHARSCAN_FINDINGS_H

#include <stddef.h>
#include "path.h"
#include "rules.h"

/* Which signedness the code misbehaves under. */
enum breaks { BREAKS_SIGNED = 1, BREAKS_UNSIGNED = 2, BREAKS_EITHER = 3 };

struct loc {
	char *path;			/* absolute, resolved */
	unsigned line, col;		/* 1-based, col in bytes */
	unsigned end_line, end_col;	/* end_col exclusive */
	unsigned ucol, end_ucol;	/* the same in UTF-16 units, 0 if unknown */
};

struct related {
	struct loc loc;
	char *message;
	const char *label;		/* "declaration", ...: SARIF link text */
};

struct fix {
	struct loc loc;			/* the bytes to replace */
	char *text;			/* replacement */
	char *deleted;			/* the bytes it replaces, as scanned */
	char *description;
};

#define MAX_RELATED 4

/* How sure a finding is that a byte 0x80-0xff reaches the use: high
 * when one provably does (the code names one, a constant or table holds
 * one, user space or a field written one hands it over), medium when
 * the value's origin is unknown, low when the reader is elsewhere (a
 * CS010 escape).  SARIF rank and properties.confidence. */
enum confidence { CONF_NONE, CONF_LOW, CONF_MEDIUM, CONF_HIGH, NR_CONFIDENCES };

/* SARIF baselineState, against --baseline OLD.sarif. */
enum baseline_state {
	BASELINE_NONE, BASELINE_NEW, BASELINE_UNCHANGED, BASELINE_UPDATED, BASELINE_ABSENT,
	NR_BASELINE_STATES
};

/* Their names in SARIF, for the writer and the reader alike:
 * baselineState and properties.breaksWhenCharIs. */
extern const char *const baseline_names[NR_BASELINE_STATES];
extern const char *const breaks_names[BREAKS_EITHER + 1];
/* "", "low", "medium", "high"; the SARIF rank of each; the level a
 * finding of each confidence has unless the config sets its rule's. */
extern const char *const confidence_names[NR_CONFIDENCES];
extern const int confidence_ranks[NR_CONFIDENCES];
extern const char *const confidence_levels[NR_CONFIDENCES];
/* The confidence spelled s, or -1. */
int confidence_of(const char *s);

struct finding {
	enum rule_id rule;
	struct loc loc;
	char *message;
	char *function;			/* enclosing function or variable */
	char *snippet;			/* the source line of loc */
	char *operand;			/* the char as spelled where it is read,
					 * or NULL */
	unsigned expanded_line;		/* in a macro's argument: the line of the
					 * invocation, which the compiler gives
					 * its code; else 0 */
	enum breaks breaks;
	enum confidence confidence;	/* CONF_NONE: not judged (a pass) */
	char *origin;			/* where the value's bytes come from, or NULL */
	int pass;			/* SARIF kind "pass": judged harmless (--explain) */
	int nrelated;
	struct related related[MAX_RELATED];
	int has_fix;
	struct fix fix;
	/* Filled by findings_finish() unless read back from SARIF: rule,
	 * file, function, line text... */
	char fingerprint[33];
	/* ...and rule, function and the text of the lines before and
	 * after, without the file: a second chance for --baseline. */
	char context_fp[33];
	const char *level;		/* the rule's, or the config's */
	char *suppressed;		/* justification of a charscan-ignore */
	enum baseline_state baseline;
	const char *codegen;		/* the oracle's verdict (confirm), or NULL */
	unsigned codegen_line;		/* changed at this earlier read of operand
					 * (confirm), or 0: on its own line */
};

struct findings {
	struct finding *v;
	size_t len, cap;
};

/* Say f as a pass with this message (taken): no related places, no fix. */
void finding_make_pass(struct finding *f, char *message);

/* A problem with the scan itself, for stderr and SARIF notifications. */
struct notice {
	char *level;			/* "error" or "warning" */
	char *path;			/* file concerned, or NULL */
	char *message;
};

struct notices {
	struct notice *v;
	size_t len, cap;
};

/* The static label ("declaration", "call", ...) spelled s; "related"
 * for any other. */
const char *related_label(const char *s);

struct finding *findings_add(struct findings *f);
void findings_move(struct findings *dst, struct findings *src);
/* Sort, drop duplicates (headers seen by many TUs), fingerprint and
 * level the findings that have none yet. */
struct filecache;
void findings_finish(struct findings *f, const char *srcroot, struct filecache *src);
/* The order findings_finish() sorts in: path, line, column, rule... */
int finding_cmp(const struct finding *a, const struct finding *b);
/* Keep the findings for which keep() is true; free the rest. */
void findings_filter(struct findings *f, int (*keep)(const struct finding *, void *),
		     void *arg);
/* Drop the findings whose index has drop[index] set. */
void findings_drop(struct findings *f, const unsigned char *drop);
void findings_free(struct findings *f);

void notice_add(struct notices *n, const char *level, const char *path,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void notices_move(struct notices *dst, struct notices *src);
/* Sort by file, message and level, and drop duplicates (two TUs that
 * include one broken header say the same): the order of a merge of
 * shards is the order of one scan. */
void notices_finish(struct notices *n);
void notices_free(struct notices *n);

#endif
