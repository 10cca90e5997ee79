/* The command line: charscan's options, the kbuild calling convention
 * and the merge command. */
#ifndef CHARSCAN_OPTIONS_H
#define CHARSCAN_OPTIONS_H

#include "findings.h"

enum exit_code {
	EXIT_CLEAN = 0,		/* complete, nothing at or above --fail-on */
	EXIT_FINDINGS = 1,
	EXIT_USAGE = 2,		/* usage, database, config or output error */
	EXIT_INCOMPLETE = 3,	/* some TUs could not be scanned */
};

struct options {
	const char *db, *out, *srcroot, *format, *signedness, *config;
	const char *baseline, *diff;
	int jobs, fail_rank, quiet, new_only, print_args;
	unsigned tu_timeout;		/* seconds per TU */
	unsigned long tu_memory;	/* MB per worker */
	unsigned shard_k, shard_n;	/* --shard K/N; n == 0: all TUs */
	const char *summaries;		/* --summaries DIR: the store to write */
	const char *resolve;		/* --resolve DIR: the store to read */
	int rules_set, fail_on_set, signedness_set;
	int fail_on_empty;		/* exit 3 when nothing was scanned */
	int min_confidence;		/* enum confidence: findings below it go */
	struct engine_opts engine;
	char **files;			/* FILE... (or, merge: the inputs) */
	int nfiles;
	int kbuild;			/* --kbuild: the rest is a compiler command */
	int kbuild_argc;
	char **kbuild_argv;		/* "clang" and kbuild's flags and file */
	int merge;			/* charscan merge */
	int no_explain;			/* merge --no-explain: passes left out */
	int confirm;			/* charscan confirm: files end with REPORT */
	const char *changes, *cache, *compiler;	/* confirm's */
	int fix;			/* charscan fix: files is the REPORT */
	int dry_run;			/* fix --dry-run */
	const char *patches;		/* fix --patches DIR */
	int report;			/* charscan report: files is the REPORT,
					 * out the folder */
};

void parse_options(int argc, char **argv, struct options *o);
/* --rules syntax into o->engine.enabled; -1 (message printed) if bad. */
int parse_rules(const char *list, unsigned char *enabled);
unsigned breaks_mask(const char *signedness);

#endif
