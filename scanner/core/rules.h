/* The rule catalogue (rules/rules.def) as a C table. */
#ifndef CHARSCAN_RULES_H
#define CHARSCAN_RULES_H

enum fix_kind { FIX_DECL, FIX_CAST };
enum judges { CODE, DATA };		/* see rules.def */

enum rule_id {
#define RULE(id, ...) id,
#include "rules.def"
#undef RULE
	NR_RULES
};

struct rule {
	const char *id;
	const char *name;
	const char *level;		/* "error", "warning", "note" */
	const char *precision;		/* GitHub: very-high|high|medium|low */
	const char *security_severity;	/* GitHub: "0.1".."10.0" */
	const char *cwe;		/* "194" */
	const char *cert;		/* "INT07-C" */
	enum fix_kind fix;
	enum judges judges;
	const char *short_desc;
	const char *full_desc;
	const char *help_md;		/* rules/<id>.md, compiled in */
};

extern const struct rule rules[NR_RULES];

/* What a scan looks for: the options the walk reads. */
struct engine_opts {
	unsigned char enabled[NR_RULES];
	unsigned breaks_mask;		/* BREAKS_SIGNED | BREAKS_UNSIGNED */
	int explain;			/* also the harmless widenings, as passes */
};

/* By id ("CS001") or name ("char-compare-dead"); -1 if unknown. */
int rule_lookup(const char *key);
int level_rank(const char *level);	/* note 1, warning 2, error 3 */

#endif
