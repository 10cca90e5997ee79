/*
 * An expression in a macro's body is quoted as the compiler sees it
 * when the invocation says nothing of it: a long or multi-line one
 * (a DECLARE_EVENT_CLASS() of thirty lines), or one whose range the
 * expression only begins (its parentheses unbalanced).  A short one
 * on one line is quoted as written: what the reader wrote.
 */
#define DECLARE_SUM(name, a, b) \
	static int name(const char *s) \
	{ \
		int total = 0; \
		total += s[0] << 8; \
		return total + a + b; \
	}

DECLARE_SUM(mq_sum,			/* expect: CS006 {{plain char 's[0]' is sign-extended in 's[0] << 8'}} */
	    1,
	    2)

#define MQ_SHIFT(x) ((x) << 8)

int mq_use(const char *s)
{
	return mq_sum(s) + MQ_SHIFT(s[1]);	/* expect: CS006 {{'MQ_SHIFT(s[1])'}} */
}

#define MQ_LOW(x) ((x) & 0xff)

int mq_masked(const char *s)
{
	return MQ_LOW(s[2] << 8);		/* ok: CS006 */
}
