/*
 * CS006 char-sign-extension: plain char widened into shifts, bit
 * operations, hashes and unsigned wider types.
 */
typedef unsigned int u32;
typedef unsigned long size_t;

u32 be16(const char *p)
{
	return p[0] << 8 | (unsigned char)p[1];	/* expect: CS006 */
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
	out[3] = (unsigned char)c << 8;		/* ok: CS006 */
	sum += c - '0';				/* ok: CS006 */
	return sum + (c & 0x7f);		/* ok: CS006 */
}
