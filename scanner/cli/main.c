/*
 * charscan: find where plain char means something different when char
 * is signed than when it is unsigned.  See options.c or README.md.
 *
 * One scan: database (or kbuild's command) -> configuration -> TUs
 * selected (excludes, --diff, FILEs) -> libclang and the rules ->
 * findings sorted, levelled, suppressed, filtered, baselined -> SARIF
 * and text -> exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "report/report.h"
#include "analysis/analysis.h"
#include "input/input.h"
#include "oracle/oracle.h"
#include "fix/fix.h"
#include "html/html.h"
#include "core/core.h"
#include "sarif/sarif.h"
#include "run/run.h"
#include "xtu/xtu.h"

struct job {
	struct options o;
	struct config cfg;
	struct compdb db;
	struct changes changes;
	struct filecache src;
	struct scan_result res;
	struct scan_cache cache;	/* --cache DIR */
	struct output out;
	struct sarif_in baseline;	/* --baseline's findings, until judged */
	struct findings absent;		/* ...those not found now */
	struct sarif_mark out_mark;	/* -o when the scan began */
	char *srcroot;
	char *err;
	uint64_t key;			/* of the summary store: database and options */
	char *store_opts;		/* its options in words */
	char store_key[17];		/* key in hex, for the SARIF */
	unsigned excluded_by;		/* the exclude line of the TUs dropped... */
	int excludes_differ;		/* ...or they were dropped by several */
	int switched_off;		/* every TU excluded or every rule disabled */
	int partial;			/* some TUs left out (config, --diff, FILE):
					 * a field's writes are not all seen */
};

static void print_notices(const struct notices *ns)
{
	for (size_t i = 0; i < ns->len; i++)
		complain("%s: %s", ns->v[i].level, ns->v[i].message);
}

/* Warnings (a suppression naming no rule) do not make a scan incomplete. */
static int has_errors(const struct notices *ns)
{
	for (size_t i = 0; i < ns->len; i++)
		if (!strcmp(ns->v[i].level, "error"))
			return 1;
	return 0;
}

static void print_summary(const struct job *j, double secs)
{
	const struct findings *f = &j->res.findings;
	size_t per_rule[NR_RULES] = { 0 }, suppressed = 0, fresh = 0, passes = 0;

	for (size_t i = 0; i < f->len; i++) {
		if (f->v[i].pass) {
			passes++;
			continue;
		}
		per_rule[f->v[i].rule]++;
		suppressed += f->v[i].suppressed != NULL;
		fresh += f->v[i].baseline == BASELINE_NEW;
	}
	fprintf(stderr, "charscan: %zu TUs", j->res.tus_scanned);
	if (j->o.cache)
		fprintf(stderr, ", %zu from the cache, %zu parsed", j->res.tus_cached,
			j->cache.nparsed);
	fprintf(stderr, ", %zu failed, %zu findings", j->res.tus_failed, f->len - passes);
	for (int i = 0; i < NR_RULES; i++)
		if (per_rule[i])
			fprintf(stderr, " %s:%zu", rules[i].id, per_rule[i]);
	if (suppressed)
		fprintf(stderr, ", %zu suppressed", suppressed);
	if (passes)
		fprintf(stderr, ", %zu widenings judged harmless", passes);
	if (j->o.baseline)
		fprintf(stderr, ", %zu new, %zu absent", fresh, j->absent.len);
	fprintf(stderr, ", %.1f s\n", secs);
}

static int counts(const struct options *o, const struct finding *x)
{
	return !x->pass && !x->suppressed && (!o->new_only || x->baseline == BASELINE_NEW) &&
	       o->fail_rank && level_rank(x->level) >= o->fail_rank;
}

static int exit_status(const struct job *j, int incomplete)
{
	if (incomplete || (j->o.fail_on_empty && j->switched_off))
		return EXIT_INCOMPLETE;
	for (size_t i = 0; i < j->res.findings.len; i++)
		if (counts(&j->o, &j->res.findings.v[i]))
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

/* ---- before the scan --------------------------------------------------- */

static int load_database(struct job *j)
{
	const char *srctree = getenv("srctree");
	char cwd[4096];

	if (j->o.kbuild) {
		if (!getcwd(cwd, sizeof(cwd)))
			die("cannot find the current directory");
		compdb_from_argv(&j->db, cwd, j->o.kbuild_argc, j->o.kbuild_argv,
				 j->o.kbuild_argv[j->o.kbuild_argc - 1]);
		/* kbuild exports srctree, "." or ".." or absolute. */
		j->srcroot = clean_path(xstrdup(j->o.srcroot ? j->o.srcroot :
						 srctree ? srctree : cwd));
		return 0;
	}
	if (compdb_load(j->o.db, &j->db, &j->res.notices, &j->err))
		return -1;
	j->srcroot = clean_path(xstrdup(j->o.srcroot ? j->o.srcroot : j->db.dir));
	return 0;
}

/* The file's settings, where the command line did not give one. */
static int load_config(struct job *j)
{
	char *dflt = xasprintf("%s/.charscan", j->srcroot);
	int rc = config_load(j->o.config ? j->o.config : dflt, j->o.config != NULL, &j->cfg,
			     &j->err);

	free(dflt);
	if (rc)
		return -1;
	if (j->cfg.rules && !j->o.rules_set && parse_rules(j->cfg.rules, j->o.engine.enabled)) {
		j->err = xasprintf("%s: bad rules setting", j->cfg.path);
		return -1;
	}
	if (j->cfg.fail_on && !j->o.fail_on_set)
		j->o.fail_rank = level_rank(j->cfg.fail_on);
	if (j->cfg.signedness && !j->o.signedness_set) {
		if (!breaks_mask(j->cfg.signedness)) {
			j->err = xasprintf("%s: signedness is both, signed or unsigned", j->cfg.path);
			return -1;
		}
		j->o.signedness = j->cfg.signedness;
		j->o.engine.breaks_mask = breaks_mask(j->o.signedness);
	}
	return 0;
}

static int not_excluded_tu(const struct tu *tu, void *arg)
{
	struct job *j = arg;
	unsigned line = config_excludes(&j->cfg, relative_path(tu->file, j->srcroot));

	j->excludes_differ |= line && j->excluded_by && line != j->excluded_by;
	if (line)
		j->excluded_by = line;
	return !line;
}

/* A change to .charscan or to the CI's options can switch the check
 * off: a scan of nothing says so (stderr and the SARIF), and with
 * --fail-on-empty fails. */
static void warn_if_switched_off(struct job *j, size_t tus_before)
{
	const char *cfg = j->cfg.path ? j->cfg.path : ".charscan";

	if (!memchr(j->o.engine.enabled, 1, NR_RULES)) {
		notice_add(&j->res.notices, "warning", NULL, "nothing was scanned: every rule "
			   "disabled (by %s)", j->o.rules_set ? "--rules" : cfg);
		j->switched_off = 1;
	}
	if (tus_before && !j->db.len && !j->o.kbuild) {
		if (j->excludes_differ)
			notice_add(&j->res.notices, "warning", NULL, "nothing was scanned: every TU "
				   "excluded by the excludes of %s", cfg);
		else
			notice_add(&j->res.notices, "warning", NULL, "nothing was scanned: every TU "
				   "excluded by %s:%u", cfg, j->excluded_by);
		j->switched_off = 1;
	}
}

/* A report written over the database, the config, a baseline or a
 * source file would destroy what the scan reads. */
static int output_is_input(struct job *j)
{
	const char *named[] = { j->db.path, j->cfg.path, j->o.baseline };

	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (named[i] && output_is(&j->out, named[i]))
			goto clash;
	for (size_t i = 0; i < j->db.len; i++)
		if (output_is(&j->out, j->db.tu[i].file))
			goto clash;
	return 0;
clash:
	j->err = xasprintf("will not write %s: it is an input of the scan", j->o.out);
	return -1;
}

/* What a summary store must have been made with: the TUs of the whole
 * scan (every shard) and the options that change what the walk finds,
 * in words so that --resolve names the one that differs. */
static uint64_t store_key(struct job *j)
{
	char ids[NR_RULES * 8] = "";
	size_t n = 0;
	uint64_t key;

	for (int i = 0; i < NR_RULES; i++)
		if (j->o.engine.enabled[i])
			n += snprintf(ids + n, sizeof(ids) - n, "%s%s", n ? "," : "", rules[i].id);
	j->store_opts = xasprintf("--rules=%s --signedness=%s --explain=%s", n ? ids : "none",
				  j->o.signedness, j->o.engine.explain ? "yes" : "no");
	key = xstore_key(&j->db, j->store_opts);
	snprintf(j->store_key, sizeof(j->store_key), "%016llx", (unsigned long long)key);
	return key;
}

/* --diff's list of what a TU read, without a dependency file: the files
 * its cache entry lists (the key of its first walk). */
static int cached_deps(const struct tu *tu, void *arg,
		       void (*fn)(const char *path, void *fn_arg), void *fn_arg)
{
	struct job *j = arg;
	char key[CACHE_KEY_HEX];

	cache_key(tu, &j->o.engine, NULL, key);
	return cache_deps(j->o.cache, key, fn, fn_arg);
}

static int diff_tus(struct job *j)
{
	struct dep_source from_cache = { cached_deps, j };
	struct diff_counts n;

	if (diff_load(j->o.diff, j->srcroot, &j->changes, &j->err))
		return -1;
	diff_select(&j->db, &j->changes, j->o.cache ? &from_cache : NULL, &n);
	if (j->o.quiet)
		return 0;
	if (n.from_source)
		fprintf(stderr, "charscan: note: %zu TUs have no dependency file; judged by the "
			"files their --cache entry lists\n", n.from_source);
	if (n.without_deps)
		fprintf(stderr, "charscan: note: %zu TUs have no dependency file%s; scanned "
			"because a header changed\n", n.without_deps,
			j->o.cache ? " nor --cache entry" : "");
	return 0;
}

static int select_tus(struct job *j)
{
	size_t tus = j->db.len;

	/* Every entry, selected or not: a source file is never a report. */
	if (output_is_input(j))
		return -1;
	compdb_filter(&j->db, not_excluded_tu, j);
	warn_if_switched_off(j, tus);
	if (j->o.diff && diff_tus(j))
		return -1;
	if (j->o.nfiles && compdb_select(&j->db, j->o.files, j->o.nfiles, &j->err))
		return -1;
	j->partial = j->db.len < tus;
	j->key = store_key(j);
	if (j->o.shard_n)
		shard_select(&j->db, j->o.shard_k, j->o.shard_n, j->srcroot);
	return 0;
}

/* --print-args: what libclang is given, for debugging a TU and for
 * tests/bench.py, which runs clang and clang-tidy on the same argv. */
static int print_args(const struct compdb *db)
{
	for (size_t i = 0; i < db->len; i++) {
		const struct tu *tu = &db->tu[i];
		json_t *args = json_array(), *entry;
		char *line;

		for (int a = 0; a < tu->argc; a++)
			json_array_append_new(args, json_text(tu->argv[a]));
		entry = json_pack("{s:o, s:o, s:o}", "directory", json_text(tu->directory),
				  "file", json_text(tu->file), "arguments", args);
		line = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
		puts(line ? line : "{}");
		free(line);
		json_decref(entry);
	}
	return fflush(stdout) ? EXIT_USAGE : EXIT_CLEAN;
}

/* ---- after the scan ---------------------------------------------------- */

static int not_excluded_finding(const struct finding *x, void *arg)
{
	struct job *j = arg;

	return !config_excludes(&j->cfg, relative_path(x->loc.path, j->srcroot));
}

/* --min-confidence: a finding judged less sure goes (passes, and
 * findings read back from a report that says nothing, stay). */
static int confident(const struct finding *x, void *arg)
{
	const struct job *j = arg;

	return x->pass || !x->confidence || (int)x->confidence >= j->o.min_confidence;
}

static void judge(struct job *j)
{
	struct findings *f = &j->res.findings;

	if (j->o.engine.explain)
		char_groups(f, &j->src, &j->db);
	findings_finish(f, j->srcroot, &j->src);
	notices_finish(&j->res.notices);
	for (size_t i = 0; i < f->len; i++)
		if (j->cfg.level[f->v[i].rule])
			f->v[i].level = j->cfg.level[f->v[i].rule];
	findings_filter(f, not_excluded_finding, j);
	if (j->o.min_confidence > CONF_LOW)
		findings_filter(f, confident, j);
	char_conditional(f, &j->src, j->o.engine.explain);
	suppress_in_source(f, &j->src, &j->res.notices);
	if (j->o.diff)
		diff_filter(f, &j->changes);
	if (j->o.baseline) {
		baseline_rebase(&j->baseline.findings, j->baseline.srcroot, j->srcroot);
		baseline_apply(&j->baseline.findings, f, &j->absent);
	}
}

/* GitHub code scanning keeps 5,000 results of a run and rejects a run of
 * more than 25,000: say so before an upload fails or silently drops. */
static void github_limits(size_t results, int quiet)
{
	if (results > 25000)
		fprintf(stderr, "charscan: warning: %zu results: GitHub code scanning rejects a run "
			"of more than 25000 (narrow it: --rules, --signedness, a config file, --diff)\n",
			results);
	else if (results > 5000 && !quiet)
		fprintf(stderr, "charscan: note: %zu results: GitHub code scanning keeps only 5000 "
			"of a run\n", results);
}

/* After write_text() to f (errno cleared before it): NULL, or why the
 * text report is not whole (a full disk, a closed pipe). */
static char *text_report_error(FILE *f)
{
	if (!fflush(f) && !ferror(f))
		return NULL;
	return xasprintf("cannot write the text report: %s", strerror(errno ? errno : EIO));
}

static int write_reports(struct job *j, int incomplete)
{
	struct sarif_run run = { j->srcroot, j->o.signedness, !incomplete, &j->src, &j->absent,
				 j->o.summaries || j->o.resolve ? j->store_key : NULL };
	char cwd[4096];
	int rc = 0;

	if (j->o.out) {
		json_t *log = sarif_log(&j->res.findings, &j->res.notices, &run);

		if (j->o.kbuild) {
			rc = sarif_append(j->o.out, log, &j->err);
		} else {
			github_limits(j->res.findings.len + j->absent.len, j->o.quiet);
			rc = sarif_dump_shared(log, &j->out, j->o.out, &j->out_mark, &j->err);
		}
		json_decref(log);
		if (rc)
			return -1;
	}
	if (!j->o.out || (j->o.format && !strcmp(j->o.format, "text")) || j->o.kbuild) {
		FILE *f = j->o.kbuild ? stderr : stdout;

		errno = 0;
		write_text(f, &j->res.findings, getcwd(cwd, sizeof(cwd)) ? cwd : j->srcroot,
			   j->o.new_only);
		if ((j->err = text_report_error(f)))
			return -1;
	}
	return 0;
}

/* ---- the two commands ---------------------------------------------------- */

static int not_a_pass(const struct finding *f, void *unused)
{
	(void)unused;
	return !f->pass;
}

static int any_pass(const struct findings *f)
{
	for (size_t i = 0; i < f->len; i++)
		if (f->v[i].pass)
			return 1;
	return 0;
}

static int merge_command(struct options *o)
{
	struct sarif_in all = { 0 }, one;
	json_t *merged = NULL;
	char *err = NULL;
	int rc = EXIT_USAGE;

	for (int n = 0; n < o->nfiles; n++) {
		if (sarif_load(o->files[n], n ? &one : &all, &err))
			goto out;
		if (n && sarif_join(&all, &one, &err)) {
			sarif_in_free(&one);
			goto out;
		}
		if (n)
			sarif_in_free(&one);
	}
	if (o->summaries) {
		struct xrecs store = { 0 };
		struct xtu_plan plan;

		/* The store must be the one these reports' scans wrote. */
		if (!all.store_key) {
			err = xasprintf("summary store %s: the reports name no store (scan the shards "
					"with --summaries)", o->summaries);
			goto out;
		}
		if (xstore_read(o->summaries, strtoull(all.store_key, NULL, 16), NULL, &store, &err))
			goto out;
		xtu_plan(&store, NULL, 0, &plan);
		/* Shards scanned with --explain: what a field's writes settle
		 * stays as a pass. */
		plan.explain = !o->no_explain && any_pass(&all.findings);
		xtu_drop(&all.findings, &plan);
		xtu_plan_free(&plan);
		xrecs_free(&store);
	}
	if (o->no_explain)
		findings_filter(&all.findings, not_a_pass, NULL);
	merged = sarif_in_log(&all);
	/* Shards each under the limit can make a run over it. */
	github_limits(all.findings.len, o->quiet);
	if (sarif_write(o->out, merged, &err))
		goto out;
	rc = EXIT_CLEAN;
	if (o->format && !strcmp(o->format, "text")) {
		char cwd[4096];

		errno = 0;
		write_text(stdout, &all.findings, getcwd(cwd, sizeof(cwd)) ? cwd : all.srcroot, 0);
		if ((err = text_report_error(stdout)))
			rc = EXIT_USAGE;
	}
out:
	if (err)
		complain("%s", err);
	free(err);
	json_decref(merged);
	sarif_in_free(&all);
	return rc;
}

static void job_free(struct job *j)
{
	findings_free(&j->res.findings);
	xrecs_free(&j->res.xrecs);
	notices_free(&j->res.notices);
	compdb_free(&j->db);
	cache_free(&j->cache);
	config_free(&j->cfg);
	changes_free(&j->changes);
	filecache_free(&j->src);
	output_abort(&j->out);
	sarif_in_free(&j->baseline);
	findings_free(&j->absent);
	free(j->srcroot);
	free(j->store_opts);
	free(j->err);
	free(j->o.kbuild_argv);
}

/* Async-signal-safe: what the signal handler prints. */
static void interrupted(char *buf, size_t size)
{
	static const char head[] = "\ncharscan: interrupted after ", mid[] = " of ",
			  tail[] = " TUs; no report written\n";
	size_t done, total, n = 0;
	char digits[2][24];

	scan_progress(&done, &total);
	for (int k = 0; k < 2; k++) {
		size_t v = k ? total : done, len = 0;
		char rev[24];

		do
			rev[len++] = (char)('0' + v % 10);
		while ((v /= 10) && len < sizeof(rev));
		for (size_t i = 0; i < len; i++)
			digits[k][i] = rev[len - 1 - i];
		digits[k][len] = '\0';
	}
	buf[0] = '\0';
	if (size < sizeof(head) + sizeof(mid) + sizeof(tail) + 2 * sizeof(digits[0]))
		return;
	memcpy(buf, head, sizeof(head) - 1);
	n = sizeof(head) - 1;
	memcpy(buf + n, digits[0], strlen(digits[0]));
	n += strlen(digits[0]);
	memcpy(buf + n, mid, sizeof(mid) - 1);
	n += sizeof(mid) - 1;
	memcpy(buf + n, digits[1], strlen(digits[1]));
	n += strlen(digits[1]);
	memcpy(buf + n, tail, sizeof(tail));
}

/* The second walk: each TU that another can tell something (a body its
 * char is passed into, a function returning one) is walked again with
 * it; the first walk's CS010 notes on what was followed go. */
static void cross_tu(struct job *j, const struct scan_limits *lim, const struct xrecs *recs)
{
	struct scan_result more;
	struct xtu_plan plan;

	xtu_plan(recs, &j->db, j->o.engine.explain, &plan);
	/* Part of the database: not every write, read or call is seen. */
	if (j->partial)
		plan.nsettled = plan.nbytes = 0;
	if (plan.busy) {
		scan(&j->db, &j->o.engine, lim, &plan, &more);
		findings_move(&j->res.findings, &more.findings);
		/* A TU that fails again says so again (the same notice):
		 * counted once, by the first walk. */
		notices_move(&j->res.notices, &more.notices);
		if (j->o.resolve) {
			j->res.tus_scanned = more.tus_scanned;
			j->res.tus_failed = more.tus_failed;
			j->res.tus_cached = more.tus_cached;
		}
		xrecs_free(&more.xrecs);
	}
	xtu_drop(&j->res.findings, &plan);
	xtu_plan_free(&plan);
}

/* Both walks, or (--resolve) the second one of a sharded scan. */
static int scan_tus(struct job *j, const struct scan_limits *lim)
{
	struct xrecs store = { 0 };

	if (j->o.out)
		sarif_mark(j->o.out, &j->out_mark);
	if (j->o.summaries && xstore_probe(j->o.summaries, &j->err))
		return -1;
	if (j->o.resolve) {
		if (xstore_read(j->o.resolve, j->key, j->store_opts, &store, &j->err))
			return -1;
		memset(&j->res, 0, sizeof(j->res));
		cross_tu(j, lim, &store);
		xrecs_free(&store);
		return 0;
	}
	scan(&j->db, &j->o.engine, lim, NULL, &j->res);
	if (j->o.summaries &&
	    xstore_write(j->o.summaries, j->o.shard_n ? j->o.shard_k : 1,
			 j->o.shard_n ? j->o.shard_n : 1, j->key, j->store_opts, &j->res.xrecs,
			 &j->err))
		return -1;
	/* A shard sees part of the records: its merge does the rest. */
	if (!j->o.shard_n && !j->o.kbuild)
		cross_tu(j, lim, &j->res.xrecs);
	return 0;
}

/* --cache DIR: a folder (made if missing) before anything is scanned. */
static int open_cache(struct job *j)
{
	if (!j->o.cache)
		return 0;
	j->cache.dir = j->o.cache;
	return (j->err = cache_dir_unusable(j->o.cache)) ? -1 : 0;
}

static int scan_command(struct job *j)
{
	struct timespec t0, t1;
	int incomplete, status = EXIT_USAGE;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	output_cleanup_on_signals(interrupted);
	/* Everything that can fail without a scan fails before it. */
	if ((j->o.out && !j->o.kbuild && output_open(&j->out, j->o.out, &j->err)) ||
	    (j->o.baseline && sarif_load(j->o.baseline, &j->baseline, &j->err)) ||
	    load_database(j) || load_config(j) || open_cache(j) || select_tus(j))
		goto out;
	if (j->o.print_args)
		return print_args(&j->db);
	{
		struct notices load_notes = j->res.notices;

		struct scan_limits lim = { j->o.jobs, j->o.tu_timeout, j->o.tu_memory,
					   !j->o.quiet && isatty(2), j->o.cache ? &j->cache : NULL };

		if (scan_tus(j, &lim)) {
			notices_move(&load_notes, &j->res.notices);
			j->res.notices = load_notes;
			goto out;
		}
		/* Database problems first, then per-TU ones, in order. */
		notices_move(&load_notes, &j->res.notices);
		j->res.notices = load_notes;
	}
	judge(j);
	incomplete = j->res.tus_failed || has_errors(&j->res.notices);
	print_notices(&j->res.notices);
	if (write_reports(j, incomplete))
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!j->o.quiet && !j->o.kbuild)
		print_summary(j, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	status = exit_status(j, incomplete);
out:
	if (status == EXIT_USAGE) {
		print_notices(&j->res.notices);
		complain("%s", j->err ? j->err : "failed");
	}
	return status;
}

int main(int argc, char **argv)
{
	struct job j;
	int status;

	memset(&j, 0, sizeof(j));
	parse_options(argc, argv, &j.o);
	if (j.o.merge)
		return merge_command(&j.o);
	if (j.o.confirm)
		return confirm_command(&j.o);
	if (j.o.fix)
		return fix_command(&j.o);
	if (j.o.report)
		return report_command(&j.o);
	status = scan_command(&j);
	job_free(&j);
	return status;
}
