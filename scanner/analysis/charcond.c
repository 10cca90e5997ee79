/*
 * A line scan of the preprocessor's conditionals, enough to know which
 * lines lie in a group that depends on __CHAR_UNSIGNED__: the groups
 * nest, and a conditional's #elif and #else groups belong to it.  Such a
 * group is written for one signedness: its findings are dropped, and
 * with --explain each is a pass, and so is each such group of a scanned
 * file, whose code differs between the two builds on purpose.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "charcond.h"
#include "input/input.h"
#include "core/core.h"
#include "walk.h"

#define MACRO "__CHAR_UNSIGNED__"
#define MAX_DEPTH 256

/* "#  ifdef X" -> "ifdef X"; NULL if the line is no directive. */
static const char *directive(const char *s, size_t n, size_t *rest)
{
	const char *end = s + n;

	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s == end || *s != '#')
		return NULL;
	for (s++; s < end && isspace((unsigned char)*s); s++)
		;
	*rest = end - s;
	return s;
}

static int starts(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && !memcmp(s, word, k) && (n == k || !isalnum((unsigned char)s[k]));
}

static int mentions(const char *s, size_t n)
{
	return memmem(s, n, MACRO, strlen(MACRO)) != NULL;
}

/* in[l] for l in 1..nlines: is line l inside a char-signedness group? */
static unsigned char *char_lines(struct filecache *src, const char *path, size_t *nlines)
{
	unsigned char stack[MAX_DEPTH], *in;
	int depth = 0, inside = 0;
	size_t len, n = 0;
	const char *line;

	while (filecache_line(src, path, (unsigned)n + 1, &len))
		n++;
	in = xcalloc(n + 2, 1);
	for (size_t l = 1; l <= n; l++) {
		const char *d;
		size_t rest;

		line = filecache_line(src, path, (unsigned)l, &len);
		d = directive(line, len, &rest);
		if (d && (starts(d, rest, "if") || starts(d, rest, "ifdef") ||
			  starts(d, rest, "ifndef"))) {
			if (depth < MAX_DEPTH)
				stack[depth] = mentions(d, rest);
			inside += depth < MAX_DEPTH && stack[depth];
			depth++;
		} else if (d && starts(d, rest, "elif") && depth && depth <= MAX_DEPTH &&
			   !stack[depth - 1] && mentions(d, rest)) {
			stack[depth - 1] = 1;
			inside++;
		} else if (d && starts(d, rest, "endif") && depth) {
			depth--;
			inside -= depth < MAX_DEPTH && stack[depth];
		}
		in[l] = inside > 0;
	}
	*nlines = n;
	return in;
}

/* The lines of the file last looked at (findings come sorted by file). */
struct cond_lines {
	struct filecache *src;
	const char *path;
	unsigned char *in;
	size_t n;
};

static int in_group(struct cond_lines *st, const struct finding *x)
{
	if (!st->path || strcmp(st->path, x->loc.path)) {
		free(st->in);
		st->path = x->loc.path;
		st->in = char_lines(st->src, x->loc.path, &st->n);
	}
	return x->loc.line <= st->n && st->in[x->loc.line];
}

static int not_char_conditional(const struct finding *x, void *arg)
{
	return x->pass || !in_group(arg, x);
}

/* The finding's region as written, when it lies on one line. */
static char *region_text(struct filecache *src, const struct loc *l)
{
	size_t len;
	const char *line = filecache_line(src, l->path, l->line, &len);

	if (!line || l->end_line != l->line || l->end_col <= l->col || l->end_col - 1 > len)
		return NULL;
	return xstrndup(line + l->col - 1, l->end_col - l->col);
}

/* With --explain, a finding there is said as a pass, for what it is. */
static void make_pass(struct finding *x, struct filecache *src)
{
	char *text = region_text(src, &x->loc);

	finding_make_pass(x, xasprintf("'%s': %s", text ? text : "...",
				       verdict_text(V_CHAR_CONDITIONAL)));
	free(text);
}

void char_conditional(struct findings *f, struct filecache *src, int explain)
{
	struct cond_lines st = { src, NULL, NULL, 0 };

	for (size_t i = 0; explain && i < f->len; i++)
		if (!f->v[i].pass && in_group(&st, &f->v[i]))
			make_pass(&f->v[i], src);
	findings_filter(f, not_char_conditional, &st);
	free(st.in);
}

/* Does path mention the macro at all?  Read apart from the cache, which
 * would keep every scanned file. */
static int file_mentions(const char *path)
{
	const char *why;
	size_t len = 0;
	char *buf = read_input(path, LIMIT_SOURCE, &len, &why);
	int yes = buf && mentions(buf, len);

	free(buf);
	return yes;
}

/* A pass whose region is lines first..last of path, the group. */
static void group_pass(struct findings *f, struct filecache *src, const char *path,
		       unsigned first, unsigned last)
{
	size_t len = 0, end_len = 0;
	const char *text = filecache_line(src, path, first, &len);
	struct finding *x;

	if (!text || !filecache_line(src, path, last, &end_len))
		return;
	x = findings_add(f);
	x->rule = CS001;
	x->pass = 1;
	x->breaks = BREAKS_EITHER;
	x->loc = (struct loc){ xstrdup(path), first, 1, last, (unsigned)end_len + 1, 0, 0 };
	x->snippet = xstrndup(text, len);
	/* The directive as the message's quote, without its comment. */
	for (size_t i = 0; i + 1 < len; i++)
		if (text[i] == '/' && (text[i + 1] == '*' || text[i + 1] == '/'))
			len = i;
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	x->message = xasprintf("'%.*s': %s", (int)len, text, verdict_text(V_CHAR_CONDITIONAL));
}

void char_groups(struct findings *f, struct filecache *src, const struct compdb *db)
{
	for (size_t t = 0; t < db->len; t++) {
		const char *path = db->tu[t].file;
		unsigned char *in;
		size_t n;

		if (!file_mentions(path))
			continue;
		in = char_lines(src, path, &n);
		for (size_t l = 1; l <= n; l++) {
			size_t first = l;

			if (!in[l])
				continue;
			while (l < n && in[l + 1])
				l++;
			/* The #endif that closes it is outside: include it. */
			group_pass(f, src, path, (unsigned)first, (unsigned)(l < n ? l + 1 : l));
		}
		free(in);
	}
}
