/* Reports are written to a temporary file beside the target and renamed
 * over it only when complete: a failed scan never leaves half a report. */
#ifndef CHARSCAN_OUTPUT_H
#define CHARSCAN_OUTPUT_H

#include <stdio.h>

struct output {
	char *path, *tmp;
	FILE *f;
};

/* Opened before the scan, so that an unwritable path fails at once. */
int output_open(struct output *o, const char *path, char **err);
/* Flush, close, rename; -1 with *err on any write error. */
int output_commit(struct output *o, char **err);
void output_abort(struct output *o);

#endif
