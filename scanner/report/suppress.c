#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "suppress.h"
#include "core/core.h"

/*
 * Which bytes of a file are comment: C's lexical states, strings and
 * character constants included, so that "charscan-ignore" in a string
 * literal suppresses nothing.  Kept for one file at a time: findings
 * come sorted by file.
 */
struct comments {
	const char *path;
	const char *buf;
	unsigned char *in;		/* in[i]: byte i is inside a comment */
};

static void lex_comments(struct comments *c, const char *buf, size_t len)
{
	enum { CODE, STRING, CHAR, BLOCK, LINE } st = CODE;

	c->in = xcalloc(len + 1, 1);
	for (size_t i = 0; i < len; i++) {
		char ch = buf[i], next = i + 1 < len ? buf[i + 1] : '\0';

		switch (st) {
		case CODE:
			if (ch == '"' || ch == '\'')
				st = ch == '"' ? STRING : CHAR;
			else if (ch == '/' && (next == '*' || next == '/'))
				st = next == '*' ? BLOCK : LINE, c->in[i] = c->in[i + 1] = 1, i++;
			break;
		case STRING:
		case CHAR:
			if (ch == '\\')
				i++;
			else if (ch == (st == STRING ? '"' : '\'') || ch == '\n')
				st = CODE;
			break;
		case BLOCK:
			c->in[i] = 1;
			if (ch == '*' && next == '/')
				c->in[++i] = 1, st = CODE;
			break;
		case LINE:
			if (ch == '\n' && !(i && buf[i - 1] == '\\'))
				st = CODE;
			else
				c->in[i] = 1;
			break;
		}
	}
}

/* The mark, inside a comment on this line: the text after it, or NULL. */
static const char *find_mark(struct comments *c, struct filecache *src, const char *path,
			     const char *line, size_t len, size_t *rest)
{
	size_t mlen = strlen(SUPPRESS_MARK), flen;
	const char *buf = filecache_get(src, path, &flen);

	if (!buf)
		return NULL;
	if (!c->path || strcmp(c->path, path)) {
		free(c->in);
		lex_comments(c, buf, flen);
		c->path = path;
		c->buf = buf;
	}
	for (size_t i = 0; i + mlen <= len; i++)
		if (!memcmp(line + i, SUPPRESS_MARK, mlen) && c->in[line + i - buf]) {
			*rest = len - i - mlen;
			return line + i + mlen;
		}
	return NULL;
}

static int is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* Does "RULE[,RULE...][: reason]" name rule r?  *why gets the reason;
 * *unknown the first name that is no rule (caller frees). */
static int names_rule(const char *p, size_t len, enum rule_id r, char **why, char **unknown)
{
	const char *end = p + len, *colon, *stop;
	char word[64];
	int hit = 0;

	/* The comment's closing, if any, is not part of the reason. */
	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == '*' && q[1] == '/') {
			end = q;
			break;
		}
	colon = memchr(p, ':', end - p);
	stop = colon ? colon : end;
	/* RULE, RULE, ...: the list ends at the colon or at the first word
	 * not joined by a comma (free text after the names is no name). */
	for (const char *q = p; q < stop; q++) {
		size_t n = 0;

		while (q < stop && isspace((unsigned char)*q))
			q++;
		while (q < stop && is_name_char(*q) && n + 1 < sizeof(word))
			word[n++] = *q++;
		word[n] = '\0';
		if (!n)
			break;
		if (rule_lookup(word) == (int)r)
			hit = 1;
		else if (rule_lookup(word) < 0 && !*unknown)
			*unknown = xstrdup(word);
		while (q < stop && isspace((unsigned char)*q))
			q++;
		if (q >= stop || *q != ',')
			break;
	}
	if (!hit)
		return 0;
	if (colon) {
		const char *s = colon + 1;

		while (s < end && isspace((unsigned char)*s))
			s++;
		while (end > s && isspace((unsigned char)end[-1]))
			end--;
		*why = xstrndup(s, end - s);
	} else {
		*why = xstrdup("");
	}
	return 1;
}

/* Nothing but comment and white space: a mark there is about the next
 * line; after code it is about its own line only. */
static int only_comment(const struct comments *c, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)line[i]) && !c->in[line + i - c->buf])
			return 0;
	return 1;
}

static char *suppression(struct comments *c, struct filecache *src, const struct finding *x,
			 struct notices *notes)
{
	unsigned lines[2] = { x->loc.line, x->loc.line - 1 };

	for (int i = 0; i < 2 && lines[i] >= 1; i++) {
		size_t len, rest;
		const char *line = filecache_line(src, x->loc.path, lines[i], &len), *p;
		char *why = NULL, *unknown = NULL;
		int hit;

		if (!line || !(p = find_mark(c, src, x->loc.path, line, len, &rest)) ||
		    (i && !only_comment(c, line, len)))
			continue;
		hit = names_rule(p, rest, x->rule, &why, &unknown);
		if (unknown)
			notice_add(notes, "warning", x->loc.path, "%s:%u: %s names '%s', which is "
				   "no rule (see charscan --list-rules)", x->loc.path, lines[i],
				   SUPPRESS_MARK, unknown);
		free(unknown);
		if (hit)
			return why;
	}
	return NULL;
}

void suppress_in_source(struct findings *f, struct filecache *src, struct notices *notes)
{
	struct comments c = { 0 };
	struct notices raw = { 0 };

	for (size_t i = 0; i < f->len; i++)
		if (!f->v[i].suppressed)
			f->v[i].suppressed = suppression(&c, src, &f->v[i], &raw);
	/* One warning per comment, however many findings it is near. */
	for (size_t i = 0; i < raw.len; i++) {
		int seen = 0;

		for (size_t k = 0; k < notes->len && !seen; k++)
			seen = !strcmp(notes->v[k].message, raw.v[i].message);
		if (!seen)
			notice_add(notes, raw.v[i].level, raw.v[i].path, "%s", raw.v[i].message);
	}
	notices_free(&raw);
	free(c.in);
}
