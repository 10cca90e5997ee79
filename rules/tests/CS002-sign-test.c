/*
 * CS002 char-sign-test: a plain char (or an int assigned from one) tested
 * for being negative: constant when char is unsigned.
 */
typedef char kchar;

#define IS_NEG(x) ((x) < 0)

int sign_tests(char c, kchar k, const char *p)
{
	int r = 0;
	int v = *p;

	r += c < 0;			/* expect: CS002 unsigned {{always false}} */
	r += k >= 0;			/* expect: CS002 */
	r += IS_NEG(c);			/* expect: CS002 {{'IS_NEG(c)' on plain char 'c' is}} */
	r += v < 0;			/* expect: CS002 */
	r += c > -1;			/* expect: CS002 unsigned {{always true}} */
	r += (signed char)c < 0;	/* ok: CS002 */
	r += (unsigned char)c >= 0;	/* ok: CS002 */
	r += c < 0 || c > 127;		/* ok: CS002 */
	return r;
}

int flag_error(signed char err)
{
	return err < 0;			/* ok: CS002 */
}

/* The test that normalizes: negative values made what unsigned char
 * gives, so every byte has the same value after it. */
int byte_at(const char *s)
{
	int c = s[0];

	if (c < 0)				/* ok: CS002 {{what unsigned char gives}} */
		c += 256;
	return c;
}

int byte_at_masked(const char *s)
{
	int c = s[1];

	if (c < 0) {				/* ok: CS002 */
		c = c & 0xff;
	}
	return c;
}

/* Anything else done to the negative values is a sign test as any. */
int byte_at_folded(const char *s)
{
	int c = s[2];

	if (c < 0)				/* expect: CS002 unsigned */
		c += 128;
	return c;
}
