/*
 * The From: and Subject: headers of a patch mail, written as git
 * format-patch writes them (pretty.c): a name or title that needs it
 * RFC 2047-encoded (=?UTF-8?q?...?=, folded before column 76), a name
 * with RFC 5322 specials in double quotes, the rest folded at spaces
 * before column 78.  Git encodes only non-ASCII, "=?" and newlines; a
 * control byte is encoded here too, so that no input puts a raw CR, LF
 * or escape in a header, and a name holding '@' is left out.  The name
 * and address are cleaned as git cleans an ident (ident.c) beforehand.
 */
#include <stdlib.h>
#include <string.h>
#include "mailhead.h"
#include "core/core.h"

#define MAX_LINE 78		/* RFC 5322 */
#define MAX_ENCODED 76		/* RFC 2047 */
#define CHARSET "UTF-8"

enum encoded_in { IN_SUBJECT, IN_ADDRESS };

/* A header being written, and the length of its last line. */
struct head {
	FILE *f;
	int col;
};

static void put(struct head *h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h->col = s[i] == '\n' ? 0 : h->col + 1;
	fwrite(s, 1, n, h->f);
}

static void puts_head(struct head *h, const char *s)
{
	put(h, s, strlen(s));
}

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* Git's crud (ident.c): cut from both ends of a name or address. */
static int is_crud(unsigned char c)
{
	return c <= ' ' || (c && strchr(".,:;<>\"\\'", c));
}

char *ident_clean(const char *s)
{
	size_t len, o = 0;
	char *out;

	while (*s && is_crud(*s))
		s++;
	for (len = strlen(s); len && is_crud(s[len - 1]); len--)
		;
	out = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		if (!strchr("\n<>", s[i]))
			out[o++] = s[i];
	out[o] = '\0';
	return out;
}

/* Git's needs_rfc2047_encoding(), with every control byte added. */
static int needs_encoding(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80 || is_control(*s) || (s[0] == '=' && s[1] == '?'))
			return 1;
	return 0;
}

/* Git's is_rfc2047_special(): written as =XX in an encoded word.  In a
 * phrase (a From: name) RFC 2047 5.3 allows only a few characters. */
static int is_encoded_special(unsigned char c, enum encoded_in where)
{
	if (c >= 0x80 || c <= ' ' || c == 0x7f || c == '=' || c == '?' || c == '_')
		return 1;
	if (where == IN_SUBJECT)
		return 0;
	return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		 strchr("!*+-/", c));
}

/* Git's add_rfc2047(): a character's bytes never split between words. */
static void put_encoded(struct head *h, const char *s, enum encoded_in where)
{
	const char *open = "=?" CHARSET "?q?";

	puts_head(h, open);
	while (*s) {
		const unsigned char *p = (const unsigned char *)s;
		int n = utf8_seq_len(p, strlen(s)), special;
		char word[16] = "";

		n = n ? n : 1;
		special = n > 1 || is_encoded_special(*p, where);
		for (int i = 0; i < n; i++)
			snprintf(word + strlen(word), sizeof(word) - strlen(word),
				 special ? "=%02X" : "%c", p[i]);
		if (h->col + (int)strlen(word) + 2 > MAX_ENCODED) {
			puts_head(h, "?=\n ");
			puts_head(h, open);
		}
		puts_head(h, word);
		s += n;
	}
	puts_head(h, "?=");
}

/* Git's strbuf_add_wrapped_text() for printable ASCII, the header's
 * name already on the line: words past MAX_LINE go on a line of their
 * own, indented by one space. */
static void put_wrapped(struct head *h, const char *text)
{
	const char *bol = text, *space = text;
	int w = h->col;

	for (;;) {
		char c = *text;

		if (c && c != ' ') {
			w++;
			text++;
		} else if (w <= MAX_LINE || !space) {
			const char *start = space ? space : bol;

			if (!c && text == bol)
				return;
			if (!space)
				puts_head(h, " ");
			put(h, start, text - start);
			if (!c)
				return;
			space = text++;
			w++;
		} else {
			puts_head(h, "\n");
			text = bol = space + (*space == ' ');
			space = NULL;
			w = 1;
		}
	}
}

/* RFC 5322 specials: a name holding one goes in double quotes. */
static int needs_quotes(const char *s)
{
	return s[strcspn(s, "()<>[]:;@,.\"\\")] != '\0';
}

static char *quoted(const char *s)
{
	char *q = xmalloc(2 * strlen(s) + 3), *o = q;

	*o++ = '"';
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			*o++ = '\\';
		*o++ = *s;
	}
	strcpy(o, "\"");
	return q;
}

void mail_from(FILE *f, const char *name, const char *email)
{
	struct head h = { f, 0 };
	int max = MAX_LINE;

	puts_head(&h, "From: ");
	if (strchr(name, '@')) {
		/* git am takes the first address in the line for the
		 * author's: such a name would make another author. */
		fprintf(f, "<%s>\n", email);
		return;
	}
	if (needs_encoding(name)) {
		put_encoded(&h, name, IN_ADDRESS);
		max = MAX_ENCODED;
	} else if (needs_quotes(name)) {
		char *q = quoted(name);

		put_wrapped(&h, q);
		free(q);
	} else {
		put_wrapped(&h, name);
	}
	if (max < h.col + 2 + (int)strlen(email) + 1)
		puts_head(&h, "\n");
	fprintf(f, " <%s>\n", email);
}

void mail_subject(FILE *f, const char *title)
{
	struct head h = { f, 0 };

	puts_head(&h, "Subject: [PATCH] ");
	if (needs_encoding(title))
		put_encoded(&h, title, IN_SUBJECT);
	else
		put_wrapped(&h, title);
	fputc('\n', f);
}

int is_clean_address(const char *email)
{
	for (; *email; email++)
		if (is_control(*email) || *email == ' ' || *email == '"')
			return 0;
	return 1;
}
