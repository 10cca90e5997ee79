/*
 * A char assigned a value whose shape keeps it in 0..127 holds the same
 * byte either way: the range of the expression is computed over sums,
 * differences, products, quotients, remainders, masks and shifts.  The
 * usual digit conversion `n % 10 + '0'` is '0'-9..'0'+9 even for a
 * negative n (39..57), all ASCII.  One step out of 0..127 and the
 * comparison is judged.
 */
typedef unsigned char u8;

int digit_high(int n)
{
	char c = n % 10 + '0';

	return c > '5';			/* ok: CS003 */
}

int letter_rot(unsigned k)
{
	char c = 'a' + k % 26;

	return c >= 'n';		/* ok: CS003 */
}

int signed_letter(int k)
{
	char c = 'a' + k % 26;		/* 'a'-25 = 72 at the least */

	return c >= 'n';		/* ok: CS003 */
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
	int d = x % 10;
	char c = '0' + d;

	return c > '5';			/* ok: CS003 */
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
