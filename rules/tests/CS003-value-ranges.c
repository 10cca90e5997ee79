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
