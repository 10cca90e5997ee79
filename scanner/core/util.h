#ifndef CHARSCAN_UTIL_H
#define CHARSCAN_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Bytes appended to, as a worker's message or a child's output. */
struct buf {
	char *p;
	size_t len, cap;
};

void buf_add(struct buf *b, const void *p, size_t n);
void buf_free(struct buf *b);

/* Grow *v (of *cap elements of size) to hold at least need elements. */
void grow(void *v, size_t *cap, size_t need, size_t size);

/* The rest of f, NUL-terminated, in a buffer the caller frees (its
 * length in *len unless NULL); check ferror(f). */
char *read_all(FILE *f, size_t *len);
/* A file the parent reads (database, config, report, source): a regular
 * file, through links, of at most limit bytes, NUL-terminated; NULL with
 * *why (static text, or errno's) otherwise.  A FIFO or a device is refused
 * before it is read, so a committed link to /dev/zero can neither fill
 * memory nor block the scan.  errno is kept (ENOENT for a missing file). */
char *read_input(const char *path, size_t limit, size_t *len, const char **why);
#define LIMIT_REPORT	((size_t)1 << 30)	/* SARIF logs, databases */
#define LIMIT_SOURCE	((size_t)256 << 20)
#define LIMIT_CONFIG	((size_t)1 << 20)
/* What a file of mode m is, for messages ("a FIFO"). */
const char *file_kind(unsigned m);
/* s with control bytes as \xNN: a name or message from any input can
 * start no line of its own (an editor's finding, a CI workflow command). */
void fput_clean(FILE *f, const char *s);
/* "charscan: " and the message, cleaned, on stderr. */
void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* FNV-1a of n bytes: a cheap 64-bit key for sequence diffs. */
uint64_t fnv1a(const void *s, size_t n);
/* Length of the valid UTF-8 sequence at s, 0 if it is not one. */
int utf8_seq_len(const unsigned char *s, size_t left);
/* The byte offset in a line of SARIF column ucol (UTF-16 units, 1-based). */
size_t ucol_byte(const char *line, size_t len, unsigned ucol);

#endif
