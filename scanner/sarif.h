/* The SARIF 2.1.0 report of one scan (sarif.c), logs read back and
 * checked (sarif-read.c), merged and appended to (sarif-merge.c). */
#ifndef CHARSCAN_SARIF_H
#define CHARSCAN_SARIF_H

#include <stdio.h>
#include <jansson.h>
#include "filecache.h"
#include "findings.h"
#include "output.h"

#define SARIF_SCHEMA_URI "https://json.schemastore.org/sarif-2.1.0.json"

struct sarif_run {
	const char *srcroot;		/* %SRCROOT%: URIs are relative to it */
	const char *signedness;		/* both | signed | unsigned */
	int complete;			/* every TU parsed */
	struct filecache *src;		/* for UTF-16 columns */
	json_t *absent;			/* baseline results gone now, or NULL */
};

/* A JSON string of s; JSON is UTF-8, source text and paths may not be:
 * a byte that is not valid UTF-8 becomes U+FFFD. */
json_t *json_text(const char *s);

/* A result's message.text: the message and links to its related
 * locations; caller frees. */
char *sarif_message(const struct finding *x);

/* Deterministic: the same findings give the same log. */
json_t *sarif_log(const struct findings *fs, const struct notices *ns,
		  const struct sarif_run *run);

/* A SARIF log from path; NULL with *err if unreadable, not SARIF 2.1.0,
 * written by another tool or holding a result of another shape than
 * charscan writes. */
json_t *sarif_read(const char *path, char **err);
/* 0, or -1 with *err: a run or result of log (called name in the
 * message) is not what charscan writes. */
int sarif_check(json_t *log, const char *name, char **err);
/* Every run of logs[0..n) as one run: rules by id, results de-duplicated
 * by rule and place and sorted, notifications concatenated.  The runs
 * must come from one tool with one %SRCROOT%.  NULL with *err if not. */
json_t *sarif_merge(json_t *const *logs, size_t n, char **err);
/* The string at "key.key..." in nested objects, or "" if there is none. */
const char *sarif_str(json_t *obj, const char *path);
/* Write log to out (opened with output_open()) and commit it. */
int sarif_dump(json_t *log, struct output *out, char **err);
/* Write log to path atomically (temporary file, rename). */
int sarif_write(const char *path, json_t *log, char **err);
/* Merge log into the SARIF file at path, creating it: safe when several
 * processes append at once (an flock on path.lock). */
int sarif_append(const char *path, json_t *log, char **err);

#endif
