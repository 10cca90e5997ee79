/*
 * CS009 on the C library's ctype functions declared by the file itself
 * rather than through <ctype.h> (test suites, freestanding code that
 * links against libc): the names are reserved to the library, so an
 * external declaration without a body is the library's function.  A
 * function of the same name with its body here is the file's own.
 */
int isalpha(int c);
int toupper(int c);

int first_alpha(const char *s)
{
	return isalpha(s[0]);			/* expect: CS009 */
}

int upper_of(char c)
{
	return toupper((unsigned char)c);	/* ok: CS009 */
}

/* A file's own, with its body: a range test, the same either way. */
static int isxdigit(int c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

int hex_start(const char *s)
{
	return isxdigit(*s);			/* ok: CS009 */
}
