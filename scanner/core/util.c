#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

void fput_clean(FILE *f, const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
}

static void vcomplain(const char *fmt, va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("charscan: out of memory\n", stderr);
		exit(2);
	}
	fputs("charscan: ", stderr);
	fput_clean(stderr, msg);
	fputc('\n', stderr);
	free(msg);
}

void complain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcomplain(fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcomplain(fmt, ap);
	va_end(ap);
	exit(2);
}

/* Each kind of file as "a FIFO" and as "it is a FIFO", both constant:
 * read_input() runs in confirm's threads. */
static const struct { unsigned type; const char *name, *refusal; } kinds[] = {
	{ S_IFDIR, "a directory", "it is a directory" },
	{ S_IFIFO, "a FIFO", "it is a FIFO" },
	{ S_IFCHR, "a character device", "it is a character device" },
	{ S_IFBLK, "a block device", "it is a block device" },
	{ S_IFSOCK, "a socket", "it is a socket" },
	{ 0, "not a regular file", "it is not a regular file" },
};

static unsigned kind_index(unsigned m)
{
	unsigned i = 0;

	while (kinds[i].type && kinds[i].type != (m & S_IFMT))
		i++;
	return i;
}

const char *file_kind(unsigned m)
{
	return kinds[kind_index(m)].name;
}

char *read_input(const char *path, size_t limit, size_t *len, const char **why)
{
	struct stat st;
	size_t n = 0;
	ssize_t got;
	char *buf;
	int fd;

	/* A device is refused before it is opened: opening one can act
	 * (a watchdog, a tape's rewind, a terminal made ours). */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		*why = kinds[kind_index(st.st_mode)].refusal;
		errno = EINVAL;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > limit) {
		*why = S_ISREG(st.st_mode) ? "it is larger than charscan reads" :
		       kinds[kind_index(st.st_mode)].refusal;
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	/* The size seen, plus one byte to notice a file still growing. */
	buf = xmalloc((size_t)st.st_size + 2);
	while (n <= (size_t)st.st_size &&
	       (got = read(fd, buf + n, (size_t)st.st_size + 1 - n)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*why = strerror(errno);
			free(buf);
			close(fd);
			return NULL;
		}
		n += (size_t)got;
	}
	close(fd);
	if (n > (size_t)st.st_size) {
		*why = "it grew while it was read";
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
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

/*
 * Length of the well-formed UTF-8 sequence at s (RFC 3629, Table 3-7 of
 * Unicode), 0 if there is none: no overlong forms, no surrogates, nothing
 * above U+10FFFF.  JSON writers refuse exactly these, so a byte this
 * lets through would make them drop a whole member.
 */
int utf8_seq_len(const unsigned char *s, size_t left)
{
	/* For each lead byte from 0xc2: length, range of the second byte. */
	static const struct { unsigned char lead, n, lo, hi; } forms[] = {
		{ 0xc2, 2, 0x80, 0xbf }, { 0xe0, 3, 0xa0, 0xbf },
		{ 0xe1, 3, 0x80, 0xbf }, { 0xed, 3, 0x80, 0x9f },
		{ 0xee, 3, 0x80, 0xbf }, { 0xf0, 4, 0x90, 0xbf },
		{ 0xf1, 4, 0x80, 0xbf }, { 0xf4, 4, 0x80, 0x8f },
		{ 0xf5, 0, 0, 0 },
	};
	size_t k = 0;

	if (*s < 0x80)
		return 1;
	if (*s < 0xc2)
		return 0;
	while (forms[k + 1].lead <= *s && forms[k + 1].n)
		k++;
	if (*s >= 0xf5 || forms[k].n > left || s[1] < forms[k].lo || s[1] > forms[k].hi)
		return 0;
	for (int i = 2; i < forms[k].n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return forms[k].n;
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

uint64_t fnv1a(const void *s, size_t n)
{
	const unsigned char *p = s;
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	grow(&b->p, &b->cap, b->len + n, 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void buf_free(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

size_t ucol_byte(const char *line, size_t len, unsigned ucol)
{
	const unsigned char *p = (const unsigned char *)line;
	size_t b = 0;

	for (unsigned units = 1; units < ucol && b < len;) {
		int n = utf8_seq_len(p + b, len - b);

		if (!n)
			n = 1;
		units += n == 4 ? 2 : 1;
		b += n;
	}
	return b;
}
