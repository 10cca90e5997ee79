/*
 * A value that only ASCII bytes can reach is the same under either
 * signedness: guards (isdigit, isxdigit, isascii, closed ranges, early
 * exits) silence every rule behind them, and only behind them.
 */
static inline int isdigit(int c) { return '0' <= c && c <= '9'; }
static inline int isalpha(int c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

unsigned hash_digits(const char *s)
{
	unsigned h = 0;

	while (isdigit(*s))
		h = h * 31 + *s++;		/* ok: CS006 */
	return h;
}

unsigned nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c << 4;			/* ok: CS006 */
	return c << 4;				/* expect: CS006 signed {{sign-extended}} */
}

int lookup(const int *table, char c)
{
	if (c < '0' || c > '9')
		return -1;
	return table[c];			/* ok: CS005 */
}

int shifted_if_digit(char c, char d)
{
	int r = 0;

	if (isdigit(d))
		r += c << 4;			/* expect: CS006 */
	if (isdigit(c))
		r += 1;
	else
		r += c << 4;			/* expect: CS006 */
	return r + (isdigit(c) && (c << 4) > 0x300);	/* ok: CS006 */
}

/* The kernel's isalpha() admits Latin-1 letters: no guard. */
unsigned letter(char c)
{
	return isalpha(c) ? c << 8 : 0;		/* expect: CS006 */
}
