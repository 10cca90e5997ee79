/*
 * TUs are parsed and analysed in worker processes forked from this
 * single-threaded parent: a crash, a stack overflow, a hang or a runaway
 * allocation in libclang or in the rules costs the TU in hand (a
 * notification, exit status 3), never the scan.  A worker takes one TU
 * after another (a fresh process per TU costs about half a parse more:
 * page faults and libclang's start) and is replaced after a number of
 * them, so that its memory stays bounded.  It sends each TU's findings
 * back over its socket (wire.c, with a length before it); the parent
 * keeps them per TU and joins them in database order, so the output is
 * the same for any -j.  With --cache, a TU whose entry is fresh is
 * answered by the parent from the message kept (cache.c), and a worker
 * stores the message of each TU it parsed cleanly: the output is the
 * same with and without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <clang-c/Index.h>
#include "core/core.h"
#include "cache.h"
#include "scan.h"
#include "wire.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1	/* ASan, TSan reserve terabytes: no RLIMIT_AS; exit() runs LSan */
#else
#define SANITIZED 0
#endif

#define TUS_PER_WORKER 32	/* then a fresh process: memory stays bounded */

struct worker {
	pid_t pid;			/* 0: none */
	int fd;				/* the parent's end of its socket */
	int busy;			/* on TU tu */
	size_t tu;
	unsigned done;			/* TUs it has finished */
	struct timespec deadline;
	struct buf out;			/* what it sent of TU tu's answer */
};

struct sched {
	const struct compdb *db;
	const struct engine_opts *opts;
	const struct scan_limits *lim;
	CXIndex index;			/* made once, inherited by every worker */
	const struct xtu_plan *plan;	/* a second walk: only its busy TUs */
	struct findings *tu_findings;	/* one list per TU */
	struct notices *tu_notices;
	struct xrecs *tu_xrecs;
	struct worker *w;
	int jobs;
	size_t next, failed;
	size_t cached;			/* TUs answered from the cache */
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

/* The child's work: parse, analyse, and say what happened; the TU is
 * left in *ctu (NULL if it could not be parsed) for the cache. */
static unsigned run_tu(struct sched *s, size_t i, struct findings *f, struct notices *n,
		       struct xrecs *x, CXTranslationUnit *pctu)
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
	*pctu = ctu;
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

static int read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* One TU's answer, its length first. */
static void answer(struct sched *s, uint32_t i, int fd)
{
	struct findings f = { 0 };
	struct notices n = { 0 };
	struct xrecs x = { 0 };
	struct buf b = { 0 };
	CXTranslationUnit ctu = NULL;
	unsigned failed = run_tu(s, i, &f, &n, &x, &ctu);
	uint64_t len;

	wire_put(&b, &f, &n, &x, failed);
	/* A TU that does not compile may be missing a header that, once
	 * there, changes it: only a clean parse is kept. */
	if (ctu && !failed && s->lim->cache) {
		char key[CACHE_KEY_HEX];

		cache_key(&s->db->tu[i], s->opts, s->plan ? &s->plan->ctx[i] : NULL, key);
		cache_store(s->lim->cache->dir, key, s->index, ctu, &s->db->tu[i], &b);
	}
	if (ctu)
		clang_disposeTranslationUnit(ctu);
	len = b.len;
	write_all(fd, (const char *)&len, sizeof(len));
	write_all(fd, b.p, b.len);
	buf_free(&b);
	findings_free(&f);
	notices_free(&n);
	xrecs_free(&x);
}

/* The worker: TU numbers in, answers out, until the parent hangs up. */
static _Noreturn void worker_main(struct sched *s, int fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS,
				    SIGFPE, SIGILL, SIGABRT };
	uint32_t i;

	for (size_t k = 0; k < sizeof(sigs) / sizeof(*sigs); k++)
		signal(sigs[k], SIG_DFL);	/* not the parent's cleanup */
	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* a killed scan takes its workers */
	limit_memory(s->lim->memory_mb);
	while (!read_full(fd, &i, sizeof(i)) && i < s->db->len)
		answer(s, i, fd);
	close(fd);
	if (SANITIZED)			/* let LeakSanitizer check the worker */
		exit(0);
	_exit(0);
}

/* ---- the parent -------------------------------------------------------- */

static double secs_until(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (t->tv_sec - now.tv_sec) + (t->tv_nsec - now.tv_nsec) / 1e9;
}

/* A fresh worker process in slot w. */
static void spawn(struct sched *s, struct worker *w)
{
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
		die("cannot make a socket pair: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	w->pid = fork();
	if (w->pid < 0)
		die("cannot start a worker process: %s", strerror(errno));
	if (!w->pid) {
		/* The other workers' sockets are not this one's: a copy
		 * here would keep them from seeing the parent hang up. */
		for (int k = 0; k < s->jobs; k++)
			if (s->w[k].pid > 0 && &s->w[k] != w)
				close(s->w[k].fd);
		close(fds[0]);
		worker_main(s, fds[1]);
	}
	close(fds[1]);
	w->fd = fds[0];
	w->done = 0;
	w->busy = 0;
}

/* Hang up on an idle worker and wait for it to go. */
static void retire(struct worker *w)
{
	if (!w->pid)
		return;
	close(w->fd);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
}

/* A TU that cannot even be given to a worker. */
static int missing(struct sched *s, size_t i)
{
	const struct tu *tu = &s->db->tu[i];
	struct notices *n = &s->tu_notices[i];
	struct stat st;

	if (stat(tu->file, &st) < 0)
		notice_add(n, "error", tu->file, "%s: TU skipped: %s", tu->file, errno == ENOENT ?
			   "the source file no longer exists" : strerror(errno));
	else if (S_ISDIR(st.st_mode))
		notice_add(n, "error", tu->file, "%s: TU skipped: a directory, not a source file",
			   tu->file);
	else
		return 0;
	s->failed++;
	return 1;
}

/* TU i answered from the cache: the worker's message as it was kept. */
static int from_cache(struct sched *s, size_t i)
{
	struct scan_cache *c = s->lim->cache;
	char key[CACHE_KEY_HEX];
	struct buf msg = { 0 };
	unsigned failed = 0;
	int hit;

	if (!c)
		return 0;
	cache_key(&s->db->tu[i], s->opts, s->plan ? &s->plan->ctx[i] : NULL, key);
	hit = cache_lookup(c, key, &s->db->tu[i], &msg, &s->tu_notices[i]);
	if (hit && wire_get(&msg, &s->tu_findings[i], &s->tu_notices[i], &s->tu_xrecs[i],
			    &failed)) {
		notice_add(&s->tu_notices[i], "note", s->db->tu[i].file, "%s: cache entry %s/%.2s/%s "
			   "holds no whole answer; TU parsed again", s->db->tu[i].file, c->dir,
			   key, key);
		hit = 0;
	}
	buf_free(&msg);
	if (hit) {
		s->failed += failed;
		s->cached++;
	} else {
		cache_parsed(c, i, s->db->len);
	}
	return hit;
}

/* Give TU s->next to worker w; 0 if it was done without one. */
static int start_tu(struct sched *s, struct worker *w)
{
	uint32_t i = (uint32_t)s->next++;

	if (missing(s, i) || from_cache(s, i))
		return 0;
	if (w->pid && w->done >= TUS_PER_WORKER)
		retire(w);
	for (int tries = 0; ; tries++) {
		if (!w->pid)
			spawn(s, w);
		if (send(w->fd, &i, sizeof(i), MSG_NOSIGNAL) == (ssize_t)sizeof(i))
			break;
		/* Gone between two TUs: a new one, once. */
		close(w->fd);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->pid = 0;
		if (tries)
			die("cannot hand a TU to a worker process: %s", strerror(errno));
	}
	w->tu = i;
	w->busy = 1;
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

/* The worker died or hung on its TU: that TU failed; the slot is free. */
static void lose_worker(struct sched *s, struct worker *w, int timed_out)
{
	struct rusage ru = { 0 };
	int status = 0;

	if (timed_out)
		kill(w->pid, SIGKILL);
	close(w->fd);
	while (wait4(w->pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	if (w->busy) {
		report_death(s, w, status, timed_out, &ru);
		s->failed++;
		done_tus++;
	}
	buf_free(&w->out);
	w->pid = 0;
	w->busy = 0;
}

/* The whole answer for the TU in hand is there: take it. */
static int answered(struct sched *s, struct worker *w)
{
	uint64_t len;
	struct buf msg;
	unsigned failed = 1;

	if (w->out.len < sizeof(len))
		return 0;
	memcpy(&len, w->out.p, sizeof(len));
	if (w->out.len - sizeof(len) < len)
		return 0;
	msg = (struct buf){ w->out.p + sizeof(len), (size_t)len, (size_t)len };
	if (w->out.len != sizeof(len) + len ||
	    wire_get(&msg, &s->tu_findings[w->tu], &s->tu_notices[w->tu], &s->tu_xrecs[w->tu],
		     &failed))
		return -1;
	s->failed += failed;
	buf_free(&w->out);
	w->busy = 0;
	w->done++;
	done_tus++;
	return 1;
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

static void wait_for_workers(struct sched *s)
{
	struct pollfd pf[s->jobs];
	int map[s->jobs], n = 0;
	double soonest = 1e9;

	for (int k = 0; k < s->jobs; k++) {
		if (!s->w[k].busy)
			continue;
		pf[n] = (struct pollfd){ .fd = s->w[k].fd, .events = POLLIN };
		map[n++] = k;
		if (secs_until(&s->w[k].deadline) < soonest)
			soonest = secs_until(&s->w[k].deadline);
	}
	if (!n)
		return;
	if (poll(pf, n, soonest <= 0 ? 0 : soonest > 1e6 ? -1 : (int)(soonest * 1000) + 1) < 0 &&
	    errno != EINTR)
		die("poll: %s", strerror(errno));
	for (int k = 0; k < n; k++) {
		struct worker *x = &s->w[map[k]];

		if (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) {
			/* A broken answer, or none: the worker is not to be
			 * trusted with another TU. */
			if (drain(x) || answered(s, x) < 0)
				lose_worker(s, x, 0);
		} else if (secs_until(&x->deadline) <= 0) {
			lose_worker(s, x, 1);
		}
	}
}

/* With a plan, only the TUs it has something to tell. */
static int wanted(const struct sched *s, size_t i)
{
	return !s->plan || xtu_busy(&s->plan->ctx[i]);
}

void scan(const struct compdb *db, const struct engine_opts *opts,
	  const struct scan_limits *lim, const struct xtu_plan *plan, struct scan_result *res)
{
	struct sched s = { .db = db, .opts = opts, .lim = lim, .plan = plan };
	int busy;

	s.jobs = lim->jobs < 1 ? 1 : lim->jobs;
	s.w = xcalloc(s.jobs, sizeof(*s.w));
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
		for (int k = 0; k < s.jobs; k++) {
			while (!s.w[k].busy && s.next < db->len)
				if (!wanted(&s, s.next))
					s.next++;
				else if (!start_tu(&s, &s.w[k]))
					done_tus++;
			busy += s.w[k].busy;
		}
		wait_for_workers(&s);
		if (lim->progress)
			progress_line(plan ? "CROSS-TU" : "SCAN", "TUs", (size_t)done_tus,
				      (size_t)total_tus, &s.start);
	} while (busy);
	for (int k = 0; k < s.jobs; k++)
		retire(&s.w[k]);
	if (lim->progress)
		fputs("\n", stderr);
	for (size_t i = 0; i < db->len; i++) {
		findings_move(&res->findings, &s.tu_findings[i]);
		notices_move(&res->notices, &s.tu_notices[i]);
		xrecs_move(&res->xrecs, &s.tu_xrecs[i], db->tu[i].file);
	}
	res->tus_scanned = plan ? plan->busy : db->len;
	res->tus_failed = s.failed;
	res->tus_cached = s.cached;
	clang_disposeIndex(s.index);
	free(s.tu_findings);
	free(s.tu_notices);
	free(s.tu_xrecs);
	free(s.w);
}
