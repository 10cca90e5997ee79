/*
 * CS006 behind the C library's own classifiers: glibc's isdigit() and
 * isxdigit() are macros over a table (a bit test, not a call), and they
 * still admit no byte above 0x7f.  The argument itself is CS009.
 */
#include <ctype.h>

int atoi_digits(const char *s)
{
	int n = 0;

	while (isdigit(*s))			/* expect: CS009 */
		n = n * 10 + *s++ - '0';	/* ok: CS006 */
	return n;
}

unsigned hex_value(const char *s)
{
	unsigned v = 0;

	while (isxdigit(*s))			/* expect: CS009 */
		v = v * 16 + *s++;		/* ok: CS006 */
	return v;
}

/* isalpha() admits Latin-1 letters in some locales: no guard. */
unsigned hash_word(const char *s)
{
	unsigned h = 0;

	while (isalpha(*s))			/* expect: CS009 */
		h = h * 31 + *s++;		/* expect: CS006 */
	return h;
}

/* The argument cast to unsigned char, as CS009 asks: the guard still
 * tests the char's byte, and admits no byte above 0x7f. */
unsigned digits_cast(const char *s)
{
	unsigned n = 0;

	while (isdigit((unsigned char)*s))	/* ok: CS009 */
		n = n * 10 + *s++ - '0';	/* ok: CS006 */
	if (isxdigit((unsigned char)*s))
		n += *s << 4;			/* ok: CS006 */
	return n;
}
