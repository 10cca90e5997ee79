/*
 * A guard is a condition taken either way: the right operand of || runs
 * only when the left is false, an else branch only when the test is
 * false.  lib/vsprintf.c's vsscanf():
 *
 *	(base == 8 && (!isdigit(digit) || digit > '7'))
 *
 * with the kernel's isdigit(), an inline range test under clang
 * (include/linux/ctype.h).
 */
static inline int isdigit(int c)
{
	return '0' <= c && c <= '9';
}

#define isascii(c) (((unsigned char)(c)) <= 0x7f)

int octal_digit(const char *str, int base)
{
	char digit = *str;

	if (!digit || (base == 8 && (!isdigit(digit) || digit > '7')))	/* ok: CS003 {{only bytes 0x00-0x7f get here}} */
		return 0;
	return 1;
}

/* Taken the wrong way, the same test guards nothing: a byte that is not
 * a digit reaches the comparison. */
int not_octal(const char *str)
{
	char digit = *str;

	return isdigit(digit) || digit > '7';	/* expect: CS003 */
}

int upper_half(char c)
{
	if (!isascii(c))
		return -1;
	else
		return c > 'M';			/* ok: CS003 */
}

/* The else of an ASCII test is where the high bytes go. */
int upper_half_wrong(char c)
{
	if (isascii(c))
		return -1;
	else
		return c > 'M';			/* expect: CS003 */
}

int pick(char c)
{
	return !isdigit(c) ? 0 : c > '5';	/* ok: CS003 */
}

int pick_wrong(char c)
{
	return isdigit(c) ? 0 : c > '5';	/* expect: CS003 */
}

/* A static function every call of which passes a char read behind an
 * ASCII-only guard holds ASCII in its parameter. */
static int above_five(char d)
{
	return d > '5';				/* ok: CS003 */
}

int count_high_digits(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (isdigit(*s))
			n += above_five(*s);
	return n;
}

/* One call without the guard: every byte reaches. */
static int above_six(char d)
{
	return d > '6';				/* expect: CS003 */
}

int count_any(const char *s)
{
	int n = 0;

	for (; *s; s++) {
		if (isdigit(*s))
			n += above_six(*s);
		n += above_six(s[1]);
	}
	return n;
}
