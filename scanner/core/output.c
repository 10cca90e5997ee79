/*
 * The temporary is named TARGET.charscan-PID-XXXXXX: a signal handler
 * can remove it (its name is kept in a static buffer), and a later run
 * can tell a temporary whose writer has died from one still being
 * written.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"
#include "util.h"

static char live_tmp[PATH_MAX + 64];	/* for the signal handler */
static void (*live_progress)(char *buf, size_t size);

/* The path to write: path itself, or the regular file a link names. */
static char *target_of(const char *path, char **err)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? xstrdup(path) :
		       (*err = xasprintf("cannot write %s: %s", path, strerror(errno)), NULL);
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) < 0 || !(real = realpath(path, NULL))) {
			*err = xasprintf("will not write %s: it is a symbolic link to nothing",
					 path);
			return NULL;
		}
		if (!S_ISREG(st.st_mode)) {
			*err = xasprintf("will not write %s: it is a symbolic link to %s", path,
					 file_kind(st.st_mode));
			free(real);
			return NULL;
		}
		return real;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xasprintf("will not write %s: it is %s; give a regular file, or - for "
				 "standard output", path, file_kind(st.st_mode));
		return NULL;
	}
	return xstrdup(path);
}

/* TARGET.charscan-PID-XXXXXX whose PID is gone: left by a killed run. */
static void remove_stale(const char *target)
{
	char *copy = xstrdup(target), *copy2 = xstrdup(target);
	const char *dir = dirname(copy), *base = basename(copy2);
	char *prefix = xasprintf("%s.charscan-", base);
	size_t plen = strlen(prefix);
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		char *end, *p;
		long pid;

		if (strncmp(e->d_name, prefix, plen))
			continue;
		pid = strtol(e->d_name + plen, &end, 10);
		if (pid <= 0 || *end != '-' || strlen(end) != 7 ||
		    (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(copy);
	free(copy2);
}

int output_open(struct output *o, const char *path, char **err)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->path = xstrdup("-");
		o->f = stdout;
		return 0;
	}
	if (!(o->path = target_of(path, err)))
		return -1;
	remove_stale(o->path);
	o->tmp = xasprintf("%s.charscan-%ld-XXXXXX", o->path, (long)getpid());
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		*err = xasprintf("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	if (strlen(o->tmp) < sizeof(live_tmp))
		strcpy(live_tmp, o->tmp);
	/* A file replaces the old one with the old one's mode, owner and
	 * group (charscan fix run as root on a user's tree); a new one is an
	 * ordinary file (mkstemp makes 0600). */
	if (stat(o->path, &st) == 0) {
		/* Only root may give a file away; anyone else keeps theirs. */
		(void)!fchown(fd, st.st_uid, st.st_gid);
		fchmod(fd, st.st_mode & 07777);
	} else
		fchmod(fd, 0644 & ~umask(umask(0)));
	return 0;
}

int output_is(const struct output *o, const char *path)
{
	struct stat a, b;

	return o->tmp && stat(o->path, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int output_names(const char *out, const char *path)
{
	struct stat a, b;

	return out && path && strcmp(out, "-") && stat(out, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int output_commit(struct output *o, char **err)
{
	int bad, saved;

	if (!o->tmp) {			/* standard output */
		bad = fflush(o->f) || ferror(o->f);
		if (bad)
			*err = xasprintf("cannot write the report to standard output: %s",
					 strerror(errno));
		free(o->path);
		memset(o, 0, sizeof(*o));
		return bad ? -1 : 0;
	}
	bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
	saved = errno;
	if (fclose(o->f) && !bad) {
		bad = 1;
		saved = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path)) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		*err = xasprintf("cannot write %s: %s", o->path, strerror(saved));
		unlink(o->tmp);
	}
	live_tmp[0] = '\0';
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return bad ? -1 : 0;
}

void output_abort(struct output *o)
{
	if (o->f && o->tmp) {
		fclose(o->f);
		unlink(o->tmp);
		live_tmp[0] = '\0';
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

/* ---- signals: only async-signal-safe calls below ----------------------- */

static void on_signal(int sig)
{
	char msg[256];
	int fatal = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
		    sig == SIGABRT;

	if (live_tmp[0])
		unlink(live_tmp);
	if (live_progress) {
		live_progress(msg, sizeof(msg));
		if (write(2, msg, strlen(msg)) < 0)
			sig |= 0;
	}
	if (fatal) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	_exit(128 + sig);
}

void output_cleanup_on_signals(void (*progress)(char *buf, size_t size))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				    SIGABRT };
	struct sigaction sa;

	live_progress = progress;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}
