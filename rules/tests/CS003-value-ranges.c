/*
 * A char assigned a value whose shape keeps it in 0..127 holds the same
 * byte either way: the range of the expression is computed over sums,
 * differences, products, quotients, remainders, masks and shifts.  The
 * digit conversion `n % 10 + '0'` of a byte is '0'-9..'0'+9 even for a
 * negative value (39..57), all ASCII.  One step out of 0..127 and the
 * comparison is judged.  A parameter is a value not seen into: a caller
 * may pass a plain char, which the walk follows into the callee but not
 * into a char computed from it, so only what bounds any value (a mask,
 * an unsigned shift right, a narrowing to a byte) bounds it.
 */
typedef unsigned char u8;

int digit_high(int n)
{
	char c = (n & 0xff) % 10 + '0';

	return c > '5';			/* ok: CS003 */
}

int letter_rot(unsigned k)
{
	char c = 'a' + (u8)k % 26;

	return c >= 'n';		/* ok: CS003 */
}

int signed_letter(int k)
{
	char c = 'a' + (k & 0x7fff) % 26;

	return c >= 'n';		/* ok: CS003 */
}

/* digit(s[0]): byte 0x80 gives '(' or '8' */
static int digit(int x)
{
	char c = x % 10 + '0';

	return c > '5';			/* expect: CS003 */
}

int use_digit(const char *s)
{
	return digit(s[0]);
}

int sixty_four(int x)
{
	char c = (x & 0x3f) + 0x40;	/* 64..127 */

	return c < 'A';			/* ok: CS003 */
}

int one_past(int x)
{
	char c = (x & 0x3f) + 0x41;	/* 65..128: 128 is not ASCII */

	return c < 'A';			/* expect: CS003 */
}

int halved(u8 b)
{
	char c = b / 2;

	return c > 'z';			/* ok: CS003 */
}

int quotient(int x)
{
	char c = x / 3;

	return c > 'z';			/* expect: CS003 */
}

int negative(int x)
{
	char c = -(x & 7);		/* -7..0 */

	return c > 'z';			/* expect: CS003 */
}

int remainder_wide(int x)
{
	char c = x % 200;		/* -199..199 */

	return c > 'z';			/* expect: CS003 */
}

int scaled(int x)
{
	char c = (x & 3) * 10 + ((x >> 2) & 7);		/* 0..37 */

	return c > 'z';			/* ok: CS003 */
}

int scaled_over(int x)
{
	char c = (x & 15) * 10;		/* 0..150 */

	return c > 'z';			/* expect: CS003 */
}

int or_bits(int x)
{
	char c = (x & 0x0f) | 0x30;	/* 0x30..0x3f */

	return c < '0';			/* ok: CS003 */
}

int or_high(int x)
{
	char c = (x & 0x0f) | 0x70;	/* 0x70..0x7f */

	return c < '0';			/* ok: CS003 */
}

int or_over(int x)
{
	char c = (x & 0x1f) | 0x70;	/* 0x70..0x7f: the mask adds bit 4 only */

	return c < '0';			/* ok: CS003 */
}

int xor_over(int x)
{
	char c = (x & 0xff) ^ 0x20;	/* 0..0xff */

	return c < '0';			/* expect: CS003 */
}

/* A local's range is the join of every value written to it. */
int via_local(int x)
{
	int d = (x >> 4 & 0xfff) % 10;
	char c = '0' + d;

	return c > '5';			/* ok: CS003 */
}

int via_local_param(int x)
{
	int d = x % 10;			/* x: maybe a caller's char */
	char c = '0' + d;

	return c > '5';			/* expect: CS003 */
}

int via_local_two_writes(int x)
{
	int d = x & 7;
	char c;

	if (x > 100)
		d = 100;
	c = 'a' + d;			/* 'a' + 100: not ASCII */
	return c > 'c';			/* expect: CS003 */
}

/* A counting loop's counter spans its start and its limit. */
int digits_table(void)
{
	char buf[16];
	int i;

	for (i = 0; i < 10; i++)
		buf[i] = '0' + i;	/* '0'..'9' */
	return buf[0] > '5';		/* ok: CS003 */
}

int letters_table(void)
{
	char buf[64];
	int i;

	for (i = 0; i < 40; i++)
		buf[i] = 'a' + i;	/* up to 'a' + 39: not ASCII */
	return buf[0] > 'c';		/* expect: CS003 */
}

/* Its address taken: written out of sight. */
void fill(int *p);

int escaped_local(void)
{
	int d = 3;
	char c;

	fill(&d);
	c = '0' + d;
	return c > '5';			/* expect: CS003 */
}

/*
 * Computed from a plain char, a value in 0..127 is still another value
 * under each signedness: byte 0x80 gives '(' or '8' below.  Only a mask
 * that keeps no bit above the byte makes it the same again, when
 * nothing but + - * << & | ^ came between.
 */
int char_digit(const char *s)
{
	char d = s[0] % 10 + '0';

	return d > '5';			/* expect: CS003 */
}

int char_quarter(const char *s)
{
	char d = s[0] / 4 + 64;

	return d > 'A';			/* expect: CS003 */
}

int char_via_local(const char *s)
{
	int n = s[0];
	char d = n % 10 + '0';

	return d > '5';			/* expect: CS003 */
}

int char_masked(const char *s)
{
	char d = (s[0] + 1) & 0x7f;

	return d > 'A';			/* ok: CS003 */
}

int char_remainder_masked(const char *s)
{
	char d = (s[0] % 10) & 0x7f;	/* -8 & 0x7f is 120 */

	return d > 'A';			/* expect: CS003 */
}

struct rec { char tag; };

void set_tag(struct rec *r, const char *s)
{
	r->tag = s[0] % 10 + '0';
}

int get_tag(const struct rec *r)
{
	return r->tag > '5';		/* expect: CS003 */
}

/* 64-bit unsigned arithmetic wraps: (x & 7) - 8UL is near 2^64. */
int wrapped_u64(int x)
{
	char c = ((x & 7) - 8UL) / (1UL << 56);

	return c > 'z';			/* expect: CS003 */
}

int wrapped_u64_shift(int x)
{
	char c = (((x & 7) - 8UL) >> 57) + 1;

	return c > 'z';			/* expect: CS003 */
}

/* A shift by the type's width or more is undefined: no bound. */
int shifted_out(unsigned u)
{
	char c = u >> 40;

	return c > 'z';			/* expect: CS003 */
}

/* Divided by a negative constant: 0..127 still. */
int negated_quotient(int x)
{
	char c = (x & 127) / -1 + 127;

	return c > 'z';			/* ok: CS003 */
}

/*
 * Values not seen into may carry a char the walk follows elsewhere: a
 * statement expression, a compound literal, ++n, *p, an int array, a
 * call, a static local, a parameter written in the body.  A remainder
 * of one proves nothing.
 */
static int get_first(const char *s)
{
	return s[0];
}

static int kept;

int unseen_values(const char *s, int x)
{
	int n = s[0], v[1], *q = &n;
	static int st;
	char d1 = ({ int _v = s[0]; _v; }) % 10 + '0';
	char d2 = (int){ s[0] } % 10 + '0';
	char d3 = (++n) % 10 + '0';
	char d4 = *q % 10 + '0';
	char d5, d6, d7, d8;

	v[0] = s[0];	/* expect: CS010 */
	d5 = v[0] % 10 + '0';
	d6 = get_first(s) % 10 + '0';
	st = s[0];
	kept = s[1];	/* expect: CS010 */
	d7 = (st + kept) % 10 + '0';	/* expect: CS006 {{variable 'kept'}} */
	x = s[2];
	d8 = x % 10 + '0';
	return (d1 > '5') + (d2 > '5') +	/* expect: CS003 CS003 */
	       (d3 > '5') + (d4 > '5') +	/* expect: CS003 CS003 */
	       (d5 > '5') + (d6 > '5') +	/* expect: CS003 CS003 */
	       (d7 > '5') + (d8 > '5');		/* expect: CS003 CS003 */
}

/* A bool local written a value that differs: its 0 or 1 differs. */
int bool_local(const char *s)
{
	_Bool b = s[0] & 0x100;
	char d = b + '0';

	return d > '0';			/* expect: CS003 */
}

/* A truth value of a char is judged where it is computed, if at all. */
struct flags { char slash, nz; };

int truth_values(struct flags *f, const char *s, int x)
{
	char d = s[0] == '/';
	char e = !s[0];
	char g = s[0] && x;

	f->slash = s[1] == '/';
	f->nz = !!s[1];
	return (d > 0) + (e > 0) + (g > 0) +	/* ok: CS003 */
	       (f->slash > 0) + (f->nz > 0);	/* ok: CS003 */
}

/* A local read in its own write: the circle is no bound. */
int shifted_twice(const char *s)
{
	int acc = s[0];
	char d;

	acc = acc >> 4;
	d = (u8)acc >> 1;		/* 124 or 4 for byte 0x80 */
	return d > 'A';			/* expect: CS003 */
}

/* A shift by a count that differs. */
int differing_count(const char *s)
{
	int k = s[0] / 16 + 8;
	char d = ((unsigned)(1 << k) >> 16) % 2;

	return d > 0;			/* expect: CS003 */
}

/* Filled through its address (pci_read_config_dword(dev, pos, &v)):
 * any value, which a mask or an unsigned shift bounds (agp/generic.c's
 * `(ncapid >> 20) & 0xf`, pci/vc.c's `1 << ((cap1 & 0xc00) >> 10)`). */
void read_config(unsigned int *v);

int agp_major(void)
{
	unsigned int ncapid, cap1;
	char major, size;

	read_config(&ncapid);
	read_config(&cap1);
	major = (ncapid >> 20) & 0xf;
	size = 1 << ((cap1 & 0xc00) >> 10);
	return (major > 3) + (size > 4);	/* ok: CS003 */
}

/* ... but a remainder of it proves nothing. */
int filled_remainder(void)
{
	unsigned int v;
	char d;

	read_config(&v);
	d = (int)v % 10 + '0';
	return d > '5';			/* expect: CS003 */
}

/*
 * A local changed in place or through its address keeps every char its
 * other writes give it: a checksum summed with +=, an FNV hash folded
 * with ^=, a value read in after `get(&v)`.  A mask or a shift does not
 * make them the same again.
 */
void get_int(int *v);

int checksum_digit(const char *buf, int len)
{
	int sum = 0, i;
	char c;

	for (i = 0; i < len; i++)
		sum += buf[i];		/* expect: CS006 */
	c = ((sum >> 4) & 0x3f) + '0';
	return c > 'A';			/* expect: CS003 */
}

int fnv_letter(const char *s, int n)
{
	unsigned int h = 2166136261u;
	char c;

	for (int i = 0; i < n; i++) {
		h ^= s[i];		/* expect: CS006 */
		h *= 16777619u;
	}
	c = 'a' + (h >> 28);
	return c > 'h';			/* expect: CS003 */
}

int read_in_after(const char *s)
{
	int v;
	char d;

	get_int(&v);
	v = s[0];
	d = ((v >> 4) & 0xff) / 8 + 'A';
	return d > 'Z';			/* expect: CS003 */
}

/* How many steps a loop runs depends on the char it starts from. */
int counted_from_char(const char *s)
{
	int i;
	char d;

	for (i = s[0]; i < 10; i++)
		;
	d = (i & 0xff) / 8 + 'A';
	return d > 'P';			/* expect: CS003 */
}

/* ++t moves t's low bits: (++t >> 4) keeps four of them the same. */
int incremented(const char *s)
{
	int t = s[0];
	char d = (++t >> 4) & 0x7f;

	return d > 'a';			/* expect: CS003 */
}

/* A narrowing to an unsigned 16 bits bounds any value, as to a byte. */
int narrowed_u16(int x)
{
	char c = (unsigned short)x >> 9;
	char d = (unsigned short)x % 100;

	return (c > 'a') + (d > 'a');	/* ok: CS003 */
}
