#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filecache.h"
#include "util.h"

static struct cached_file *lookup(struct filecache *c, const char *path)
{
	struct cached_file *x;
	const char *why;

	/* Findings are sorted by path, so the last file is the usual hit. */
	for (size_t i = c->len; i-- > 0;)
		if (!strcmp(c->v[i].path, path))
			return &c->v[i];
	grow(&c->v, &c->cap, c->len + 1, sizeof(*c->v));
	x = &c->v[c->len++];
	memset(x, 0, sizeof(*x));
	x->path = xstrdup(path);
	x->buf = read_input(path, LIMIT_SOURCE, &x->len, &why);
	return x;
}

const char *filecache_get(struct filecache *c, const char *path, size_t *len)
{
	struct cached_file *x = lookup(c, path);

	*len = x->len;
	return x->buf;
}

/* Every line's offset, once per file: findings ask for many lines. */
static void index_lines(struct cached_file *x)
{
	size_t cap = 0;

	for (size_t off = 0; off < x->len;) {
		const char *nl = memchr(x->buf + off, '\n', x->len - off);

		grow(&x->line_start, &cap, x->nlines + 1, sizeof(*x->line_start));
		x->line_start[x->nlines++] = off;
		off = nl ? (size_t)(nl - x->buf) + 1 : x->len;
	}
}

const char *filecache_line(struct filecache *c, const char *path, unsigned line,
			   size_t *len)
{
	struct cached_file *x = lookup(c, path);
	size_t start, end;

	if (!x->buf || !line)
		return NULL;
	if (!x->line_start)
		index_lines(x);
	if (line > x->nlines)
		return NULL;
	start = x->line_start[line - 1];
	end = line < x->nlines ? x->line_start[line] - 1 : x->len;
	if (end > start && end == x->len && x->buf[end - 1] == '\n')
		end--;
	*len = end - start;
	return x->buf + start;
}

void filecache_free(struct filecache *c)
{
	for (size_t i = 0; i < c->len; i++) {
		free(c->v[i].path);
		free(c->v[i].buf);
		free(c->v[i].line_start);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
