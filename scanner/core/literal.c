/*
 * The bytes a C string literal holds, read from its spelling.  libclang
 * evaluates a literal only where it initializes an array, so an argument
 * such as KERN_ERR ("\001" "3") or "\xe9t\xe9" is judged here: adjacent
 * ordinary (or u8) literals, their escapes decoded, every byte checked.
 * Anything this does not know (wide literals, \u names, a malformed
 * spelling) is "not ASCII": a wrong "no" costs a finding, never a miss.
 */
#include <string.h>
#include "core.h"

static int octal(int c)
{
	return c >= '0' && c <= '7';
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The escapes that stand for one character of their own. */
static const char simple_escapes[] = "abfnrtv\\'\"?";

/* One escape after the backslash at *p: its value, or -1 when it is not
 * one this file knows or may be above 127; *p moves past it. */
static long escape(const char **p)
{
	const char *s = *p + 1;
	long v = 0;
	int n = 0, d;

	if (*s == 'x') {
		for (s++; (d = hex_value(*s)) >= 0; s++, n++)
			v = v > 0xff ? v : v * 16 + d;
		*p = s;
		return n ? v : -1;
	}
	if (octal(*s)) {
		for (; n < 3 && octal(*s); s++, n++)
			v = v * 8 + (*s - '0');
		*p = s;
		return v;
	}
	if (*s && strchr(simple_escapes, *s)) {
		*p = s + 1;
		return 1;		/* some character below 0x80 */
	}
	return -1;			/* \u, \U, or not C */
}

/* One literal from its opening quote: 1 when every byte is ASCII, 0 if
 * not, and *p past its closing quote. */
static int one_literal(const char **p)
{
	const char *s = *p + 1;

	while (*s && *s != '"') {
		if (*s == '\\') {
			long v = escape(&s);

			if (v < 0 || v > 127)
				return 0;
		} else if ((unsigned char)*s++ > 127 || s[-1] == '\n') {
			return 0;
		}
	}
	if (*s != '"')
		return 0;
	*p = s + 1;
	return 1;
}

int literal_is_ascii(const char *spelling)
{
	const char *p = spelling;
	int any = 0;

	if (!p)
		return 0;
	for (;;) {
		p += strspn(p, " \t\r\n");
		if (!*p)
			return any;
		if (!strncmp(p, "u8\"", 3))
			p += 2;
		if (*p != '"' || !one_literal(&p))
			return 0;
		any = 1;
	}
}
