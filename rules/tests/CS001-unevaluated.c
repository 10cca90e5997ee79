/*
 * Nothing in an unevaluated operand runs, so nothing in it is a value:
 * the operand of sizeof and _Alignof, what _Generic selects on, and the
 * expressions inside a type (typeof in a declaration, a cast or a
 * compound literal).  The kernel's macros are full of them: READ_ONCE()
 * casts to a typeof of its argument, put_user() declares its temporary
 * with one, __same_type() compares two.
 */
long sizes(char c)
{
	return sizeof(c == -1) + sizeof(c >> 4);	/* ok: CS001 CS006 */
}

int typeof_declaration(char c)
{
	__typeof__(c == -1) r = 0;	/* ok: CS001 */
	__typeof__((int)c) v;		/* ok: CS010 */

	v = 3;
	return r + (v << 2);		/* ok: CS006 */
}

long typeof_cast(char c, long x)
{
	return (__typeof__(c == -1))x;	/* ok: CS001 */
}

int generic(char c)
{
	return _Generic(c == -1, int: 1, default: 0);	/* ok: CS001 */
}

/* The initializer beside a typeof is evaluated: d is a char holding c. */
int initializer(char c)
{
	__typeof__(c) d = c;

	return d == -1;			/* expect: CS001 unsigned {{always false}} */
}

/* So is the operand of a cast to a typeof. */
int cast_operand(char c)
{
	return (__typeof__(0))c == -1;	/* expect: CS001 unsigned */
}
