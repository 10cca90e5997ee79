#include <string.h>
#include <strings.h>
#include "rules.h"
#include "rule_help.h"		/* generated from rules/<id>.md */

const struct rule rules[NR_RULES] = {
#define RULE(id_, name_, level_, prec_, sev_, cwe_, cert_, fix_, judges_, sd_, fd_) \
	[id_] = { #id_, name_, #level_, prec_, sev_, cwe_, cert_, fix_, judges_, sd_, fd_, \
		  help_##id_ },
#include "rules.def"
#undef RULE
};

int rule_lookup(const char *key)
{
	for (int i = 0; i < NR_RULES; i++)
		if (!strcasecmp(key, rules[i].id) || !strcmp(key, rules[i].name))
			return i;
	return -1;
}

int level_rank(const char *level)
{
	static const char *const names[] = { "none", "note", "warning", "error" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(level, names[i]))
			return i;
	return -1;
}
