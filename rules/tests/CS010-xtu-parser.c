/*
 * CS010 across TUs, the calling side: the bodies are in
 * CS010-xtu-lexer.c.  An escape into a body of another TU is not a
 * CS010 note here but a finding there, where the value is observed.
 */
#define EOF (-1)

extern int xtu_next_char(const char **str);
extern int xtu_is_eof(int v);
extern int xtu_below_space(int v);
extern int xtu_is_digit(int v);
extern void xtu_nowhere(int v);

int xtu_count_lines(const char *s)
{
	int n = 0, c;

	while ((c = xtu_next_char(&s)) != EOF)	/* expect: CS001 unsigned {{returned by xtu_next_char()}} */
		n += c == '\n';
	return n;
}

int xtu_reader(const char *s)
{
	return xtu_is_eof(s[0]);		/* ok: CS010 (judged in the body) */
}

int xtu_control(const char *s)
{
	return xtu_below_space(*s);		/* ok: CS010 (judged in the body) */
}

int xtu_digits(const char *s)
{
	return xtu_is_digit(s[1]);		/* ok: CS010 (harmless in the body) */
}

/* No body in any TU: the escape is all there is to say. */
void xtu_passes_on(const char *s)
{
	xtu_nowhere(s[0]);			/* expect: CS010 {{passed to xtu_nowhere()}} */
}

/* A static function of the other file is not this one's callee. */
static int xtu_private(int v)
{
	return v > 0;				/* expect: CS003 {{passed by xtu_local()}} */
}

int xtu_local(const char *s)
{
	return xtu_private(s[0]);		/* ok: CS010 (followed into it) */
}

/* A value computed from a char (a log level digit) passed on: judged
 * where the other file's body tests it. */
extern int xtu_level_valid(int level);
extern int xtu_level_is(int level);

int xtu_emit(const char *kern_level)
{
	int r = xtu_level_valid(kern_level[1] - '0');	/* ok: CS010 {{followed into the callee}} */

	return r + xtu_level_is(kern_level[1] - '0');	/* ok: CS010 {{followed into the callee}} */
}
