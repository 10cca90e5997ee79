#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <clang-c/Index.h>
#include "options.h"
#include "util.h"
#include "version.h"

static const char usage_text[] =
"NAME\n"
"    charscan - find code whose meaning depends on the signedness of plain char\n"
"\n"
"SYNOPSIS\n"
"    charscan -p BUILD_DIR|compile_commands.json [OPTIONS] [FILE...]\n"
"    charscan [OPTIONS] --kbuild COMPILER-FLAGS... FILE    (make C=1 CHECK=...)\n"
"    charscan -D__linux__ COMPILER-FLAGS... FILE            (make C=1 CHECK=charscan)\n"
"    charscan merge A.sarif B.sarif... -o ALL.sarif [--format text] [--no-explain]\n"
"             [--summaries DIR]\n"
"    charscan confirm -p DB [-j N] [--changes T.tsv] [--cache DIR] [FILE...]\n"
"             [--tu-timeout S] [--tu-memory MB]\n"
"             -o OUT.sarif REPORT.sarif\n"
"    charscan fix REPORT.sarif [--srcroot DIR] [--rules LIST]\n"
"             [--dry-run | --patches DIR]\n"
"    charscan report REPORT.sarif -o DIR [--srcroot DIR]\n"
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
"    -o FILE            write the SARIF 2.1.0 report to FILE (atomically;\n"
"                       with --kbuild, merged into FILE under a lock); - for\n"
"                       standard output.  Only a regular file is replaced,\n"
"                       keeping its mode; never an input of the scan\n"
"    --format FMT       sarif (default with -o) or text: gcc-style lines\n"
"                       on stdout (default without -o; also with -o)\n"
"    -j N               parse N TUs at a time (default: online CPUs) in N\n"
"                       worker processes, each replaced after 32 TUs\n"
"    --tu-timeout S     give up a TU after S seconds (default 300; 0: never)\n"
"    --tu-memory MB     address space of a worker (default 4096; 0: no limit;\n"
"                       at least 256, as libclang parses nothing in less);\n"
"                       a TU over either limit is reported as failed (exit 3)\n"
"    --shard K/N        scan only shard K (1..N) of N: a stable partition of\n"
"                       the TUs by path; `charscan merge` of the N reports is\n"
"                       the report of one whole scan (see CROSS-TU)\n"
"    --summaries DIR    write this scan's cross-TU records to the summary\n"
"                       store DIR/shard-K-of-N.sum (atomically)\n"
"    --resolve DIR      the cross-TU pass of a sharded scan: read the store\n"
"                       DIR of all N shards and scan again only the TUs it\n"
"                       has something to tell\n"
"    --signedness S     both (default), signed or unsigned: report only what\n"
"                       misbehaves when char has that signedness\n"
"    --rules LIST       comma-separated rule ids or names to run; a leading\n"
"                       '-' removes one from the full set (--rules=-CS003)\n"
"    --srcroot DIR      base of relative SARIF URIs and of the config file's\n"
"                       excludes (default: the database's directory; with\n"
"                       --kbuild, $srctree or the current directory)\n"
"    --config FILE      settings (default: SRCROOT/.charscan if it exists)\n"
"    --fail-on LEVEL    error, warning (default), note or none: the lowest\n"
"                       level of finding that makes the exit status 1\n"
"                       (none by default with --kbuild, as sparse)\n"
"    --min-confidence C low (default), medium or high: report only findings\n"
"                       at least this sure that a byte 0x80-0xff reaches\n"
"                       the use (high: one provably does; medium: the\n"
"                       value's origin is unknown; low: it only leaves\n"
"                       the function)\n"
"    --fail-on-empty    exit 3 when nothing was scanned (every TU excluded)\n"
"                       or no rule is enabled: a change that switches the\n"
"                       check off fails CI instead of passing it\n"
"    --baseline OLD     mark results new, unchanged, updated or absent\n"
"                       against the SARIF report OLD\n"
"    --new-only         only new results count for the exit status and the\n"
"                       text output (needs --baseline)\n"
"    --diff REV         scan only the TUs that `git diff REV` touches, report\n"
"                       only findings on the lines it adds or changes; a TU\n"
"                       with no dependency file is judged by what its --cache\n"
"                       entry lists, and scanned when it has none either\n"
"    --cache DIR        keep each TU's answer in DIR (a folder, made if\n"
"                       missing), reused while every file its parse read has\n"
"                       the same bytes and no new header would be found\n"
"                       before one it read; the report is the same.  Shards\n"
"                       and scans at once may share DIR\n"
"    --kbuild           the rest of the command line is a compiler command,\n"
"                       as kbuild calls $(CHECK); text goes to stderr.  Implied\n"
"                       when the first argument is kbuild's -D__linux__\n"
"    --print-args       print each selected TU's argv as libclang gets it (one\n"
"                       JSON object per line) instead of scanning\n"
"    --explain          also write each widening judged harmless, with the\n"
"                       reason, as a SARIF result of kind pass, level none\n"
"                       (for reviewing a codegen diff; not in the text)\n"
"    --no-explain       merge: leave the passes out, so that one scan with\n"
"                       --explain gives both reports\n"
"    -q, --quiet        no progress line and no summary on stderr\n"
"    --list-rules       print the rule catalogue\n"
"    --version, --help\n"
"\n"
"CONFIRM\n"
"    The codegen oracle: each TU of DB (or each FILE) is compiled twice with\n"
"    its own argv plus -S -gline-tables-only, once -fsigned-char and once\n"
"    -funsigned-char; the instructions of each function are diffed (local\n"
"    labels renumbered, registers by width) and each result of REPORT gets\n"
"    properties.codegen: changed (instructions on its line or the next\n"
"    differ), unchanged, or none (no instructions there).\n"
"    --changes T.tsv    also write every changed line with its instructions\n"
"    --cache DIR        keep each TU's answer, keyed by argv and source, and\n"
"                       reused while no file the compile read has changed\n"
"                       and no new header would be found before one it\n"
"                       read (a folder, made if missing)\n"
"    --compiler CC      compile with CC (default: the entry's compiler when\n"
"                       it is clang, else clang)\n"
"    --tu-timeout S, --tu-memory MB  as in a scan, for each compile: one\n"
"                       not done in time is killed, with what it started,\n"
"                       and its TU reported as skipped (exit 3)\n"
"    Exit status: 0 done, 2 usage or unreadable input, 3 some TUs did not\n"
"    compile (listed in the report's toolExecutionNotifications).\n"
"\n"
"FIX\n"
"    Applies the fixes of REPORT (its results' SARIF fixes: a declaration's\n"
"    char made signed char or unsigned char) to the files, each replaced\n"
"    atomically; --rules LIST takes only those rules' fixes.  A file is\n"
"    refused, with its fixes, when a finding's line no longer reads as its\n"
"    snippet or the bytes a fix replaces are not there (it changed since\n"
"    the scan); suppressed results are never fixed.  A tab-aligned trailing\n"
"    comment keeps its column.  A report is trusted with nothing: fix\n"
"    writes only below the tree (--srcroot DIR, the report's paths rebased\n"
"    onto it; else the report's %SRCROOT%, which must be the current folder\n"
"    or below it), only regular files, and only charscan's own change (a\n"
"    line's \"char\" made \"signed char\" or \"unsigned char\"); a result\n"
"    that asks for anything else is refused and nothing is written.\n"
"    --dry-run          print the changes as a unified diff; change nothing\n"
"    --patches DIR      write them as git format-patch mails into DIR, one\n"
"                       per subsystem, for git am or quilt import; change\n"
"                       nothing.  In a kernel tree the tree's own\n"
"                       scripts/get_maintainer.pl groups the files by\n"
"                       MAINTAINERS entry and fills To: and Cc:; the\n"
"                       sign-off is git config's user.name and user.email\n"
"    Exit status: 0 every fix applied, 2 usage, unreadable report,\n"
"    unwritable file or a result refused as no fix charscan makes, 3 some\n"
"    fixes refused because their file changed (named on stderr).\n"
"\n"
"REPORT\n"
"    Writes REPORT as static HTML into the folder DIR (made if missing; a\n"
"    file there is refused): DIR/index.html, the findings counted per rule,\n"
"    level, top-level directory and baseline state, as bars, then the list\n"
"    of findings, 500 a page (list-2.html...), filtered by rule, level and\n"
"    directory; DIR/f/N.html, a page per finding: its message, the source\n"
"    lines around it with its region marked, its related locations and its\n"
"    code flow as numbered steps each with its source line, its fix as a\n"
"    diff and the rule's help.  Passes (--explain) and suppressed results\n"
"    are counted, not listed.  Source is read below --srcroot DIR (the\n"
"    report's paths rebased onto it) or the report's %SRCROOT%; a file\n"
"    missing or outside it is named on its page.  Everything from the\n"
"    report or the source is escaped; no server, network or script\n"
"    library: the pages open from file://.  Each page is written\n"
"    atomically, index.html last; pages of an earlier report that this\n"
"    one has no more are removed.\n"
"    Exit status: 0 written, 2 usage, unreadable report, unwritable DIR.\n"
"\n"
"CROSS-TU\n"
"    A widened char passed to a function whose body is in another TU of the\n"
"    database is followed into that body and judged there; one returned by\n"
"    such a function is followed in each caller.  A scan does this in a\n"
"    second walk of just the TUs concerned.  A sharded scan leaves it to the\n"
"    merge: shards run with --summaries DIR, then\n"
"        charscan -p DB [the shards' options] --resolve DIR -o X.sarif\n"
"        charscan merge --summaries DIR SHARD.sarif... X.sarif -o ALL.sarif\n"
"    give the report of one whole scan (scale/merge-shards.sh does both).\n"
"    A store that is incomplete, truncated, malformed or made from another\n"
"    database or other options is an error (exit 2): remove it and rescan.\n"
"\n"
"SUPPRESSIONS\n"
"    A comment holding 'charscan-ignore RULE[,RULE]: reason' on a finding's\n"
"    line, or alone on the line before, suppresses it: kept in SARIF\n"
"    (suppressions, kind inSource), left out of the text and the exit\n"
"    status.  A name that is no rule is a warning.\n"
"\n"
"EXIT STATUS\n"
"    0  scan complete, no finding at or above --fail-on\n"
"    1  findings at or above --fail-on (not suppressed; with --new-only, new)\n"
"    2  usage error, unreadable or malformed database, config or baseline,\n"
"       git failed, unwritable output\n"
"    3  scan incomplete: some TUs failed (the report lists them and\n"
"       everything found in the rest); with --fail-on-empty, nothing\n"
"       was scanned or no rule is enabled\n"
"    129, 130, 143  stopped by SIGHUP, SIGINT or SIGTERM: no report written,\n"
"       the temporary removed, how far the scan got on stderr\n";

static void list_rules(void)
{
	for (int i = 0; i < NR_RULES; i++)
		printf("%s  %-24s %-8s CWE-%-4s %-8s %s\n", rules[i].id, rules[i].name,
		       rules[i].level, rules[i].cwe, rules[i].cert, rules[i].short_desc);
}

int parse_rules(const char *list, unsigned char *enabled)
{
	char *copy = xstrdup(list), *save = NULL;
	int subtractive = list[0] == '-', named = 0;

	memset(enabled, subtractive, NR_RULES);
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		int neg = tok[0] == '-', r = rule_lookup(tok + neg);

		named++;
		if (r < 0) {
			complain("unknown rule '%s' (see --list-rules)", tok + neg);
			free(copy);
			return -1;
		}
		enabled[r] = !neg;
	}
	free(copy);
	if (!named) {
		complain("the rule list '%s' names no rule (see --list-rules)", list);
		return -1;
	}
	return 0;
}

unsigned breaks_mask(const char *s)
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
	complain("%s%s%s", msg, arg ? ": " : "", arg ? arg : "");
	fputs("Try 'charscan --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static unsigned long number(const char *arg, unsigned long min, unsigned long max,
			    const char *msg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v < min || v > max || arg[0] == '-')
		usage_error(msg, arg);
	return v;
}

static void print_version(void)
{
	CXString v = clang_getClangVersion();

	printf("charscan %s (%s)\n", CHARSCAN_VERSION, clang_getCString(v));
	clang_disposeString(v);
}

/* kbuild runs "$(CHECK) $(CHECKFLAGS) $(c_flags) $<": a compiler command
 * without the compiler. */
static void take_kbuild_command(int argc, char **argv, struct options *o)
{
	int n = argc - optind;

	if (n < 1 || argv[argc - 1][0] == '-')
		usage_error("--kbuild needs the compiler flags and a source file after it", NULL);
	o->kbuild = 1;
	o->kbuild_argv = xcalloc(n + 2, sizeof(*o->kbuild_argv));
	o->kbuild_argv[0] = "clang";
	memcpy(o->kbuild_argv + 1, argv + optind, n * sizeof(*argv));
	o->kbuild_argc = n + 1;
	optind = argc;
}

static void check_combinations(struct options *o)
{
	if (o->report) {
		if (o->nfiles != 1 || !o->out || o->db || !strcmp(o->out, "-"))
			usage_error("report takes one REPORT.sarif and -o DIR (not -p)", NULL);
		return;
	}
	if (o->fix) {
		if (o->nfiles != 1 || o->db || o->out || (o->dry_run && o->patches))
			usage_error("fix takes one REPORT.sarif, and --dry-run or --patches DIR "
				    "(not -p or -o)", NULL);
		return;
	}
	if (o->dry_run || o->patches)
		usage_error("--dry-run and --patches go with charscan fix", NULL);
	if (o->shard_n && (o->merge || o->confirm || o->kbuild))
		usage_error("--shard divides the TUs of -p DB: not with merge, confirm or --kbuild",
			    NULL);
	if (o->no_explain && !o->merge)
		usage_error("--no-explain goes with charscan merge", NULL);
	if (o->resolve && (o->merge || o->confirm || o->kbuild || o->shard_n || o->summaries))
		usage_error("--resolve DIR is a scan of its own: not with merge, confirm, "
			    "--kbuild, --shard or --summaries", NULL);
	if (o->summaries && (o->confirm || o->kbuild))
		usage_error("--summaries goes with a scan of -p DB or with merge", NULL);
	if (o->merge) {
		if (!o->out || o->nfiles < 1)
			usage_error("merge needs input SARIF files and -o FILE", NULL);
		return;
	}
	if (o->confirm) {
		if (!o->db || !o->out || o->nfiles < 1)
			usage_error("confirm needs -p DB, -o OUT.sarif and the REPORT.sarif to annotate",
				    NULL);
		return;
	}
	if (o->changes || o->compiler)
		usage_error("--changes and --compiler go with charscan confirm", NULL);
	if (!o->db && !o->kbuild)
		usage_error("-p BUILD_DIR is required", NULL);
	if (o->kbuild && (o->db || o->diff || o->nfiles))
		usage_error("--kbuild takes its one file from kbuild, not -p, --diff or FILE", NULL);
	if (o->out && !strcmp(o->out, "-") && ((o->format && !strcmp(o->format, "text")) ||
					       o->kbuild))
		usage_error("-o - writes SARIF to standard output: not with --format text or "
			    "--kbuild", NULL);
	if (o->format && !strcmp(o->format, "sarif") && !o->out)
		usage_error("--format sarif needs -o FILE", NULL);
	if (o->new_only && !o->baseline)
		usage_error("--new-only needs --baseline OLD.sarif", NULL);
	if (o->kbuild && !o->fail_on_set)
		o->fail_rank = 0;
}

/* K/N, 1 <= K <= N <= 65536. */
static void parse_shard(const char *arg, struct options *o)
{
	const char *slash = strchr(arg, '/');
	char *k;

	if (!slash)
		usage_error("--shard takes K/N, shard K of N (1 <= K <= N)", arg);
	k = xstrndup(arg, slash - arg);
	o->shard_n = number(slash + 1, 1, 65536, "--shard takes K/N, N from 1 to 65536");
	o->shard_k = number(k, 1, o->shard_n, "--shard takes K/N, K from 1 to N");
	free(k);
}

#define TU_MEMORY_MIN 256
#define TU_MEMORY_RANGE "--tu-memory takes megabytes, 0 (no limit) or at least 256"

void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_FORMAT = 256, O_SIGNEDNESS, O_RULES, O_SRCROOT, O_FAIL_ON, O_CONFIG,
	       O_BASELINE, O_NEW_ONLY, O_DIFF, O_KBUILD, O_PRINT_ARGS, O_LIST, O_VERSION, O_HELP,
	       O_CHANGES, O_CACHE, O_COMPILER, O_EXPLAIN, O_TU_TIMEOUT, O_TU_MEMORY, O_SHARD,
	       O_DRY_RUN, O_PATCHES, O_NO_EXPLAIN, O_SUMMARIES, O_RESOLVE, O_FAIL_ON_EMPTY,
	       O_MIN_CONFIDENCE };
	/* The subcommands, and the flag each sets. */
	static const struct { const char *name; size_t flag; } commands[] = {
		{ "merge", offsetof(struct options, merge) },
		{ "confirm", offsetof(struct options, confirm) },
		{ "fix", offsetof(struct options, fix) },
		{ "report", offsetof(struct options, report) },
	};
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "signedness", required_argument, NULL, O_SIGNEDNESS },
		{ "rules", required_argument, NULL, O_RULES },
		{ "srcroot", required_argument, NULL, O_SRCROOT },
		{ "fail-on", required_argument, NULL, O_FAIL_ON },
		{ "fail-on-empty", no_argument, NULL, O_FAIL_ON_EMPTY },
		{ "min-confidence", required_argument, NULL, O_MIN_CONFIDENCE },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "baseline", required_argument, NULL, O_BASELINE },
		{ "new-only", no_argument, NULL, O_NEW_ONLY },
		{ "diff", required_argument, NULL, O_DIFF },
		{ "kbuild", no_argument, NULL, O_KBUILD },
		{ "print-args", no_argument, NULL, O_PRINT_ARGS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "changes", required_argument, NULL, O_CHANGES },
		{ "explain", no_argument, NULL, O_EXPLAIN },
		{ "no-explain", no_argument, NULL, O_NO_EXPLAIN },
		{ "cache", required_argument, NULL, O_CACHE },
		{ "tu-timeout", required_argument, NULL, O_TU_TIMEOUT },
		{ "tu-memory", required_argument, NULL, O_TU_MEMORY },
		{ "shard", required_argument, NULL, O_SHARD },
		{ "summaries", required_argument, NULL, O_SUMMARIES },
		{ "resolve", required_argument, NULL, O_RESOLVE },
		{ "compiler", required_argument, NULL, O_COMPILER },
		{ "dry-run", no_argument, NULL, O_DRY_RUN },
		{ "patches", required_argument, NULL, O_PATCHES },
		{ "list-rules", no_argument, NULL, O_LIST },
		{ "version", no_argument, NULL, O_VERSION },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;		/* our own one-line message instead */
	o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	o->tu_timeout = 300;
	o->tu_memory = 4096;
	o->signedness = "both";
	o->fail_rank = level_rank("warning");
	memset(o->engine.enabled, 1, NR_RULES);
	/* kbuild's CHECKFLAGS begin with -D__linux__, which charscan has no
	 * use for otherwise: make C=1 CHECK=charscan works as with sparse. */
	if (argc > 1 && !strcmp(argv[1], "-D__linux__")) {
		optind = 1;
		take_kbuild_command(argc, argv, o);
	}
	for (size_t i = 0; argc > 1 && i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			*(int *)((char *)o + commands[i].flag) = 1;
			argv++;
			argc--;
			break;
		}
	while (!o->kbuild && (c = getopt_long(argc, argv, "p:o:j:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': o->db = optarg; break;
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'j':
			o->jobs = (int)number(optarg, 1, 1024, "-j takes a number from 1 to 1024");
			break;
		case O_TU_TIMEOUT:
			o->tu_timeout = number(optarg, 0, 86400, "--tu-timeout takes seconds, "
					       "0 to 86400");
			break;
		case O_TU_MEMORY:
			/* libclang parses nothing in less than about 256 MB:
			 * below that every TU would die of SIGABRT. */
			o->tu_memory = number(optarg, 0, 1 << 24, TU_MEMORY_RANGE);
			if (o->tu_memory && o->tu_memory < TU_MEMORY_MIN)
				usage_error(TU_MEMORY_RANGE, optarg);
			break;
		case O_SHARD:
			parse_shard(optarg, o);
			break;
		case O_SUMMARIES: o->summaries = optarg; break;
		case O_RESOLVE: o->resolve = optarg; break;
		case O_FORMAT:
			if (strcmp(optarg, "sarif") && strcmp(optarg, "text"))
				usage_error("--format is sarif or text", optarg);
			o->format = optarg;
			break;
		case O_SIGNEDNESS:
			if (!breaks_mask(optarg))
				usage_error("--signedness is both, signed or unsigned", optarg);
			o->signedness = optarg;
			o->signedness_set = 1;
			break;
		case O_RULES:
			if (parse_rules(optarg, o->engine.enabled))
				exit(EXIT_USAGE);
			o->rules_set = 1;
			break;
		case O_SRCROOT: o->srcroot = optarg; break;
		case O_FAIL_ON:
			o->fail_rank = level_rank(optarg);
			if (o->fail_rank < 0)
				usage_error("--fail-on is error, warning, note or none", optarg);
			o->fail_on_set = 1;
			break;
		case O_FAIL_ON_EMPTY: o->fail_on_empty = 1; break;
		case O_MIN_CONFIDENCE:
			o->min_confidence = confidence_of(optarg);
			if (o->min_confidence < 0)
				usage_error("--min-confidence is low, medium or high", optarg);
			break;
		case O_CONFIG: o->config = optarg; break;
		case O_BASELINE: o->baseline = optarg; break;
		case O_NEW_ONLY: o->new_only = 1; break;
		case O_DIFF: o->diff = optarg; break;
		case O_KBUILD: take_kbuild_command(argc, argv, o); break;
		case O_PRINT_ARGS: o->print_args = 1; break;
		case O_CHANGES: o->changes = optarg; break;
		case O_EXPLAIN: o->engine.explain = 1; break;
		case O_NO_EXPLAIN: o->no_explain = 1; break;
		case O_CACHE: o->cache = optarg; break;
		case O_COMPILER: o->compiler = optarg; break;
		case O_DRY_RUN: o->dry_run = 1; break;
		case O_PATCHES: o->patches = optarg; break;
		case O_LIST: list_rules(); exit(EXIT_CLEAN);
		case O_VERSION: print_version(); exit(EXIT_CLEAN);
		case O_HELP: fputs(usage_text, stdout); exit(EXIT_CLEAN);
		default:
			usage_error(optopt && optopt < 256 ? "option needs a value or is unknown" :
				    "unknown option", argv[optind - 1]);
		}
	}
	o->files = argv + optind;
	o->nfiles = argc - optind;
	check_combinations(o);
	o->engine.breaks_mask = breaks_mask(o->signedness);
}
