/*
 * charscan: find where plain char means something different when char
 * is signed than when it is unsigned.  See usage() or README.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <clang-c/Index.h>
#include "compdb.h"
#include "output.h"
#include "sarif.h"
#include "scan.h"
#include "text.h"
#include "util.h"
#include "version.h"

enum exit_code {
	EXIT_CLEAN = 0,		/* complete, nothing at or above --fail-on */
	EXIT_FINDINGS = 1,
	EXIT_USAGE = 2,		/* usage, database or output error */
	EXIT_INCOMPLETE = 3,	/* some TUs could not be scanned */
};

static const char usage_text[] =
"NAME\n"
"    charscan - find code whose meaning depends on the signedness of plain char\n"
"\n"
"SYNOPSIS\n"
"    charscan -p BUILD_DIR|compile_commands.json [OPTIONS] [FILE...]\n"
"    charscan --list-rules | --version | --help\n"
"\n"
"DESCRIPTION\n"
"    Parses every entry of the compile database with libclang (argv form,\n"
"    never through a shell) and reports each place where a plain char is\n"
"    observed differently when char is signed (x86) than when it is\n"
"    unsigned (Arm, -funsigned-char, Linux >= 6.2).  Both signednesses are\n"
"    judged in one scan.  FILEs restrict the scan to those entries.\n"
"\n"
"OPTIONS\n"
"    -p PATH            compile_commands.json, or the directory holding it\n"
"    -o FILE            write the SARIF 2.1.0 report to FILE (atomically)\n"
"    --format FMT       sarif (default with -o) or text: gcc-style lines\n"
"                       on stdout (default without -o; also with -o)\n"
"    -j N               parse N TUs at a time (default: online CPUs)\n"
"    --signedness S     both (default), signed or unsigned: report only what\n"
"                       misbehaves when char has that signedness\n"
"    --rules LIST       comma-separated rule ids or names to run; a leading\n"
"                       '-' removes one from the full set (--rules=-CS003)\n"
"    --srcroot DIR      base of relative SARIF URIs (default: the database's\n"
"                       directory)\n"
"    --fail-on LEVEL    error, warning (default), note or none: the lowest\n"
"                       level of finding that makes the exit status 1\n"
"    -q, --quiet        no progress line and no summary on stderr\n"
"    --list-rules       print the rule catalogue\n"
"    --version, --help\n"
"\n"
"EXIT STATUS\n"
"    0  scan complete, no finding at or above --fail-on\n"
"    1  findings at or above --fail-on\n"
"    2  usage error, unreadable or malformed database, unwritable output\n"
"    3  scan incomplete: some TUs failed (the report lists them and\n"
"       everything found in the rest)\n";

struct options {
	const char *db, *out, *srcroot, *format, *signedness;
	int jobs, fail_rank, quiet;
	struct engine_opts engine;
	char **files;
	int nfiles;
};

static void list_rules(void)
{
	for (int i = 0; i < NR_RULES; i++)
		printf("%s  %-24s %-8s CWE-%-4s %-8s %s\n", rules[i].id, rules[i].name,
		       rules[i].level, rules[i].cwe, rules[i].cert, rules[i].short_desc);
}

static int parse_rules(const char *list, unsigned char *enabled)
{
	char *copy = xstrdup(list), *save = NULL;
	int subtractive = list[0] == '-';

	memset(enabled, subtractive, NR_RULES);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int neg = tok[0] == '-', r = rule_lookup(tok + neg);

		if (r < 0) {
			fprintf(stderr, "charscan: unknown rule '%s' (see --list-rules)\n", tok + neg);
			free(copy);
			return -1;
		}
		enabled[r] = !neg;
	}
	free(copy);
	return 0;
}

static unsigned breaks_mask(const char *s)
{
	static const struct { const char *name; unsigned mask; } names[] = {
		{ "both", BREAKS_SIGNED | BREAKS_UNSIGNED },
		{ "signed", BREAKS_SIGNED },
		{ "unsigned", BREAKS_UNSIGNED },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].mask;
	return 0;
}

static void usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "charscan: %s%s%s\nTry 'charscan --help'.\n", msg,
		arg ? ": " : "", arg ? arg : "");
	exit(EXIT_USAGE);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_FORMAT = 256, O_SIGNEDNESS, O_RULES, O_SRCROOT, O_FAIL_ON,
	       O_LIST, O_VERSION, O_HELP };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "signedness", required_argument, NULL, O_SIGNEDNESS },
		{ "rules", required_argument, NULL, O_RULES },
		{ "srcroot", required_argument, NULL, O_SRCROOT },
		{ "fail-on", required_argument, NULL, O_FAIL_ON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list-rules", no_argument, NULL, O_LIST },
		{ "version", no_argument, NULL, O_VERSION },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	opterr = 0;		/* our own one-line message instead */
	o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	o->signedness = "both";
	o->fail_rank = level_rank("warning");
	memset(o->engine.enabled, 1, NR_RULES);
	while ((c = getopt_long(argc, argv, "p:o:j:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': o->db = optarg; break;
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'j':
			o->jobs = (int)strtol(optarg, &end, 10);
			if (*end || o->jobs < 1 || o->jobs > 1024)
				usage_error("-j takes a number from 1 to 1024", optarg);
			break;
		case O_FORMAT:
			if (strcmp(optarg, "sarif") && strcmp(optarg, "text"))
				usage_error("--format is sarif or text", optarg);
			o->format = optarg;
			break;
		case O_SIGNEDNESS:
			if (!breaks_mask(optarg))
				usage_error("--signedness is both, signed or unsigned", optarg);
			o->signedness = optarg;
			break;
		case O_RULES:
			if (parse_rules(optarg, o->engine.enabled))
				exit(EXIT_USAGE);
			break;
		case O_SRCROOT: o->srcroot = optarg; break;
		case O_FAIL_ON:
			o->fail_rank = level_rank(optarg);
			if (o->fail_rank < 0)
				usage_error("--fail-on is error, warning, note or none", optarg);
			break;
		case O_LIST: list_rules(); exit(EXIT_CLEAN);
		case O_VERSION: {
			CXString v = clang_getClangVersion();

			printf("charscan %s (%s)\n", CHARSCAN_VERSION, clang_getCString(v));
			clang_disposeString(v);
			exit(EXIT_CLEAN);
		}
		case O_HELP: fputs(usage_text, stdout); exit(EXIT_CLEAN);
		default:
			usage_error(optopt && optopt < 256 ? "option needs a value or is unknown" :
				    "unknown option", argv[optind - 1]);
		}
	}
	if (!o->db)
		usage_error("-p BUILD_DIR is required", NULL);
	if (o->format && !strcmp(o->format, "sarif") && !o->out)
		usage_error("--format sarif needs -o FILE", NULL);
	o->engine.breaks_mask = breaks_mask(o->signedness);
	o->files = argv + optind;
	o->nfiles = argc - optind;
}

static void print_notices(const struct notices *ns)
{
	for (size_t i = 0; i < ns->len; i++)
		fprintf(stderr, "charscan: %s: %s\n", ns->v[i].level, ns->v[i].message);
}

static void print_summary(const struct scan_result *r, double secs)
{
	size_t per_rule[NR_RULES] = { 0 };

	for (size_t i = 0; i < r->findings.len; i++)
		per_rule[r->findings.v[i].rule]++;
	fprintf(stderr, "charscan: %zu TUs, %zu failed, %zu findings", r->tus_scanned,
		r->tus_failed, r->findings.len);
	for (int i = 0; i < NR_RULES; i++)
		if (per_rule[i])
			fprintf(stderr, " %s:%zu", rules[i].id, per_rule[i]);
	fprintf(stderr, ", %.1f s\n", secs);
}

static int exit_status(const struct options *o, const struct scan_result *r, int incomplete)
{
	if (incomplete)
		return EXIT_INCOMPLETE;
	for (size_t i = 0; i < r->findings.len; i++)
		if (o->fail_rank && level_rank(rules[r->findings.v[i].rule].level) >= o->fail_rank)
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

int main(int argc, char **argv)
{
	struct options o;
	struct compdb db;
	struct scan_result res = { 0 };
	struct output out = { 0 };
	struct timespec t0, t1;
	char *err = NULL;
	const char *srcroot;
	int incomplete, status;

	parse_options(argc, argv, &o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (o.out && output_open(&out, o.out, &err))
		goto fatal;
	if (compdb_load(o.db, &db, &res.notices, &err) ||
	    (o.nfiles && compdb_select(&db, o.files, o.nfiles, &err))) {
		output_abort(&out);
		compdb_free(&db);
		goto fatal;
	}
	{
		struct notices load_notes = res.notices;

		scan(&db, &o.engine, o.jobs, !o.quiet && isatty(2), &res);
		/* Database problems first, then per-TU ones, in order. */
		notices_move(&load_notes, &res.notices);
		res.notices = load_notes;
	}
	srcroot = o.srcroot ? o.srcroot : db.dir;
	findings_finish(&res.findings, srcroot);
	incomplete = res.tus_failed || res.notices.len;
	print_notices(&res.notices);
	if (o.out) {
		struct sarif_run run = { srcroot, o.signedness, !incomplete };

		if (write_sarif(out.f, &res.findings, &res.notices, &run) ||
		    output_commit(&out, &err)) {
			output_abort(&out);
			status = EXIT_USAGE;
			fprintf(stderr, "charscan: %s\n", err ? err : "cannot write SARIF");
			free(err);
			goto done;
		}
	}
	if (!o.out || (o.format && !strcmp(o.format, "text"))) {
		char cwd[4096];

		write_text(stdout, &res.findings, getcwd(cwd, sizeof(cwd)) ? cwd : srcroot);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "charscan: cannot write to standard output\n");
			status = EXIT_USAGE;
			goto done;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!o.quiet)
		print_summary(&res, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	status = exit_status(&o, &res, incomplete);
done:
	findings_free(&res.findings);
	notices_free(&res.notices);
	compdb_free(&db);
	return status;
fatal:
	print_notices(&res.notices);
	notices_free(&res.notices);
	fprintf(stderr, "charscan: %s\n", err);
	free(err);
	return EXIT_USAGE;
}
