/*
 * Unified diffs: the lines of both versions hashed, the edit script from
 * seqdiff() (Myers), and hunks grouped the way GNU diff groups them:
 * changes closer than twice the context share a hunk.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "udiff.h"

#define CONTEXT 3
#define HEADING 80		/* bytes of the line shown after "@@" at most */

struct lines {
	const char **at;
	size_t *len;			/* with the newline, if there is one */
	uint64_t *hash;
	size_t n;
};

static void split(const char *s, size_t len, struct lines *l)
{
	size_t n = len && s[len - 1] != '\n';

	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	l->at = xmalloc((n + 1) * sizeof(*l->at));
	l->len = xmalloc((n + 1) * sizeof(*l->len));
	l->hash = xmalloc((n + 1) * sizeof(*l->hash));
	l->n = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t k = nl ? (size_t)(nl - (s + i)) + 1 : len - i;

		l->at[l->n] = s + i;
		l->len[l->n] = k;
		l->hash[l->n++] = fnv1a(s + i, k);
		i += k;
	}
}

static void lines_free(struct lines *l)
{
	free(l->at);
	free(l->len);
	free(l->hash);
}

/* One step of the edit script: ' ', '-' or '+', and the line's index. */
struct op {
	char kind;
	size_t a, b;			/* lines of old and new before it */
};

static void put_line(FILE *out, char kind, const char *s, size_t n)
{
	fputc(kind, out);
	fwrite(s, 1, n, out);
	if (!n || s[n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* "-1,3" or "-0,0": an empty range names the line before it. */
static void put_range(FILE *out, char sign, size_t start, size_t count)
{
	fprintf(out, " %c%zu", sign, count ? start + 1 : start);
	if (count != 1)
		fprintf(out, ",%zu", count);
}

/* After "@@ ... @@", the last line above the hunk that starts with a
 * letter, '_' or '$' (a function or struct), as git and diff -p show. */
static void put_heading(FILE *out, const struct lines *a, size_t before)
{
	while (before-- > 0) {
		const char *s = a->at[before];
		size_t n = a->len[before];

		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == '$') {
			while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
				n--;
			fprintf(out, " %.*s", (int)(n > HEADING ? HEADING : n), s);
			return;
		}
	}
}

static void put_hunk(FILE *out, const struct op *op, size_t from, size_t to,
		     const struct lines *a, const struct lines *b)
{
	size_t na = 0, nb = 0;

	for (size_t k = from; k < to; k++) {
		na += op[k].kind != '+';
		nb += op[k].kind != '-';
	}
	fputs("@@", out);
	put_range(out, '-', op[from].a, na);
	put_range(out, '+', op[from].b, nb);
	fputs(" @@", out);
	put_heading(out, a, op[from].a);
	fputc('\n', out);
	for (size_t k = from; k < to; k++) {
		if (op[k].kind == '+')
			put_line(out, '+', b->at[op[k].b], b->len[op[k].b]);
		else
			put_line(out, op[k].kind, a->at[op[k].a], a->len[op[k].a]);
	}
}

/* GNU patch takes a name up to a tab: git ends one with a space so. */
static void put_names(FILE *out, const char *path)
{
	char *a = git_path("a/", path), *b = git_path("b/", path);
	const char *tab = strchr(path, ' ') ? "\t" : "";

	fprintf(out, "--- %s%s\n+++ %s%s\n", a, tab, b, tab);
	free(a);
	free(b);
}

static struct op *script(const struct lines *a, const struct lines *b, size_t *n,
			 struct diffstat *st)
{
	unsigned char *del = xcalloc(a->n + 1, 1), *ins = xcalloc(b->n + 1, 1);
	struct op *op = xmalloc((a->n + b->n + 1) * sizeof(*op));
	size_t i = 0, j = 0, k = 0;

	seqdiff(a->hash, a->n, b->hash, b->n, del, ins, a->n + b->n);
	while (i < a->n || j < b->n) {
		op[k].a = i;
		op[k].b = j;
		if (i < a->n && del[i]) {
			op[k].kind = '-';
			i++;
			st->removed++;
		} else if (j < b->n && ins[j]) {
			op[k].kind = '+';
			j++;
			st->added++;
		} else {
			op[k].kind = ' ';
			i++;
			j++;
		}
		k++;
	}
	free(del);
	free(ins);
	*n = k;
	return op;
}

/* git's quote.c table: the letter of a C escape, 1 for octal, 0 as is. */
static char c_escape(unsigned char c)
{
	static const char letter[0x20] = {
		['\a'] = 'a', ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
		['\v'] = 'v', ['\f'] = 'f', ['\r'] = 'r',
	};

	if (c == '"' || c == '\\')
		return c;
	if (c < 0x20)
		return letter[c] ? letter[c] : 1;
	return c >= 0x7f;
}

static void put_quoted(FILE *f, const char *s)
{
	for (; *s; s++) {
		char e = c_escape(*s);

		if (e == 1)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else if (e)
			fprintf(f, "\\%c", e);
		else
			fputc(*s, f);
	}
}

char *git_path(const char *prefix, const char *path)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	for (i = 0; path[i] && !c_escape(path[i]); i++)
		;
	if (!path[i])
		return xasprintf("%s%s", prefix, path);
	f = open_memstream(&text, &len);
	fputc('"', f);
	put_quoted(f, prefix);
	put_quoted(f, path);
	fputc('"', f);
	fclose(f);
	return text;
}

void udiff(FILE *out, const char *path, const char *old, size_t old_len,
	   const char *new, size_t new_len, struct diffstat *st)
{
	struct lines a, b;
	struct op *op;
	size_t n, k = 0;
	int header = 0;

	split(old, old_len, &a);
	split(new, new_len, &b);
	op = script(&a, &b, &n, st);
	while (k < n) {
		size_t first, last, from, to;

		while (k < n && op[k].kind == ' ')
			k++;
		if (k == n)
			break;
		first = last = k;
		/* Take in every change whose context would touch this one's. */
		for (size_t m = k + 1; m < n && m <= last + 2 * CONTEXT; m++)
			if (op[m].kind != ' ')
				last = m;
		from = first > CONTEXT ? first - CONTEXT : 0;
		to = last + 1 + CONTEXT < n ? last + 1 + CONTEXT : n;
		if (!header++)
			put_names(out, path);
		put_hunk(out, op, from, to, &a, &b);
		k = last + 1;
	}
	free(op);
	lines_free(&a);
	lines_free(&b);
}
