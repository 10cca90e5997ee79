/*
 * A scan's result cache (--cache DIR): each walk of a TU, answered from
 * an entry made by an earlier parse while nothing it read has changed.
 */
#ifndef CHARSCAN_CACHE_H
#define CHARSCAN_CACHE_H

#include <clang-c/Index.h>
#include "input/input.h"
#include "xtu/xtu.h"
#include "core/core.h"

#define CACHE_KEY_HEX	65	/* SHA-256 in hex, and its NUL */

struct scan_cache {
	const char *dir;
	void *digests;			/* path -> its bytes' SHA-256, read once a scan */
	void *absents;			/* path -> still absent, asked once a scan */
	unsigned char *parsed;		/* per TU of the database: parsed in a walk */
	size_t ntus;
	size_t hits;			/* first walks answered from the cache */
	size_t nparsed;			/* TUs parsed (either walk) */
};

/* The key of one walk of tu: charscan's and libclang's versions, the
 * options that change a walk, tu's argv, and (ctx not NULL: the second
 * walk) what the others tell it. */
void cache_key(const struct tu *tu, const struct engine_opts *o, const struct xtu_ctx *ctx,
	       char hex[CACHE_KEY_HEX]);
/* 1: msg holds the worker's message stored under key, and nothing the
 * parse read has changed since; 0: a miss (a note in n when an entry
 * was there but could not be used). */
int cache_lookup(struct scan_cache *c, const char *key, const struct tu *tu, struct buf *msg,
		 struct notices *n);
/* A TU parsed (for the counts). */
void cache_parsed(struct scan_cache *c, size_t tu_index, size_t ntus);
/* In the worker: tu as parsed (ctu) and the message about to be sent,
 * stored under key (atomically; a failure is only a miss next time).
 * index: for the -v parse that lists the header search folders. */
void cache_store(const char *dir, const char *key, CXIndex index, CXTranslationUnit ctu,
		 const struct tu *tu, const struct buf *msg);
/* The files the entry under key lists (any readable entry, stale or
 * not: what the TU included when it was last parsed), through fn;
 * -1 when there is none. */
int cache_deps(const char *dir, const char *key, void (*fn)(const char *path, void *arg),
	       void *arg);
void cache_free(struct scan_cache *c);

#endif
