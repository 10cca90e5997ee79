/*
 * printf-style format strings (printk, seq_printf, snprintf...): which
 * conversion reads a variadic argument, and the text it prints for an
 * int.  A plain char passed to printk("%02x") is promoted to int, so
 * byte 0xe9 prints ffffffe9 when char is signed and e9 when unsigned.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "format.h"

static const char *skip_digits(const char *p)
{
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/* Width or precision: digits, or '*', which reads an int argument. */
static const char *skip_count(const char *p, unsigned *arg, unsigned n, int *hit)
{
	if (*p != '*')
		return skip_digits(p);
	*hit |= *arg == n;
	++*arg;
	return p + 1;
}

static const char *length_of(const char *p, char *len)
{
	static const char *const lengths[] = { "hh", "ll", "h", "l", "L", "j", "z", "Z", "t", "q" };

	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
		if (!strncmp(p, lengths[i], strlen(lengths[i]))) {
			strcpy(len, lengths[i]);
			return p + strlen(lengths[i]);
		}
	len[0] = 0;
	return p;
}

int format_conversion(const char *fmt, unsigned n, struct conversion *c)
{
	unsigned arg = 0;

	for (const char *p = fmt; *p; p++) {
		const char *start = p;
		int hit = 0;

		if (*p != '%')
			continue;
		if (*++p == '%')
			continue;
		p += strspn(p, "-+ #0");
		p = skip_count(p, &arg, n, &hit);
		if (*p == '.')
			p = skip_count(p + 1, &arg, n, &hit);
		if (hit)
			return 0;	/* the char is a width: not judged */
		p = length_of(p, c->length);
		if (!*p)
			return 0;
		c->conv = *p;
		if (arg++ == n) {
			snprintf(c->spec, sizeof(c->spec), "%.*s", (int)(p - start + 1), start);
			return 1;
		}
		/* the kernel's %p extensions (%pI4, %pUb) read one pointer */
		if (*p == 'p')
			while (isalnum((unsigned char)p[1]))
				p++;
	}
	return 0;
}

const char *format_int(const struct conversion *c, long long v, char *buf, size_t size)
{
	static const struct { char conv; int is_signed; const char *fmt; } ints[] = {
		{ 'd', 1, "%lld" }, { 'i', 1, "%lld" }, { 'u', 0, "%llu" },
		{ 'x', 0, "%llx" }, { 'X', 0, "%llX" }, { 'o', 0, "%llo" },
	};
	/* The width an int is converted to before it is printed. */
	static const struct { const char *len; int bits; } widths[] = {
		{ "", 32 }, { "h", 16 }, { "hh", 8 },
	};
	unsigned long long mask;
	int bits = 0;

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (!strcmp(c->length, widths[i].len))
			bits = widths[i].bits;
	for (size_t i = 0; bits && i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (ints[i].conv != c->conv)
			continue;
		mask = (1ULL << bits) - 1;
		if (ints[i].is_signed) {
			long long s = (long long)((unsigned long long)v & mask);

			if (s & (1LL << (bits - 1)))
				s -= 1LL << bits;
			snprintf(buf, size, ints[i].fmt, s);
		} else {
			snprintf(buf, size, ints[i].fmt, (unsigned long long)v & mask);
		}
		return buf;
	}
	return NULL;
}
