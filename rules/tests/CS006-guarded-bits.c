/*
 * Guards written as bit tests and casts: c & 0x80 and (unsigned char)c
 * < 0x80 admit no byte above 0x7f under either signedness.  c >= 0
 * admits them only when char is unsigned: the test is the finding
 * (CS002), what it guards differs only by whether it runs.
 */
unsigned high_bit_clear(char c)
{
	if (!(c & 0x80))
		return c << 8;			/* ok: CS006 */
	return 0;
}

unsigned cast_below(const char *s)
{
	unsigned h = 0;

	if ((unsigned char)*s < 0x80)
		h = h * 31 + *s;		/* ok: CS006 */
	return h;
}

unsigned exit_on_high(char c)
{
	if ((c & 0x80) != 0)
		return 0;
	return c << 8;				/* ok: CS006 */
}

/* c >> 7 is -1 or 1 for a high byte: tested against zero, the same. */
unsigned shifted_out(char c)
{
	if (c >> 7)				/* ok: CS006 */
		return 0;
	return c << 8;				/* ok: CS006 */
}

unsigned sign_tested(char c)
{
	if (c >= 0)				/* expect: CS002 */
		return c << 8;			/* ok: CS006 */
	return 0;
}

unsigned top_nibble(char c)
{
	if ((c >> 4) == 0x0f)			/* expect: CS006 */
		return 1;
	return (c >> 7) != 0;			/* ok: CS006 */
}

/* Tests that let high bytes through under both signednesses. */
unsigned other_bit(char c)
{
	if (c & 0x40)
		return c << 8;			/* expect: CS006 */
	return 0;
}

unsigned cast_wide(char c)
{
	if ((unsigned char)c < 0xc0)
		return c << 8;			/* expect: CS006 */
	return 0;
}

unsigned nonzero(char c)
{
	if (c != 0)
		return c << 8;			/* expect: CS006 */
	return 0;
}
