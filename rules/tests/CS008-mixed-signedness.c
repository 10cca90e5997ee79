/*
 * CS008 char-mixed-signedness: plain char compared with an explicitly
 * signed or unsigned char.
 */
typedef unsigned char u8;
typedef signed char s8;

int mixed(char c, u8 b, s8 s, const char *p, const u8 *q)
{
	int r = 0;

	r += c == b;			/* expect: CS008 */
	r += c != s;			/* expect: CS008 */
	r += *p == *q;			/* expect: CS008 */
	r += b < c;			/* expect: CS008 */
	r += (u8)c == b;		/* ok: CS008 */
	r += b == s;			/* ok: CS008 */
	r += *p == p[1];		/* ok: CS008 */
	return r;
}

/*
 * Macros that copy their operands into temporaries first (KUnit's
 * KUNIT_EXPECT_EQ, min/max): the finding quotes the operands as written
 * at the use, and the fix goes to the declaration the temporary's
 * typeof() copies, not to the temporary.
 */
#define EXPECT_EQ(l, r) do {						\
	const typeof(l) __left = (l);					\
	const typeof(r) __right = (r);					\
	if (!(__left == __right))					\
		failed();						\
} while (0)

void failed(void);
struct wrap { char output[4]; };

void expect(struct wrap *w, const s8 *input, const char *same)
{
	EXPECT_EQ(w->output[0], input[0]);	/* expect: CS008 unsigned {{plain char 'w->output[0]' compared with signed char 'input[0]'}} */
	EXPECT_EQ(w->output[1], same[1]);	/* ok: CS008 */
}

/* The explicitly signed or unsigned side holds ASCII constants only:
 * equality is the same either way, an ordering is not. */
int compare_with_ascii_local(char c, int upper)
{
	unsigned char want = upper ? 'A' : 'a';
	int r = 0;

	r += c == want;				/* ok: CS008 */
	r += c < want;				/* expect: CS008 */
	return r;
}

/* An unsigned char constant is a constant: judged as one (ACPICA's
 * ACPI_IS_ROOT_PREFIX(c) is ((c) == (u8) 0x5C)). */
#define IS_ROOT_PREFIX(c)	((c) == (u8) 0x5C)

int root_prefix(const char *path)
{
	return IS_ROOT_PREFIX(*path);		/* ok: CS001 CS003 CS008 */
}

int high_constant(char c)
{
	return c == (u8) 0xff;			/* expect: CS001 signed */
}

/* A temporary initialized from itself (nonsense, but C): followed a
 * bounded number of steps, not forever. */
#define SELF_COMPARE(v) ({ const typeof(v) __s = __s; __s == (u8)(v); })

int self_compare(char c)
{
	return SELF_COMPARE(c);			/* expect: CS008 */
}

/*
 * A u8 that holds a char read behind an ASCII-only guard holds 0..127:
 * lib/vsprintf.c's vsscanf() qualifier, compared with the next byte of
 * the format.
 */
static inline char lower(const char c) { return c | 0x20; }

int repeated_qualifier(const char *fmt)
{
	u8 qualifier = -1;

	if (*fmt == 'h' || lower(*fmt) == 'l' || *fmt == 'z') {
		qualifier = *fmt++;
		if (qualifier == *fmt)		/* ok: CS008 {{holds bytes 0x00-0x7f only}} */
			return 2;
	}
	return qualifier == *fmt;		/* expect: CS008 */
}

/* The guard lets every byte 0x80-0xff through. */
int any_qualifier(const char *fmt)
{
	u8 q = 0;

	if (*fmt != 'h') {
		q = *fmt++;
		if (q == *fmt)			/* expect: CS008 */
			return 2;
	}
	return 0;
}

/* A helper that folds the high bytes onto ASCII lets them through. */
static inline int low7(int c) { return c & 0x7f; }

int folded_qualifier(const char *fmt)
{
	u8 q = 0;

	if (low7(*fmt) == 'h') {
		q = *fmt++;
		if (q == *fmt)			/* expect: CS008 */
			return 2;
	}
	return 0;
}
