/* Source files read once per report: for columns, suppression comments
 * and the neighbouring lines of a fingerprint. */
#ifndef CHARSCAN_FILECACHE_H
#define CHARSCAN_FILECACHE_H

#include <stddef.h>

struct cached_file {
	char *path;
	char *buf;		/* NULL if the file could not be read */
	size_t len;
	size_t *line_start;	/* offsets of each line, built on first use */
	size_t nlines;
};

struct filecache {
	struct cached_file *v;
	size_t len, cap;
};

/* The whole of path (not NUL-terminated), or NULL if unreadable. */
const char *filecache_get(struct filecache *c, const char *path, size_t *len);
/* Line LINE (1-based) of path without its newline, or NULL. */
const char *filecache_line(struct filecache *c, const char *path, unsigned line,
			   size_t *len);
void filecache_free(struct filecache *c);

#endif
