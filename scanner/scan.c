/*
 * Each TU is parsed and analysed in a child process of its own, forked
 * from this single-threaded parent: a crash, a stack overflow, a hang or
 * a runaway allocation in libclang or in the rules costs that TU (a
 * notification, exit status 3), never the scan.  The child sends its
 * findings back over a pipe (wire.c); the parent keeps them per TU and
 * joins them in database order, so the output is the same for any -j.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <clang-c/Index.h>
#include "pool.h"
#include "scan.h"
#include "util.h"
#include "wire.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1	/* ASan reserves terabytes: no RLIMIT_AS; exit() runs LSan */
#else
#define SANITIZED 0
#endif

struct worker {
	pid_t pid;			/* 0: free */
	int fd;				/* read end of its pipe */
	size_t tu;
	struct timespec deadline;
	struct buf out;
};

struct sched {
	const struct compdb *db;
	const struct engine_opts *opts;
	const struct scan_limits *lim;
	CXIndex index;			/* made once, inherited by every child */
	const struct xtu_plan *plan;	/* a second walk: only its busy TUs */
	struct findings *tu_findings;	/* one list per TU */
	struct notices *tu_notices;
	struct xrecs *tu_xrecs;
	size_t next, failed;
	struct timespec start;
};

static volatile sig_atomic_t done_tus, total_tus;

void scan_progress(size_t *done, size_t *total)
{
	*done = (size_t)done_tus;
	*total = (size_t)total_tus;
}

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

/* libclang's CXErrorCode, for the one case it gives no diagnostic. */
static const char *const parse_errors[] = {
	[CXError_Failure] = "libclang could not parse it (an unreadable file, a "
			    "directory, or arguments that name no single source file)",
	[CXError_Crashed] = "libclang crashed on it",
	[CXError_InvalidArguments] = "libclang rejected its arguments",
	[CXError_ASTReadError] = "libclang could not read an AST file it names",
};

/* The child's work: parse, analyse, and say what happened. */
static unsigned run_tu(struct sched *s, size_t i, struct findings *f, struct notices *n,
		       struct xrecs *x)
{
	const struct tu *tu = &s->db->tu[i];
	CXTranslationUnit ctu = NULL;
	enum CXErrorCode rc;
	char *err;

	rc = clang_parseTranslationUnit2FullArgv(s->index, NULL,
		(const char *const *)tu->argv, tu->argc, NULL, 0, parse_flags, &ctu);
	if (rc != CXError_Success || !ctu) {
		notice_add(n, "error", tu->file, "%s: TU skipped: %s", tu->file,
			   (unsigned)rc < sizeof(parse_errors) / sizeof(*parse_errors) &&
			   parse_errors[rc] ? parse_errors[rc] : "libclang failed");
		return 1;
	}
	err = first_error(ctu);
	if (err) {
		/* Analysed all the same: clang recovers, and what it found
		 * is worth reporting, but the scan is incomplete. */
		notice_add(n, "error", tu->file, "%s: TU does not compile: %s", tu->file, err);
		free(err);
	}
	engine_run(ctu, s->opts, s->plan ? &s->plan->ctx[i] : NULL, f, x);
	clang_disposeTranslationUnit(ctu);
	return err != NULL;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		p += w;
		n -= (size_t)w;
	}
}

static void limit_memory(unsigned long mb)
{
	struct rlimit r;

	if (!mb || SANITIZED)
		return;
	r.rlim_cur = r.rlim_max = (rlim_t)mb << 20;
	setrlimit(RLIMIT_AS, &r);
}

static _Noreturn void worker_main(struct sched *s, size_t i, int fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS,
				    SIGFPE, SIGILL, SIGABRT };
	struct findings f = { 0 };
	struct notices n = { 0 };
	struct xrecs x = { 0 };
	struct buf b = { 0 };
	unsigned failed;

	for (size_t k = 0; k < sizeof(sigs) / sizeof(*sigs); k++)
		signal(sigs[k], SIG_DFL);	/* not the parent's cleanup */
	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* a killed scan takes its workers */
	limit_memory(s->lim->memory_mb);
	failed = run_tu(s, i, &f, &n, &x);
	wire_put(&b, &f, &n, &x, failed);
	write_all(fd, b.p, b.len);
	close(fd);
	if (SANITIZED) {		/* let LeakSanitizer check the child */
		buf_free(&b);
		findings_free(&f);
		notices_free(&n);
		xrecs_free(&x);
		exit(0);
	}
	_exit(0);
}

/* ---- the parent -------------------------------------------------------- */

static double secs_until(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (t->tv_sec - now.tv_sec) + (t->tv_nsec - now.tv_nsec) / 1e9;
}

static int start_worker(struct sched *s, struct worker *w)
{
	const struct tu *tu = &s->db->tu[s->next];
	struct notices *n = &s->tu_notices[s->next];
	struct stat st;
	int fds[2];

	w->tu = s->next++;
	if (stat(tu->file, &st) < 0) {
		notice_add(n, "error", tu->file, "%s: TU skipped: %s", tu->file, errno == ENOENT ?
			   "the source file no longer exists" : strerror(errno));
		s->failed++;
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		notice_add(n, "error", tu->file, "%s: TU skipped: a directory, not a source file",
			   tu->file);
		s->failed++;
		return 0;
	}
	if (pipe2(fds, O_CLOEXEC))
		die("cannot make a pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	w->pid = fork();
	if (w->pid < 0)
		die("cannot start a worker process: %s", strerror(errno));
	if (!w->pid) {
		close(fds[0]);
		worker_main(s, w->tu, fds[1]);
	}
	close(fds[1]);
	w->fd = fds[0];
	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	w->deadline.tv_sec += s->lim->timeout ? s->lim->timeout : 100L * 365 * 86400;
	return 1;
}

/* Why a worker gave nothing back, in the user's terms. */
static void report_death(struct sched *s, struct worker *w, int status, int timed_out,
			 const struct rusage *ru)
{
	const struct tu *tu = &s->db->tu[w->tu];
	struct notices *n = &s->tu_notices[w->tu];

	if (timed_out)
		notice_add(n, "error", tu->file, "%s: TU skipped: not done after %u s "
			   "(--tu-timeout); its worker was killed", tu->file, s->lim->timeout);
	else if (WIFSIGNALED(status))
		notice_add(n, "error", tu->file, "%s: TU skipped: its worker died of signal %d "
			   "(%s) after using %ld MB%s", tu->file, WTERMSIG(status),
			   strsignal(WTERMSIG(status)), ru->ru_maxrss / 1024,
			   s->lim->memory_mb && !SANITIZED ?
			   " (a failed allocation under --tu-memory ends this way too)" : "");
	else
		notice_add(n, "error", tu->file, "%s: TU skipped: its worker exited with status "
			   "%d", tu->file, WEXITSTATUS(status));
}

static void finish_worker(struct sched *s, struct worker *w, int timed_out)
{
	struct rusage ru = { 0 };
	unsigned failed = 1;
	int status = 0;

	if (timed_out)
		kill(w->pid, SIGKILL);
	close(w->fd);
	while (wait4(w->pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    wire_get(&w->out, &s->tu_findings[w->tu], &s->tu_notices[w->tu], &s->tu_xrecs[w->tu],
		     &failed))
		report_death(s, w, status, timed_out, &ru);
	s->failed += failed;
	buf_free(&w->out);
	w->pid = 0;
	done_tus++;
}

/* Read what is there; 1 when the worker has closed its end. */
static int drain(struct worker *w)
{
	char chunk[65536];
	ssize_t r = read(w->fd, chunk, sizeof(chunk));

	if (r < 0)
		return errno != EINTR && errno != EAGAIN;
	if (r == 0)
		return 1;
	buf_add(&w->out, chunk, (size_t)r);
	return 0;
}

static void wait_for_workers(struct sched *s, struct worker *w, int jobs)
{
	struct pollfd pf[jobs];
	int map[jobs], n = 0;
	double soonest = 1e9;

	for (int k = 0; k < jobs; k++) {
		if (!w[k].pid)
			continue;
		pf[n] = (struct pollfd){ .fd = w[k].fd, .events = POLLIN };
		map[n++] = k;
		if (secs_until(&w[k].deadline) < soonest)
			soonest = secs_until(&w[k].deadline);
	}
	if (!n)
		return;
	if (poll(pf, n, soonest <= 0 ? 0 : soonest > 1e6 ? -1 : (int)(soonest * 1000) + 1) < 0 &&
	    errno != EINTR)
		die("poll: %s", strerror(errno));
	for (int k = 0; k < n; k++) {
		struct worker *x = &w[map[k]];

		if ((pf[k].revents & (POLLIN | POLLHUP | POLLERR)) && drain(x))
			finish_worker(s, x, 0);
		else if (secs_until(&x->deadline) <= 0)
			finish_worker(s, x, 1);
	}
}

/* With a plan, only the TUs it has something to tell. */
static int wanted(const struct sched *s, size_t i)
{
	const struct xtu_ctx *c = s->plan ? &s->plan->ctx[i] : NULL;

	return !c || c->nseeds || c->nresolved || c->nrets;
}

void scan(const struct compdb *db, const struct engine_opts *opts,
	  const struct scan_limits *lim, const struct xtu_plan *plan, struct scan_result *res)
{
	struct sched s = { .db = db, .opts = opts, .lim = lim, .plan = plan };
	int jobs = lim->jobs < 1 ? 1 : lim->jobs, busy;
	struct worker *w = xcalloc(jobs, sizeof(*w));

	memset(res, 0, sizeof(*res));
	s.tu_findings = xcalloc(db->len ? db->len : 1, sizeof(*s.tu_findings));
	s.tu_notices = xcalloc(db->len ? db->len : 1, sizeof(*s.tu_notices));
	s.tu_xrecs = xcalloc(db->len ? db->len : 1, sizeof(*s.tu_xrecs));
	s.index = clang_createIndex(0, 0);
	clock_gettime(CLOCK_MONOTONIC, &s.start);
	done_tus = 0;
	total_tus = (sig_atomic_t)(plan ? plan->busy : db->len);
	do {
		busy = 0;
		for (int k = 0; k < jobs; k++) {
			while (!w[k].pid && s.next < db->len)
				if (!wanted(&s, s.next))
					s.next++;
				else if (!start_worker(&s, &w[k]))
					done_tus++;
			busy += w[k].pid != 0;
		}
		wait_for_workers(&s, w, jobs);
		if (lim->progress)
			progress_line(plan ? "CROSS-TU" : "SCAN", "TUs", (size_t)done_tus,
				      (size_t)total_tus, &s.start);
	} while (busy);
	if (lim->progress)
		fputs("\n", stderr);
	for (size_t i = 0; i < db->len; i++) {
		findings_move(&res->findings, &s.tu_findings[i]);
		notices_move(&res->notices, &s.tu_notices[i]);
		xrecs_move(&res->xrecs, &s.tu_xrecs[i], db->tu[i].file);
	}
	res->tus_scanned = plan ? plan->busy : db->len;
	res->tus_failed = s.failed;
	clang_disposeIndex(s.index);
	free(s.tu_findings);
	free(s.tu_notices);
	free(s.tu_xrecs);
	free(w);
}
