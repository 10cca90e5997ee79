/*
 * CS010 with a sentinel: a widened plain char (or a value computed from
 * one) returned by a function that also returns a negative constant, or
 * kept in the local it returns next to one.  When char is signed, byte
 * 0xff comes back as -1, which is EOF: the caller's test for the
 * sentinel stops at the byte (CERT STR34-C, bash's yy_string_get()).  A
 * test on the way out that has the same answer either way (c == '\0')
 * judges nothing; one that differs (p4.c's j != -1) is the finding.
 */
#define EOF (-1)
#define ENOSYS 38

extern int consume(int c);

int string_get(const char **location)
{
	const char *string = *location;
	int c;

	if (string && *string) {
		c = *string++;
		*location = string;
		return c;			/* expect: CS010 signed {{and so is 'EOF': byte 0xff comes back as -1}} */
	}
	return EOF;
}

int next_or_eof(const char *s)
{
	return (*s == '\0') ? EOF : *s;		/* expect: CS010 signed {{? EOF : *s', and so is 'EOF'}} */
}

int after_end_test(const char **p)
{
	int c = *(*p)++;

	if (c == '\0' || c == '\n')
		return -1;
	return c;				/* expect: CS010 signed {{and so is '-1'}} */
}

/* drivers/usb/core/hub.c: char nports, computed on and returned next to
 * an error code: byte 0xd9 gives -39 + 1, which is -ENOSYS. */
struct portinfo { char nports; char port[127]; };

int hub_ioctl(unsigned int code, void *user_data)
{
	switch (code) {
	case 1: {
		struct portinfo *info = user_data;

		return info->nports + 1;	/* expect: CS010 signed {{and so is '-ENOSYS': byte 0xd9 comes back as -38}} */
	}
	default:
		return -ENOSYS;
	}
}

/* Computed on and returned: an escape like the char itself. */
int ports_and_hub(const struct portinfo *info)
{
	return info->nports + 1;		/* expect: CS010 either {{'info->nports + 1', computed from plain char 'info->nports'}} */
}

int scaled(const char *p)
{
	return (int)*p * 3;			/* expect: CS010 {{byte 0x80 gives -384 when char is signed, 384}} */
}

/* The same shapes, each made a byte first or kept to ASCII. */
int next_byte_or_eof(const char *s)
{
	return (*s == '\0') ? EOF : (unsigned char)*s;	/* ok: CS010 */
}

int masked_or_eof(const char **p)
{
	int c = **p & 0xff;

	if (!c)
		return EOF;
	return c;				/* ok: CS010 */
}

int byte_in_local(const char **p)
{
	int c = EOF;

	if (**p)
		c = (unsigned char)*(*p)++;
	return c;				/* ok: CS010 */
}

int digit_or_error(const char *p)
{
	if (*p >= '0' && *p <= '9')
		return *p - '0';		/* ok: CS003 {{an ASCII-only guard}} */
	return -1;
}

int low_bits_or_error(const char *p)
{
	if (!*p)
		return -ENOSYS;
	return (*p & 0x7f) + 1;			/* ok: CS010 */
}

/* A sentinel no byte reaches, and a test of the value on its way out:
 * as before, judged at the test. */
int zero_at_end(const char *p)
{
	int c = *p;

	if (c == '\n')
		return 0;
	return c;				/* ok: CS010 {{judged at that test}} */
}

/* p4.c's shape: the test that lets the byte through is the finding. */
int first_free(const char *cntr, int n)
{
	for (int i = 0; i < n; i++) {
		int j = cntr[i];

		if (j != -1 && !consume(j))	/* expect: CS001 unsigned */
			return j;		/* ok: CS010 */
	}
	return -1;
}

/* Callers all here: followed to the test of EOF, which is the finding. */
static int get_one(const char **p)
{
	if (!**p)
		return EOF;
	return *(*p)++;				/* ok: CS010 {{callers that are all in this file}} */
}

int count_bytes(const char *s)
{
	int c, n = 0;

	while ((c = get_one(&s)) != EOF)	/* expect: CS001 unsigned {{returned by get_one()}} */
		n++;
	return n;
}

/* bash's yy_string_get() as written: the local returned in parentheses
 * (the load of 'c' sits above them, Cast(Paren(c))). */
struct input_location {
	char *string;
};

int yy_string_get(struct input_location *loc)
{
	register char *c_str;
	register int c;

	c_str = loc->string;
	c = EOF;
	if (c_str && *c_str) {
		c = *c_str++;
		loc->string = c_str;
	}
	return (c);				/* expect: CS010 signed {{and so is 'EOF'}} */
}

/* Static, its callers here: followed to the caller's test of EOF. */
static int yy_static_get(struct input_location *loc)
{
	int c = EOF;

	if (*loc->string)
		c = *loc->string++;
	return (c);				/* ok: CS010 */
}

int yy_count(struct input_location *loc)
{
	int c, n = 0;

	while ((c = yy_static_get(loc)) != EOF)	/* expect: CS001 unsigned {{returned by yy_static_get()}} */
		n++;
	return n;
}
