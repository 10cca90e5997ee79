/*
 * A line scan of the preprocessor's conditionals, enough to know which
 * lines lie in a group that depends on __CHAR_UNSIGNED__: the groups
 * nest, and a conditional's #elif and #else groups belong to it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "charcond.h"
#include "util.h"
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
