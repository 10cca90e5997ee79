/*
 * Reports are written to a temporary file beside the target and renamed
 * over it only when complete: a failed or interrupted scan never leaves
 * half a report, and never replaces anything but a regular file.
 */
#ifndef CHARSCAN_OUTPUT_H
#define CHARSCAN_OUTPUT_H

#include <stdio.h>

struct output {
	char *path, *tmp;		/* tmp NULL: standard output ("-") */
	FILE *f;
};

/*
 * Opened before the scan, so that a bad path fails at once: "-" is
 * standard output; a device, FIFO, directory, or a symbolic link to one,
 * is refused; a link to a regular file writes that file.  Stale
 * temporaries of earlier charscan runs that died are removed.
 */
int output_open(struct output *o, const char *path, char **err);
/* Is the target the same file as path (an input of the scan)? */
int output_is(const struct output *o, const char *path);
/* Is out (not yet opened; "-" is none) the same file as path, through
 * links?  Every subcommand asks before it writes over what it reads. */
int output_names(const char *out, const char *path);
/* Flush, close, rename (keeping the old file's mode); -1 with *err. */
int output_commit(struct output *o, char **err);
void output_abort(struct output *o);
/* On SIGINT, SIGTERM, SIGHUP (and a crash): remove the temporary, say
 * what was done by calling progress(), exit 128 + the signal. */
void output_cleanup_on_signals(void (*progress)(char *buf, size_t size));

#endif
