/*
 * CS009: the kernel's own ctype (include/linux/ctype.h) is safe for any
 * char: isdigit() is an inline range test, the table macros cast to
 * unsigned char.  Only the C library's <ctype.h> is reported.
 */
extern const unsigned char _ctype[];
#define _D	0x04
#define _X	0x40
#define __ismask(x) (_ctype[(int)(unsigned char)(x)])
#define isxdigit(c)	((__ismask(c)&(_D|_X)) != 0)

static inline int isdigit(int c)
{
	return '0' <= c && c <= '9';
}

int count_digits(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += isdigit(*s) || isxdigit(*s);	/* ok: CS009 */
	return n + isdigit(s[-1]);			/* ok: CS009 */
}
