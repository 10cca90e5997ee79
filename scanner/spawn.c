/*
 * One way to run a child: posix_spawn with argv, its output read through
 * close-on-exec pipes (workers spawn compilers concurrently; a pipe end
 * inherited by a sibling would keep our read from ever seeing EOF).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "spawn.h"
#include "util.h"

extern char **environ;

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int spawn_capture(char *const argv[], const char *cwd, char **out, size_t *len, char **errtext,
		  char **err)
{
	posix_spawn_file_actions_t fa;
	int fds[2], rc, status;
	FILE *f, *errf = NULL;
	pid_t pid;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	/* Standard error to an anonymous file: no second pipe to drain. */
	if (errtext && !(errf = tmpfile()))
		die("tmpfile: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (errf)
		posix_spawn_file_actions_adddup2(&fa, fileno(errf), 2);
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		if (errf)
			fclose(errf);
		*err = xasprintf("cannot run %s: %s", argv[0], strerror(rc));
		return -1;
	}
	f = fdopen(fds[0], "r");
	*out = read_all(f, len);
	fclose(f);
	status = wait_child(pid);
	if (errf) {
		rewind(errf);
		*errtext = read_all(errf, NULL);
		fclose(errf);
	}
	if (status) {
		*err = xasprintf("%s %s failed (%s %d)", argv[0], argv[1] ? argv[1] : "",
				 status > 128 ? "signal" : "exit", status > 128 ? status - 128 : status);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
