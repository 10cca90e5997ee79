/* The SARIF 2.1.0 report of one scan (sarif.c), logs read back into
 * findings (sarif-read.c), SARIF files written, merged and appended to
 * (sarif-file.c). */
#ifndef CHARSCAN_SARIF_H
#define CHARSCAN_SARIF_H

#include <stdio.h>
#include <sys/types.h>
#include <jansson.h>
#include "core/core.h"

#define SARIF_SCHEMA_URI "https://json.schemastore.org/sarif-2.1.0.json"

struct sarif_run {
	const char *srcroot;		/* %SRCROOT%: URIs are relative to it */
	const char *signedness;		/* both | signed | unsigned */
	int complete;			/* every TU parsed */
	struct filecache *src;		/* for UTF-16 columns */
	const struct findings *absent;	/* baseline results gone now, or NULL */
	const char *store_key;		/* the summary store's key, or NULL: for
					 * merge --summaries to check the store */
};

/* A JSON string of s; JSON is UTF-8, source text and paths may not be:
 * a byte that is not valid UTF-8 becomes U+FFFD. */
json_t *json_text(const char *s);

/* A result's message.text: the message and links to its related
 * locations; caller frees. */
char *sarif_message(const struct finding *x);

/* The steps of x's codeFlow before x itself, in the order SARIF has them
 * (the reader keeps no codeFlows: they are made from the related
 * locations, this way, both when written and when read back); their
 * number, at most MAX_RELATED. */
int sarif_flow(const struct finding *x, const struct related **steps);

/* Deterministic: the same findings give the same log. */
json_t *sarif_log(const struct findings *fs, const struct notices *ns,
		  const struct sarif_run *run);

/* A charscan log read back: the runs of it as one. */
struct sarif_in {
	struct findings findings;	/* results; absent ones have that state */
	struct notices notices;
	char *srcroot;			/* %SRCROOT% ("/" if the log has none) */
	char *signedness;
	int complete;			/* every invocation was successful */
	char *store_key;		/* properties.summaryKey, or NULL */
};

/* Read the log at path, or the log (called name in messages), into *in.
 * -1 with *err (and *in empty) if it is not JSON, not SARIF 2.1.0, was
 * written by another tool, or holds a run or result of another shape
 * than charscan writes. */
int sarif_load(const char *path, struct sarif_in *in, char **err);
int sarif_from_json(json_t *log, const char *name, struct sarif_in *in, char **err);
void sarif_in_free(struct sarif_in *in);
/* Move from's findings and notices into into (equal notices once): one
 * run.  -1 with *err if their %SRCROOT% or summary store keys differ. */
int sarif_join(struct sarif_in *into, struct sarif_in *from, char **err);
/* in's log: findings sorted and de-duplicated by rule and place. */
json_t *sarif_in_log(struct sarif_in *in);
/* The string at "key.key..." in nested objects, or "" if there is none. */
const char *sarif_str(json_t *obj, const char *path);
/* Write log to out (opened with output_open()) and commit it. */
int sarif_dump(json_t *log, struct output *out, char **err);
/* Write log to path atomically (temporary file, rename). */
int sarif_write(const char *path, json_t *log, char **err);
/* Merge log into the SARIF file at path, creating it: safe when several
 * processes append at once (an flock on path.lock). */
int sarif_append(const char *path, json_t *log, char **err);
/* Which file path is, to tell later whether another process replaced it. */
struct sarif_mark {
	dev_t dev;
	ino_t ino;		/* 0: there was none */
};
void sarif_mark(const char *path, struct sarif_mark *m);
/* sarif_dump() to out, opened for path, holding sarif_append()'s lock:
 * if path was replaced since before was taken (appended to), what it
 * holds now is joined into log first. */
int sarif_dump_shared(json_t *log, struct output *out, const char *path,
		      const struct sarif_mark *before, char **err);

#endif
