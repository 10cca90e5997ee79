#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filecache.h"
#include "util.h"

const char *filecache_get(struct filecache *c, const char *path, size_t *len)
{
	struct cached_file *x;
	FILE *f;

	/* Findings are sorted by path, so the last file is the usual hit. */
	for (size_t i = c->len; i-- > 0;)
		if (!strcmp(c->v[i].path, path)) {
			*len = c->v[i].len;
			return c->v[i].buf;
		}
	grow(&c->v, &c->cap, c->len + 1, sizeof(*c->v));
	x = &c->v[c->len++];
	x->path = xstrdup(path);
	x->buf = NULL;
	x->len = 0;
	if ((f = fopen(path, "rb"))) {
		x->buf = read_all(f, &x->len);
		fclose(f);
	}
	*len = x->len;
	return x->buf;
}

const char *filecache_line(struct filecache *c, const char *path, unsigned line,
			   size_t *len)
{
	size_t n;
	const char *p = filecache_get(c, path, &n), *end, *eol;

	if (!p || !line)
		return NULL;
	end = p + n;
	for (; line > 1; line--) {
		p = memchr(p, '\n', end - p);
		if (!p)
			return NULL;
		p++;
	}
	if (p >= end)
		return NULL;
	eol = memchr(p, '\n', end - p);
	*len = (eol ? eol : end) - p;
	return p;
}

void filecache_free(struct filecache *c)
{
	for (size_t i = 0; i < c->len; i++) {
		free(c->v[i].path);
		free(c->v[i].buf);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
