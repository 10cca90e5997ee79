/*
 * A macro that branches on its argument's type: the branch its constant
 * condition never takes is never compiled for that argument (glibc's
 * toupper() at -O2 tests sizeof (c) > 1, kernel macros sizeof(x) == 1).
 * What it does run is judged once, at the macro, and a guard around the
 * macro guards it.  An if written in the function itself keeps both
 * branches: IS_ENABLED()-style constants differ between configurations.
 */
extern const int upper_table[384];
int to_upper_slow(int c);

#define TO_UPPER(c) ({							\
	int __r;							\
	if (sizeof(c) > 1) {						\
		int __c = (c);						\
		__r = __c < -128 || __c > 255 ? __c : to_upper_slow(__c);	\
	} else								\
		__r = (upper_table + 128)[(int)(c)];			\
	__r; })

int upper(char c)
{
	return TO_UPPER(c);		/* expect: CS005 signed */
}

int upper_int(int i)
{
	return TO_UPPER(i);
}

/* The guard holds across the macro, and the store back into the byte
 * the guard tested comes after the read. */
void upper_digit(char *s)
{
	if (s[2] >= '0' && s[2] <= '9')
		s[2] = TO_UPPER(s[2]);	/* ok: CS005 CS003 {{ASCII-only guard}} */
}

#define DEBUG_BYTES 0

int debug_byte(char c)
{
	if (DEBUG_BYTES)
		return to_upper_slow(c);	/* expect: CS010 */
	return 0;
}
