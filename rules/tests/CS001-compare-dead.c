/*
 * CS001 char-compare-dead: a plain char compared with a constant it can
 * reach under only one signedness.  Includes the shape of seed patch 003
 * (arch/x86/events/intel/p4.c): a char array holding -1, copied to an
 * int, then compared with -1.
 */
#define EOF (-1)
#define P4_CNTR_LIMIT 3
#define NO_CNTR 0xff

typedef char tag_t;

struct p4_event_bind {
	unsigned int escr_msr[2];
	char cntr[2][P4_CNTR_LIMIT];	/* counter index (offset), -1 on absence */
};

int test_bit(long nr, const unsigned long *addr);

int p4_next_cntr(int thread, unsigned long *used_mask, struct p4_event_bind *bind)
{
	int i, j;

	for (i = 0; i < P4_CNTR_LIMIT; i++) {
		j = bind->cntr[thread][i];
		if (j != -1 && !test_bit(j, used_mask))	/* expect: CS001 unsigned {{always true}} */
			return j;
	}
	return -1;
}

int read_loop(char (*next)(void))
{
	char c;
	int n = 0;

	while ((c = next()) != EOF)	/* expect: CS001 unsigned {{always true when char is unsigned}} */
		n++;
	return n;
}

int tests(char c, tag_t t, const char *s)
{
	int r = 0;

	r += c == 0xff;			/* expect: CS001 */
	r += t == NO_CNTR;		/* expect: CS001 */
	r += s[0] > 200;		/* expect: CS001 */
	r += c == 'a';			/* ok: CS001 */
	r += c != '\n';			/* ok: CS001 */
	r += c == 300;			/* ok: CS001 */
	r += c == '\xff';		/* ok: CS001 */
	r += (unsigned char)c == 0xff;	/* ok: CS001 */
	r += (c & 0x7f) == 0x7f;	/* ok: CS001 */
	r += (c | 0x20) == 'x';		/* ok: CS001 */
	r += c + 1 == 0;		/* expect: CS001 */
	return r;
}

/* A local that is also written from an int is no char carrier. */
int mixed(char c, int other)
{
	int j = c;

	j = other;
	return j == -1;			/* ok: CS001 */
}

/* Code kept for one signedness is written for it (lib/test_printf.c);
 * --explain says so of the whole group, the code differs on purpose. */
#ifdef __CHAR_UNSIGNED__	/* ok: CS001 {{in a group compiled for one signedness only}} */
int is_eof_byte(char c)
{
	return c == 255;			/* ok: CS001 */
}
#else
int is_eof_byte(char c)
{
#if 1
	return c == -1;				/* ok: CS001 {{compiled for one signedness only}} */
#endif
}
#endif

int after_the_conditional(char c)
{
	return c == -1;				/* expect: CS001 */
}

/* Equality with ASCII constants, alone or in a chain, and a difference
 * used only as a truth value: the same for every byte either way. */
int is_quote(char c)
{
	return c == '"' || c == '\'';		/* ok: CS001 */
}

_Bool differs_from_a(const char *s)
{
	return *s - 'a';			/* ok: CS001 CS006 */
}

/* A variable written two plain chars still carries a char. */
int either_byte(const char *a, int k)
{
	int j = a[0];

	if (k)
		j = a[1];
	return j == -1;				/* expect: CS001 unsigned */
}
