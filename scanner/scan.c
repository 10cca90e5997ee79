/*
 * Each worker thread (pool.c) has its own CXIndex (libclang indexes are
 * not shared between threads) and writes its findings to its own list
 * and notices to the TU's slot, so nothing depends on which worker ran
 * what: the merged, sorted output is the same for any -j.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <clang-c/Index.h>
#include "pool.h"
#include "scan.h"
#include "util.h"

struct shared {
	const struct compdb *db;
	const struct engine_opts *opts;
	atomic_size_t failed;
	struct notices *tu_notices;	/* one list per TU */
	struct scan_result *res;
};

struct worker {
	CXIndex index;
	struct findings findings;
};

static const unsigned parse_flags =
	CXTranslationUnit_DetailedPreprocessingRecord |	/* macro definitions */
	CXTranslationUnit_KeepGoing;

/* The first error of a TU, as "file:line:col: message"; NULL if none. */
static char *first_error(CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu);

	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		char *msg = NULL;

		if (sev >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d,
				CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);

			msg = xstrdup(clang_getCString(s));
			clang_disposeString(s);
		}
		clang_disposeDiagnostic(d);
		if (msg)
			return msg;
	}
	return NULL;
}

static void scan_tu(void *ctx, void *state, size_t i)
{
	struct shared *sh = ctx;
	struct worker *wk = state;
	const struct tu *tu = &sh->db->tu[i];
	struct notices *notes = &sh->tu_notices[i];
	CXTranslationUnit ctu = NULL;
	enum CXErrorCode rc;
	struct stat st;
	char *err;

	if (stat(tu->file, &st) < 0) {
		notice_add(notes, "error", tu->file, "%s: source file no longer exists; TU skipped",
			   tu->file);
		atomic_fetch_add(&sh->failed, 1);
		return;
	}
	rc = clang_parseTranslationUnit2FullArgv(wk->index, NULL,
		(const char *const *)tu->argv, tu->argc, NULL, 0, parse_flags, &ctu);
	if (rc != CXError_Success || !ctu) {
		notice_add(notes, "error", tu->file, "%s: libclang could not parse this TU (error %d)",
			   tu->file, (int)rc);
		atomic_fetch_add(&sh->failed, 1);
		return;
	}
	err = first_error(ctu);
	if (err) {
		/* Analysed all the same: clang recovers, and what it found
		 * is worth reporting, but the scan is incomplete. */
		notice_add(notes, "error", tu->file, "%s: TU does not compile: %s", tu->file, err);
		atomic_fetch_add(&sh->failed, 1);
		free(err);
	}
	engine_run(ctu, sh->opts, &wk->findings);
	clang_disposeTranslationUnit(ctu);
}

static void *start(void *ctx)
{
	struct worker *wk = xcalloc(1, sizeof(*wk));

	(void)ctx;
	wk->index = clang_createIndex(0, 0);
	return wk;
}

static void stop(void *ctx, void *state)
{
	struct shared *sh = ctx;
	struct worker *wk = state;

	clang_disposeIndex(wk->index);
	findings_move(&sh->res->findings, &wk->findings);
	free(wk);
}

void scan(const struct compdb *db, const struct engine_opts *opts, int jobs,
	  int progress, struct scan_result *res)
{
	struct shared sh = { .db = db, .opts = opts, .res = res };
	struct pool_work w = {
		.n = db->len, .jobs = jobs, .label = progress ? "SCAN" : NULL, .unit = "TUs",
		.ctx = &sh, .start = start, .item = scan_tu, .stop = stop,
	};

	memset(res, 0, sizeof(*res));
	sh.tu_notices = xcalloc(db->len, sizeof(*sh.tu_notices));
	pool_run(&w);
	for (size_t i = 0; i < db->len; i++)
		notices_move(&res->notices, &sh.tu_notices[i]);
	res->tus_scanned = db->len;
	res->tus_failed = atomic_load(&sh.failed);
	free(sh.tu_notices);
}
