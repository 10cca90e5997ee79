/* printf-style format strings: the conversion that reads an argument. */
#ifndef CHARSCAN_FORMAT_H
#define CHARSCAN_FORMAT_H

#include <stddef.h>

struct conversion {
	char conv;		/* d i u x X o c s p ... */
	char length[3];		/* "", "hh", "h", "l", "ll", "z"... */
	char spec[32];		/* as written: "%02x" */
};

/* The conversion that reads variadic argument n (0-based) of fmt: 1, or
 * 0 when none does or the argument is a '*' width or precision. */
int format_conversion(const char *fmt, unsigned n, struct conversion *c);
/* What conversion c prints for the int v (in buf), or NULL when c is
 * not an integer conversion of an int (%c, %s, %ld...). */
const char *format_int(const struct conversion *c, long long v, char *buf, size_t size);

#endif
