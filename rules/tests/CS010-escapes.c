/*
 * CS010 char-escapes: a widened plain char leaves the function as a
 * signed int before anything here observes it.
 */
#define EOF (-1)

struct rec { int off32; char tag; };
int last_seen;
extern void consume(int v);
extern char *strchr(const char *s, int c);
extern int printk(const char *fmt, ...);

/* CERT STR34-C's lexer: 0xff comes back as EOF when char is signed. */
int next_char(const char **str)
{
	int c = EOF;

	if (**str)
		c = *(*str)++;
	return c;				/* expect: CS010 signed {{and so is 'EOF': byte 0xff comes back as -1}} */
}

int first(const char *s)
{
	return s[0];				/* expect: CS010 */
}

void parse(struct rec *x, const void *bytes, const char *s)
{
	x->off32 = *(const char *)bytes;	/* expect: CS010 {{stored into 'x->off32'}} */
	last_seen = s[1];			/* expect: CS010 */
	consume(s[2]);				/* expect: CS010 {{passed to consume()}} */
	x->tag = s[3];				/* ok: CS010 */
}

static int local_helper(int v)
{
	return v > 0;				/* expect: CS003 {{passed by not_escapes()}} */
}

int not_escapes(const char *s, char c)
{
	int r = 0;

	r += strchr(s, c) != 0;			/* ok: CS010 */
	r += local_helper(s[0]);		/* ok: CS010 */
	printk("%c", c);			/* ok: CS010 */
	if (c >= '0' && c <= '9')
		consume(c);			/* ok: CS010 */
	return r;
}

unsigned char byte_of(const char *s)
{
	return s[0];				/* ok: CS010 */
}

/* Tested on the way out: the test is the finding (p4.c's j != -1). */
int tested_then_returned(const char *s)
{
	int c = s[0];

	if (c == -1)				/* expect: CS001 */
		return 0;
	return c;				/* ok: CS010 */
}

/* A callee in the TU: the char is followed into it and judged there. */
static int is_eof(int v)
{
	return v == -1;				/* expect: CS001 unsigned {{passed by reader()}} */
}

int reader(const char *s)
{
	return is_eof(s[0]);			/* ok: CS010 */
}

static int digit_value(int v)
{
	if (v >= '0' && v <= '9')
		return v - '0';			/* ok: CS010 */
	return -1;
}

int parse_digit(const char *s)
{
	return digit_value(*s);			/* ok: CS010 */
}

static int pass_on(int v)
{
	return is_eof(v) + (v << 2);		/* expect: CS006 signed {{passed by relay()}} */
}

int relay(const char *s)
{
	return pass_on(s[1]);
}

/* Out of a function: where a caller in this TU observes the value, the
 * test is the finding (the note at the return stays: other TUs may call;
 * a static function's callers are all here, unless its address is taken). */
int count_until_eof(const char *s)
{
	int c, n = 0;

	while ((c = next_char(&s)) != EOF)	/* expect: CS001 unsigned {{returned by next_char()}} */
		n += c == ' ';
	return n;
}

static int next_of(const char **s)
{
	return next_char(s);			/* ok: CS010 {{callers that are all in this file}} */
}

static int first_of(const char *s)
{
	return s[0];				/* expect: CS010 {{is returned as 'int'}} */
}

int (*const first_reader)(const char *) = first_of;

int negative_next(const char *s)
{
	int v = next_of(&s);

	return v < 0;				/* expect: CS002 {{returned by next_of()}} */
}

/* Masked before it leaves: the same byte value either way. */
static int byte_at(const char *s)
{
	return s[0] & 0xff;			/* ok: CS010 */
}

int is_ff(const char *s)
{
	return byte_at(s) == 0xff;		/* ok: CS001 */
}

/* A parameter's value goes back only to the call that passed a char. */
static int same(int v)
{
	return v;				/* ok: CS010 {{followed there}} */
}

int with_int(int x)
{
	return same(x) == -1;			/* ok: CS001 */
}

int with_char(const char *s)
{
	return same(s[0]) == -1;		/* expect: CS001 unsigned {{returned by same()}} */
}

/*
 * Handed to inline assembly: the instructions see the whole register.
 * drivers/scsi/sg.c's put_user((int) sfp->keep_orphan, ip): x86's
 * put_user() copies the value into a typeof(*ptr) temporary, then into
 * the register variable the asm reads, and takes the temporary's
 * address after (kmsan_copy_to_user()).
 */
extern void copy_hook(void *to, const void *from, unsigned long n);
#define put_int(x, ptr) ({						\
	int __ret;							\
	register __typeof__(*(ptr)) __val asm("eax");			\
	__typeof__(*(ptr)) __x = (x);					\
	__val = __x;							\
	asm volatile("call put_4" : "=c" (__ret) : "r" (__val));	\
	copy_hook(ptr, &__x, sizeof(__x));				\
	__ret; })

struct orphan { char keep; };

int get_keep(struct orphan *o, int *ip)
{
	return put_int((int) o->keep, ip);	/* expect: CS010 either {{handed to inline assembly as 'int'}} */
}

int get_keep_masked(struct orphan *o, int *ip)
{
	return put_int(o->keep & 0x7f, ip);	/* ok: CS010 */
}

void put_byte(char c)
{
	asm volatile("outb %0, $0x80" : : "a" (c));	/* ok: CS010 */
}

/* Its address taken before the read: anything may have written it. */
extern void fill(int *v);
int read_back(const char *s)
{
	int t = s[0];

	fill(&t);
	asm volatile("" : : "r" (t));		/* ok: CS010 */
	return 0;
}

/* Tested before it leaves: the test is the verdict (fs/binfmt_misc.c's
 * delimiter, tested against the flag letters, then handed to memset(),
 * which takes it back as a char whatever tested it). */
extern void *memset(void *s, int c, unsigned long n);

int pass_on_tested(const char *s)
{
	char c = s[0];

	if (c == 'P' || c == 'O')		/* ok: CS001 */
		return -1;
	consume(c);				/* ok: CS010 {{judged at that test}} */
	return 0;
}

void pad_with(char *buf, const char *p, int count)
{
	char del = *p++;

	if (del == 'P')				/* ok: CS001 */
		return;
	memset(buf + count, del, 8);		/* ok: CS010 {{takes it back as a char}} */
}
