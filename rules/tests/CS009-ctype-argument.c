/*
 * CS009 char-ctype-argument: plain char passed to <ctype.h>.  glibc's
 * isalpha() is a macro indexing a table; toupper() is a function.
 */
#include <ctype.h>

int words(const char *s, char c)
{
	int n = 0;

	n += isalpha(c);			/* expect: CS009 */
	n += isdigit(*s);			/* expect: CS009 */
	n += toupper(c);			/* expect: CS009 */
	n += isspace((unsigned char)c);		/* ok: CS009 */
	n += tolower((unsigned char)*s);	/* ok: CS009 */
	return n;
}
