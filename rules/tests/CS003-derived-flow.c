/*
 * A value computed from a plain char (c - '0', c - 'a' + 10) is judged
 * where it is tested, wherever that is in this file: in the callers of
 * a function that returns it, in the body of a function it is passed
 * to, in the reads of a field it is stored into.  For bytes 0x80-0xff,
 * c - '0' is negative when char is signed and above 9 when it is
 * unsigned: a test of one bound only differs, a test of both does not.
 */
struct parser { int digit; int base; };
extern int printk(const char *fmt, ...);

static int digit_of(char c)
{
	return c - '0';				/* ok: CS010 {{callers that are all in this file}} */
}

int parse_digit(const char *s)
{
	if (digit_of(*s) < 0)			/* expect: CS003 {{computed from plain char 'c' by digit_of()}} */
		return -1;
	return 0;
}

/* digit_of() returns its own parameter's value: each call is judged with
 * what it passes. */
int parse_guarded(const char *s)
{
	if (s[0] >= '0' && s[0] <= '9')
		return digit_of(s[0]) < 0;	/* ok: CS003 {{only bytes 0x00-0x7f get here}} */
	return -1;
}

int parse_constant(void)
{
	return digit_of('7') < 0;		/* ok: CS003 {{holds bytes 0x00-0x7f only}} */
}

int parse_checked(const char *s)
{
	int d = digit_of(*s);

	if (d < 0 || d > 9)			/* ok: CS003 */
		return -1;
	return d;
}

/* kernel/printk: a level digit passed on to the function that checks it */
static int valid_level(int level)
{
	return level >= 0;			/* expect: CS003 {{computed from a plain char by emit_level()}} */
}

static int is_default(int level)
{
	return level == 4;			/* ok: CS001 */
}

int emit_level(const char *kern_level)
{
	int r = valid_level(kern_level[1] - '0');	/* ok: CS010 {{followed into the callee}} */

	r += is_default(kern_level[1] - '0');	/* ok: CS010 {{followed into the callee}} */
	printk("%d", kern_level[1] - '0');	/* a variadic argument: nobody here tests it */
	return r;
}

void set_digit(struct parser *p, const char *s)
{
	p->digit = s[0] - '0';
}

int digit_negative(const struct parser *p)
{
	return p->digit < 0;			/* expect: CS003 {{field 'digit' is assigned a value computed from plain char 's[0]'}} */
}

/* Returned to callers in other files, or through a pointer: not
 * followed; it leaves as the char itself would (CS010). */
static int nibble_of(char c)
{
	return c - 'a' + 10;			/* expect: CS010 {{computed from plain char 'c', is returned as 'int'}} */
}

int (*const nibble_reader)(char) = nibble_of;

int hex_nibble(char c)
{
	return c - 'a' + 10;			/* expect: CS010 either {{byte 0x80 gives -215 when char is signed, 41}} */
}

/*
 * The char is guarded where it is stored: only '2'..'4' reach the
 * assignment, and the other write is a constant (lib/vsprintf.c's
 * dentry_name).  Unguarded, the same loop is a finding.
 */
extern void visit(int level);

int walk_levels(const char *fmt)
{
	int depth, i;

	switch (fmt[1]) {
	case '2': case '3': case '4':
		depth = fmt[1] - '0';
		break;
	default:
		depth = 1;
	}
	for (i = 0; i < depth; i++)		/* ok: CS003 only '2'..'4' are stored */
		visit(i);
	return depth > 3;			/* ok: CS003 */
}

void walk_any(const char *fmt)
{
	int depth = 1, i;

	if (fmt[1] != 'x')
		depth = fmt[1] - '0';
	for (i = 0; i < depth; i++)		/* expect: CS003 {{compares 'depth' (computed from plain char 'fmt[1]') with 'i'}} */
		visit(i);
}

/*
 * Computed on with another constant before the test: still followed
 * ((c | 0x20) >> 4 is the high nibble of the lower-cased byte).
 */
int high_nibble_low(char c)
{
	return ((c | 0x20) >> 4) < 3;		/* expect: CS003 {{'((c | 0x20) >> 4) < 3'}} */
}

int high_nibble_is(char c)
{
	return ((c | 0x20) >> 4) == 3;		/* ok: CS003 6..15 never equals 3 */
}

/*
 * Two chars combined bit by bit are a char again: the byte a ^ b,
 * extended by either signedness (fs/binfmt_misc.c compares magic bytes
 * under a mask this way).  Tested against zero or masked, the same;
 * tested for its sign, not.
 */
struct magic { char bytes[8], mask[8]; };

int magic_matches(const char *s, const struct magic *m, int n)
{
	int j;

	for (j = 0; j < n; j++)
		if ((*s++ ^ m->bytes[j]) & m->mask[j])	/* ok: CS006 a zero test of the combined byte */
			break;
	return j == n;
}

int differ_high(char a, char b)
{
	return ((a ^ b) & 0xf0) == 0xf0;	/* ok: CS003 */
}

int sign_differs(char a, char b)
{
	return (a ^ b) < 0;			/* expect: CS002 unsigned {{'(a ^ b) < 0'}} */
}
