#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"
#include "util.h"

int output_open(struct output *o, const char *path, char **err)
{
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	o->tmp = xasprintf("%s.XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		*err = xasprintf("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	/* mkstemp makes it 0600; a report is an ordinary file. */
	fchmod(fd, 0644 & ~umask(umask(0)));
	return 0;
}

int output_commit(struct output *o, char **err)
{
	int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
	int saved = errno;

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
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return bad ? -1 : 0;
}

void output_abort(struct output *o)
{
	if (o->f) {
		fclose(o->f);
		unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}
