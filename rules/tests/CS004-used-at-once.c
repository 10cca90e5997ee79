/*
 * CS004 on a constant converted to plain char and used at once, not
 * stored: it is read where it stands.  Compared for equality with
 * another plain char, both sides convert alike; handed to memset() or
 * strchr(), it is converted back to a byte: the same either way.
 * Compared with an int (getchar()'s result), ordered, or passed as a
 * number, it reads back as -128..-1 or 128..255.
 */
void *memset(void *s, int c, __SIZE_TYPE__ n);
char *strchr(const char *s, int c);
int getchar(void);
void take_number(int v);

int is_ff(const char *s)
{
	return s[0] == (char)0xff;		/* ok: CS004 {{the same bytes either way}} */
}

int not_fe(char a)
{
	return (char)0xfe != a;			/* ok: CS004 */
}

void fill_high(char *b, unsigned n)
{
	memset(b, (char)0x80, n);		/* ok: CS004 {{the same bytes either way}} */
}

int has_e_acute(const char *s)
{
	return strchr(s, (char)0xe9) != 0;	/* ok: CS004 */
}

/* An int holding getchar()'s 0..255 or EOF: -1 only when signed. */
int got_ff(void)
{
	int c = getchar();

	return c == (char)0xff;			/* expect: CS004 signed */
}

/* Ordered: the char side is judged too (CS003). */
int below_high(const char *s)
{
	return s[0] < (char)0x80;		/* expect: CS004 signed CS003 */
}

/* Passed as a number to a function charscan cannot see. */
void pass_number(void)
{
	take_number((char)0x90);		/* expect: CS004 signed CS010 */
}

/* Stored, then read only as memset()'s fill byte: a byte's read. */
static char fill_byte = 0x80;			/* ok: CS004 */

void fill_with(char *b, unsigned n)
{
	memset(b, fill_byte, n);
}

/* memset()'s length is a number, not the byte it takes back. */
static char fill_len = 0x90;			/* expect: CS004 signed */

void fill_count(char *b)
{
	memset(b, 0, fill_len);			/* expect: CS006 signed */
}
