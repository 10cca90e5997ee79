/*
 * CS006 char-sign-extension: plain char widened into shifts, bit
 * operations, hashes and unsigned wider types.
 */
typedef unsigned int u32;
typedef unsigned long size_t;

u32 be16(const char *p)
{
	return p[0] << 8 | (unsigned char)p[1];	/* expect: CS006 signed {{sign-extended}} */
}

u32 hash(const char *s)
{
	u32 h = 0;

	while (*s)
		h = h * 31 + *s++;		/* expect: CS006 */
	return h;
}

int parts(char c, u32 *out, size_t *len)
{
	int sum = 0;

	out[0] = c;				/* expect: CS006 */
	*len = c;				/* expect: CS006 */
	sum += c;				/* expect: CS006 */
	out[1] = c >> 4;			/* expect: CS006 */
	out[2] = c & 0xff;			/* ok: CS006 */
	out[4] = (0x7 << 8) | (unsigned short)c;	/* expect: CS006 */
	out[5] = c | 0x20;			/* ok: CS006 */
	out[3] = (unsigned char)c << 8;		/* ok: CS006 */
	sum += c - '0';				/* ok: CS006 */
	return sum + (c & 0x7f);		/* ok: CS006 */
}

/* kstrtox.c's shape: kept in a local, then only range-tested. */
int digit(const char *s)
{
	unsigned int c = *s;			/* ok: CS006 */
	unsigned int lc = c | 0x20;

	if ('0' <= c && c <= '9')
		return c - '0';
	if ('a' <= lc && lc <= 'f')
		return lc - 'a' + 10;
	return -1;
}

/* ... but a local that is shifted still is one. */
u32 word(const char *p)
{
	u32 hi = p[0];

	return hi << 8 | hi << 24;		/* expect: CS006 */
}

/* A local declared unsigned holds the sign extension already: it shows
 * wherever the value goes, not only in arithmetic. */
unsigned int widened_copy(const char *p)
{
	unsigned int v = p[0];

	return v;				/* expect: CS006 signed {{'unsigned int' in 'return v'}} */
}

void widened_out(unsigned int *out, const char *p)
{
	unsigned int v = p[1];

	*out = v;				/* expect: CS006 */
}

/* Declared int: widened on purpose, judged where it is tested. */
int signed_copy(const char *p)
{
	int v = p[0];

	return v;				/* expect: CS010 */
}

/* A shift whose result is masked or narrowed right away is the same
 * value for every byte: (c >> 4) & 0x0f is the high nibble either way. */
unsigned char nibbles(char c, unsigned char *lo)
{
	*lo = (unsigned char)(c << 4);		/* ok: CS006 */
	return (c >> 4) & 0x0f;			/* ok: CS006 */
}

int nibble_sign(char c)
{
	return (c >> 4) & 0xff;			/* expect: CS006 */
}

/*
 * Printed by a printf-like function: the conversion decides.  %x and %d
 * of a promoted plain char print ffffffe9 / -23 for byte 0xe9 when char
 * is signed; %c prints the byte, %hhx the same number either way.  '*'
 * widths and %p's kernel extensions (%pI4) take their own arguments.
 */
int printk(const char *fmt, ...);
int snprintf(char *buf, unsigned long size, const char *fmt, ...);
#define KERN_DEBUG "\0017"

void hexdump(const char *buf, int n, char *out, const void *addr)
{
	for (int i = 0; i < n; i++)
		printk(KERN_DEBUG "%02x ", buf[i]);	/* expect: CS006 signed {{printed by printk() with '%02x': byte 0x80 prints ffffff80}} */
	printk("%c%hhx\n", buf[0], buf[1]);		/* ok: CS006 */
	printk("%*d %pI4 %d\n", 4, buf[2], addr, buf[3]);	/* expect: CS006 {{'%*d'}} CS006 */
	snprintf(out, 8, "%s=%u", "k", buf[4]);	/* expect: CS006 {{'%u'}} */
}

/*
 * An arm of ?: is the char on its way: observed where the ?: is
 * (net/ipv4/ip_output.c: skb->priority = (cork->tos != -1) ?
 * cork->priority : sk->sk_priority, with char priority).  An arm the
 * condition lets through only for ASCII bytes is quiet.
 */
struct cork_like { short tos; char priority; };
extern int isdigit(int c);

unsigned int pick_priority(const struct cork_like *cork, unsigned int dflt)
{
	return (cork->tos != -1) ? cork->priority : dflt;	/* expect: CS006 signed {{'cork->priority'}} */
}

unsigned int digit_or(char c, unsigned int dflt)
{
	return isdigit((unsigned char)c) ? c : dflt;	/* ok: CS006 only digits take this arm */
}

/*
 * A char shift count is no finding: bytes 0x80-0xff shift by a negative
 * amount or by 128..255, undefined either way.  A char divisor is.
 */
unsigned int shift_by(unsigned int bits, char n, int x, char d)
{
	bits <<= n;					/* ok: CS006 a shift count */
	x /= d;						/* expect: CS006 {{'x /= d'}} */
	return (bits >> n) + x;				/* ok: CS006 a shift count */
}

/*
 * After a statement expression with a declaration in an earlier argument
 * (the kernel's min() and max()), the later arguments are still known by
 * their place: the conversion that prints the char, the callee's
 * parameter that receives it (drivers/input/input.c's modalias bits).
 */
#define max_of(a, b) ({ int __a = (a), __b = (b); __a > __b ? __a : __b; })

static int shifted(int room, char key)
{
	return room + (key << 2);			/* expect: CS006 {{'key << 2'}} */
}

int print_bits(char *buf, int size, char name, char key)
{
	int len = snprintf(buf, max_of(size, 0), "%c", name);	/* ok: CS006 printed with %c */

	len += snprintf(buf + len, max_of(size - len, 0), "%d", name);	/* expect: CS006 {{'%d'}} */
	return len + shifted(max_of(size, 1), key);
}

/* A length byte kept in an int and handed to a size_t parameter with no
 * test on the way: the extension goes on into memcpy's length. */
void *memcpy(void *dst, const void *src, __SIZE_TYPE__ n);

void copy_record(char *dst, const char *rec)
{
	int len = rec[0];

	memcpy(dst, rec + 1, len);		/* expect: CS006 signed {{'len' (assigned from plain char 'rec[0]')}} */
}

/* Tested first: judged at the test (here both answer alike). */
void copy_record_checked(char *dst, const char *rec)
{
	int len = rec[0];

	if (len > 0 && len < 64)
		memcpy(dst, rec + 1, len);	/* ok: CS006 */
}
