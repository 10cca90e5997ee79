/*
 * CS010 across TUs, the side with the bodies: CS010-xtu-parser.c calls
 * these with plain chars.  A char passed in is followed into the body
 * here and judged where it is observed; a char returned from here is
 * followed in the callers there.
 */
#define EOF (-1)

/* CERT STR34-C's lexer, its caller in the other file. */
int xtu_next_char(const char **str)
{
	int c = EOF;

	if (**str)
		c = *(*str)++;
	return c;				/* expect: CS010 {{is returned as 'int'}} */
}

int xtu_is_eof(int v)
{
	return v == EOF;			/* expect: CS001 unsigned {{passed by xtu_reader()}} */
}

int xtu_below_space(int v)
{
	return v < ' ';				/* expect: CS003 {{passed by xtu_control()}} */
}

/* A closed ASCII range is the same for every byte. */
int xtu_is_digit(int v)
{
	return v >= '0' && v <= '9';		/* ok: CS003 */
}

/* Nobody passes a char here: nothing to follow. */
int xtu_is_negative(int v)
{
	return v < 0;				/* ok: CS002 */
}

static int xtu_private(int v)
{
	return v == -1;				/* ok: CS001 (static: not the other file's) */
}

int xtu_uses_private(int v)
{
	return xtu_private(v);
}

/* Given kern_level[1] - '0' by xtu_emit() in the other file: bytes
 * 0x80-0xff give -176..-49 when char is signed, 80..207 when unsigned. */
int xtu_level_valid(int level)
{
	return level >= 0;			/* expect: CS003 {{computed from a plain char by xtu_emit()}} */
}

int xtu_level_is(int level)
{
	return level == 4;			/* ok: CS001 */
}
