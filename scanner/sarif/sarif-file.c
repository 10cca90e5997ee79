/*
 * SARIF files: written atomically, merged and appended to.  A merge is
 * the scan's own path: each log read back into findings (sarif-read.c),
 * concatenated, sorted and de-duplicated by findings_finish() and
 * notices_finish(), written by sarif_log().  kbuild's C=1 runs one
 * charscan per file and make -j runs them at once, so appending holds
 * an flock on REPORT.lock; a whole scan's write to the same report
 * holds it too, and keeps what was appended while it scanned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/core.h"
#include "sarif.h"

int sarif_join(struct sarif_in *into, struct sarif_in *from, char **err)
{
	if (strcmp(into->srcroot, from->srcroot)) {
		*err = xasprintf("the logs have another %%SRCROOT%% each (%s and %s): "
				 "they cannot be one run", into->srcroot, from->srcroot);
		return -1;
	}
	if (into->store_key && from->store_key && strcmp(into->store_key, from->store_key)) {
		*err = xasprintf("the logs were scanned for other summary stores (keys %s and %s): "
				 "another database or other options", into->store_key,
				 from->store_key);
		return -1;
	}
	if (!into->store_key && from->store_key) {
		into->store_key = from->store_key;
		from->store_key = NULL;
	}
	if (strcmp(into->signedness, from->signedness)) {
		free(into->signedness);
		into->signedness = xstrdup("both");
	}
	into->complete &= from->complete;
	findings_move(&into->findings, &from->findings);
	notices_move(&into->notices, &from->notices);
	return 0;
}

json_t *sarif_in_log(struct sarif_in *in)
{
	struct filecache none = { 0 };
	struct sarif_run run = { in->srcroot, in->signedness, in->complete, &none, NULL,
				 NULL };

	json_t *log;

	/* A result without fingerprints gets them from the file, as in a scan. */
	findings_finish(&in->findings, in->srcroot, &none);
	notices_finish(&in->notices);
	log = sarif_log(&in->findings, &in->notices, &run);
	filecache_free(&none);
	return log;
}

int sarif_dump(json_t *log, struct output *out, char **err)
{
	errno = 0;
	if (json_dumpf(log, out->f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', out->f) == EOF) {
		*err = xasprintf("cannot write %s: %s", out->path, strerror(errno ? errno : EIO));
		output_abort(out);
		return -1;
	}
	return output_commit(out, err);
}

int sarif_write(const char *path, json_t *log, char **err)
{
	struct output out;

	if (output_open(&out, path, err))
		return -1;
	return sarif_dump(log, &out, err);
}

/* The lock file is created next to the report, which may be in a
 * folder others can write: a symlink planted there is not followed. */
static int lock_report(const char *path, char **err)
{
	char *lock_path = xasprintf("%s.lock", path);
	int fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd >= 0 && flock(fd, LOCK_EX)) {
		*err = xasprintf("cannot lock %s: %s", lock_path, strerror(errno));
		close(fd);
		fd = -1;
	} else if (fd < 0) {
		*err = errno == ELOOP ? xasprintf("will not lock %s: it is a symbolic link",
						  lock_path)
				      : xasprintf("cannot lock %s: %s", lock_path, strerror(errno));
	}
	free(lock_path);
	return fd;
}

/* log joined into the report at path, if there is one; NULL with *err. */
static json_t *joined(const char *path, json_t *log, char **err)
{
	struct sarif_in all = { 0 }, mine = { 0 };
	json_t *merged = NULL;

	if (sarif_from_json(log, "this scan's report", &mine, err) ||
	    (access(path, F_OK) == 0 && sarif_load(path, &all, err)))
		goto out;
	if (!all.srcroot) {
		all = mine;
		memset(&mine, 0, sizeof(mine));
	} else if (sarif_join(&all, &mine, err)) {
		goto out;
	}
	merged = sarif_in_log(&all);
out:
	sarif_in_free(&all);
	sarif_in_free(&mine);
	return merged;
}

int sarif_append(const char *path, json_t *log, char **err)
{
	int fd = lock_report(path, err), rc = -1;
	json_t *merged;

	if (fd < 0)
		return -1;
	if ((merged = joined(path, log, err))) {
		rc = sarif_write(path, merged, err);
		json_decref(merged);
	}
	close(fd);	/* drops the lock */
	return rc;
}

void sarif_mark(const char *path, struct sarif_mark *m)
{
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (!stat(path, &st)) {
		m->dev = st.st_dev;
		m->ino = st.st_ino;
	}
}

int sarif_dump_shared(json_t *log, struct output *out, const char *path,
		      const struct sarif_mark *before, char **err)
{
	struct sarif_mark now;
	json_t *merged = NULL;
	int fd, rc = -1;

	if (!out->tmp)
		return sarif_dump(log, out, err);
	if ((fd = lock_report(path, err)) < 0) {
		output_abort(out);
		return -1;
	}
	sarif_mark(path, &now);
	/* Replaced since the scan began: a --kbuild append wrote it. */
	if (now.ino && (now.dev != before->dev || now.ino != before->ino))
		log = merged = joined(path, log, err);
	if (log)
		rc = sarif_dump(log, out, err);
	else
		output_abort(out);
	json_decref(merged);
	close(fd);
	return rc;
}
