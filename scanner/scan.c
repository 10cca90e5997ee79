/*
 * Workers take TUs from a shared counter.  Each has its own CXIndex (libclang
 * indexes are not shared between threads) and writes its findings to its
 * own list and notices to the TU's slot, so nothing depends on which
 * worker ran what: the merged, sorted output is the same for any -j.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <clang-c/Index.h>
#include "scan.h"
#include "util.h"

struct shared {
	const struct compdb *db;
	const struct engine_opts *opts;
	atomic_size_t next, done, failed;
	struct notices *tu_notices;	/* one list per TU */
	int progress;
	struct timespec start;
	pthread_mutex_t progress_lock;
};

struct worker {
	pthread_t thread;
	struct shared *sh;
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

static void show_progress(struct shared *sh)
{
	struct timespec now;
	double secs, rate;
	size_t done = atomic_load(&sh->done), total = sh->db->len;

	if (!sh->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (now.tv_sec - sh->start.tv_sec) + (now.tv_nsec - sh->start.tv_nsec) / 1e9;
	rate = secs > 0 ? done / secs : 0;
	pthread_mutex_lock(&sh->progress_lock);
	fprintf(stderr, "\r  SCAN  %zu/%zu TUs  %.1f TU/s  ETA %.0f s  ",
		done, total, rate, rate > 0 ? (total - done) / rate : 0.0);
	pthread_mutex_unlock(&sh->progress_lock);
}

static void scan_tu(struct worker *wk, CXIndex index, size_t i)
{
	struct shared *sh = wk->sh;
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
	rc = clang_parseTranslationUnit2FullArgv(index, NULL,
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

static void *work(void *arg)
{
	struct worker *wk = arg;
	struct shared *sh = wk->sh;
	CXIndex index = clang_createIndex(0, 0);
	size_t i;

	while ((i = atomic_fetch_add(&sh->next, 1)) < sh->db->len) {
		scan_tu(wk, index, i);
		atomic_fetch_add(&sh->done, 1);
		show_progress(sh);
	}
	clang_disposeIndex(index);
	return NULL;
}

void scan(const struct compdb *db, const struct engine_opts *opts, int jobs,
	  int progress, struct scan_result *res)
{
	struct shared sh = { .db = db, .opts = opts, .progress = progress };
	struct worker *wk;

	memset(res, 0, sizeof(*res));
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > db->len)
		jobs = db->len ? (int)db->len : 1;
	sh.tu_notices = xcalloc(db->len, sizeof(*sh.tu_notices));
	pthread_mutex_init(&sh.progress_lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &sh.start);
	wk = xcalloc(jobs, sizeof(*wk));
	for (int j = 0; j < jobs; j++) {
		wk[j].sh = &sh;
		if (pthread_create(&wk[j].thread, NULL, work, &wk[j]))
			die("cannot start a worker thread");
	}
	for (int j = 0; j < jobs; j++) {
		pthread_join(wk[j].thread, NULL);
		findings_move(&res->findings, &wk[j].findings);
	}
	if (progress)
		fputs("\n", stderr);
	for (size_t i = 0; i < db->len; i++)
		notices_move(&res->notices, &sh.tu_notices[i]);
	res->tus_scanned = db->len;
	res->tus_failed = atomic_load(&sh.failed);
	free(sh.tu_notices);
	free(wk);
	pthread_mutex_destroy(&sh.progress_lock);
}
