/*
 * One way to run a child: fork and exec argv, its output read through
 * close-on-exec pipes (workers spawn compilers concurrently; a pipe end
 * inherited by a sibling would keep our read from ever seeing EOF).
 * fork, not posix_spawn: the child sets its own address-space limit and
 * process group before exec, so the limit holds from its first
 * allocation and a kill at the deadline reaches what it started (gcc's
 * cc1, as).  Between fork and exec only async-signal-safe calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "spawn.h"
#include "util.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* In the child: never returns.  errno of a failed exec to errfd. */
static _Noreturn void exec_child(char *const argv[], const char *cwd, int out, int err, int errfd,
				 const struct spawn_limits *lim)
{
	int e;

	setpgid(0, 0);
	if (lim && lim->memory_mb) {
		struct rlimit r = { (rlim_t)lim->memory_mb << 20, (rlim_t)lim->memory_mb << 20 };

		setrlimit(RLIMIT_AS, &r);
	}
	if (dup2(out, 1) < 0 || (err >= 0 && dup2(err, 2) < 0) || (cwd && chdir(cwd)))
		e = errno;
	else
		execvp(argv[0], argv), e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Standard output, whole, or until the deadline (then *late is set). */
static char *read_until(int fd, double deadline, size_t *len, int *late)
{
	struct buf b = { 0 };
	char chunk[65536];

	for (;;) {
		double left = deadline - now();
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t r;

		if (left <= 0) {
			*late = 1;
			break;
		}
		if (poll(&pf, 1, left > 1e6 ? -1 : (int)(left * 1000) + 1) <= 0)
			continue;
		r = read(fd, chunk, sizeof(chunk));
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			break;
		buf_add(&b, chunk, (size_t)r);
	}
	buf_add(&b, "", 1);
	if (len)
		*len = b.len - 1;
	return b.p;
}

/* Its exit status; killed (with its process group) at the deadline. */
static int wait_child(pid_t pid, double deadline, int *late)
{
	int status;
	pid_t r;

	for (;;) {
		if (!*late && now() >= deadline)
			*late = 1;
		if (*late)
			kill(-pid, SIGKILL);
		r = waitpid(pid, &status, *late || deadline > 1e17 ? 0 : WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!r)
			usleep(5000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int spawn_limited(char *const argv[], const char *cwd, const struct spawn_limits *lim,
		  char **out, size_t *len, char **errtext, char **err)
{
	double deadline = lim && lim->timeout ? now() + lim->timeout : 1e18;
	int fds[2], efd[2], status, late = 0, e;
	FILE *errf = NULL;
	ssize_t r;
	pid_t pid;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC) || pipe2(efd, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	/* Standard error to an anonymous file: no second pipe to drain. */
	if (errtext && !(errf = tmpfile()))
		die("tmpfile: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		exec_child(argv, cwd, fds[1], errf ? fileno(errf) : -1, efd[1], lim);
	setpgid(pid, pid);	/* before our kill(-pid), whichever runs first */
	close(fds[1]);
	close(efd[1]);
	while ((r = read(efd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(efd[0]);
	if (r == (ssize_t)sizeof(e)) {
		close(fds[0]);
		wait_child(pid, deadline, &late);
		if (errf)
			fclose(errf);
		*err = xasprintf("cannot run %s: %s", argv[0], strerror(e));
		return -1;
	}
	*out = read_until(fds[0], deadline, len, &late);
	close(fds[0]);
	status = wait_child(pid, deadline, &late);
	if (errf) {
		rewind(errf);
		*errtext = read_all(errf, NULL);
		fclose(errf);
	}
	if (late || status) {
		*err = late ? xasprintf("%s not done after %u s (--tu-timeout)", argv[0],
					lim->timeout) :
			xasprintf("%s %s failed (%s %d)", argv[0], argv[1] ? argv[1] : "",
				  status > 128 ? "signal" : "exit",
				  status > 128 ? status - 128 : status);
		free(*out);
		*out = NULL;
		return late ? SPAWN_LATE : -1;
	}
	return 0;
}

int spawn_capture(char *const argv[], const char *cwd, char **out, size_t *len, char **errtext,
		  char **err)
{
	return spawn_limited(argv, cwd, NULL, out, len, errtext, err);
}
