#include <ctype.h>
#include <string.h>
#include "suppress.h"
#include "util.h"

/* The mark, inside a comment on this line: the text after it, or NULL. */
static const char *find_mark(const char *line, size_t len, size_t *rest)
{
	size_t mlen = strlen(SUPPRESS_MARK);

	for (size_t i = 0; i + mlen <= len; i++) {
		if (memcmp(line + i, SUPPRESS_MARK, mlen))
			continue;
		/* Only in a comment: a string literal is not a suppression. */
		for (size_t j = 0; j + 1 < i; j++)
			if (line[j] == '/' && (line[j + 1] == '*' || line[j + 1] == '/')) {
				*rest = len - i - mlen;
				return line + i + mlen;
			}
		return NULL;
	}
	return NULL;
}

/* Does "RULE[,RULE...][: reason]" name rule r?  *why gets the reason. */
static int names_rule(const char *p, size_t len, enum rule_id r, char **why)
{
	const char *end = p + len, *colon;
	char word[64];
	int hit = 0;

	/* The comment's closing, if any, is not part of the reason. */
	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == '*' && q[1] == '/') {
			end = q;
			break;
		}
	colon = memchr(p, ':', end - p);
	for (const char *q = p; q < (colon ? colon : end);) {
		size_t n = 0;

		while (q < end && (isspace((unsigned char)*q) || *q == ','))
			q++;
		while (q < (colon ? colon : end) && !isspace((unsigned char)*q) &&
		       *q != ',' && n + 1 < sizeof(word))
			word[n++] = *q++;
		word[n] = '\0';
		if (n && rule_lookup(word) == (int)r)
			hit = 1;
		if (!n)
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

static char *suppression(struct filecache *src, const struct finding *x)
{
	unsigned lines[2] = { x->loc.line, x->loc.line - 1 };

	for (int i = 0; i < 2 && lines[i] >= 1; i++) {
		size_t len, rest;
		const char *line = filecache_line(src, x->loc.path, lines[i], &len), *p;
		char *why = NULL;

		if (line && (p = find_mark(line, len, &rest)) && names_rule(p, rest, x->rule, &why))
			return why;
	}
	return NULL;
}

void suppress_in_source(struct findings *f, struct filecache *src)
{
	for (size_t i = 0; i < f->len; i++)
		if (!f->v[i].suppressed)
			f->v[i].suppressed = suppression(src, &f->v[i]);
}
