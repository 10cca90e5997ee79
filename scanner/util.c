#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("charscan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return p;
}

void grow(void *v, size_t *cap, size_t need, size_t size)
{
	void **pv = v;

	if (need <= *cap)
		return;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	*pv = xrealloc(*pv, *cap * size);
}

int utf8_seq_len(const unsigned char *s, size_t left)
{
	int n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 :
		(*s & 0xf0) == 0xe0 ? 3 : (*s & 0xf8) == 0xf0 ? 4 : 0;

	if (!n || (size_t)n > left || (n == 2 && *s < 0xc2))
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

char *read_all(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	do {
		grow(&buf, &cap, n + 65536, 1);
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	buf[n] = '\0';		/* room: the last fread left some */
	if (len)
		*len = n;
	return buf;
}
