/*
 * CS004 char-store-out-of-range: a constant outside 0..127 stored into a
 * plain char.  Includes the shapes of seed 004 (cmsg_sender.c: 128
 * stored through a char *) and of the clamp_t(char, ...) build failure
 * that started the 6.2 -funsigned-char change (macro shape copied from
 * include/linux/minmax.h).
 */
#define ICMPV6_ECHO_REQUEST 128

#define __cmp(x, y, op)	((x) op (y) ? (x) : (y))
#define min_t(type, x, y)	__cmp((type)(x), (type)(y), <)
#define max_t(type, x, y)	__cmp((type)(x), (type)(y), >)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)

static char table[4] = { 1, -1, 2, -2 };	/* expect: CS004 unsigned {{1 more constant}} */
static char ok_table[3] = { 'a', 'b', 0x7f };	/* ok: CS004 */

void fill(char *buf, int v)
{
	char c = 0x80;				/* expect: CS004 signed {{reads back as -128 when char is signed, 128}} */
	char d = 'x';				/* ok: CS004 */

	buf[0] = ICMPV6_ECHO_REQUEST;		/* expect: CS004 */
	buf[1] = clamp_t(char, v, -5, 5);	/* expect: CS004 CS003 */
	buf[2] = (char)0xff;			/* expect: CS004 */
	buf[3] = c + d;				/* ok: CS006 */
	buf[4] = '\xff';			/* ok: CS004 */
	buf[5] = 0x100;				/* ok: CS004 */
	(void)table;
	(void)ok_table;
}

char error_code(int bad)
{
	if (bad)
		return -1;			/* expect: CS004 */
	return 0;				/* ok: CS004 */
}

/* A table of this TU read only through a signed char pointer: its -1s
 * are read back as -1 under either signedness. */
static const char delta[4] = { -1, 0, 1, -1 };		/* ok: CS004 */
static const char delta_mixed[4] = { -1, 0, 1, -1 };	/* expect: CS004 unsigned */
const char delta_global[2] = { -1, 0 };			/* expect: CS004 */

int deltas(int i)
{
	const signed char *d = (const signed char *)delta;

	return d[i] + ((const signed char *)delta_mixed)[i] + (delta_mixed[i] == 1) +
	       ((const signed char *)delta_global)[i];
}
