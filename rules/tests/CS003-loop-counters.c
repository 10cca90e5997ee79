/*
 * A char loop counter that its own for-loop keeps in 0..127 holds the
 * same value either way: `for (i = 0; i < 10; i++)` tests each value
 * before the body sees it, and the last one (10) is ASCII too.  The
 * step must be the for's own and nothing else in the loop may write
 * the counter.  A bound that is not a constant, a count down past
 * zero (never ending when char is unsigned) or a limit near 127 are
 * judged as before.
 */
int a[200];

void clear_ten(void)
{
	char i;

	for (i = 0; i < 10; i++)	/* ok: CS003 */
		a[i] = 0;		/* ok: CS005 */
}

void clear_odd(void)
{
	char i;

	for (i = 1; 20 > i; i += 2)	/* ok: CS003 */
		a[i] = 0;		/* ok: CS005 */
}

void count_down(void)
{
	char i;

	for (i = 'z'; i > 'a'; i--)	/* ok: CS003 */
		a[i] = 0;		/* ok: CS005 */
}

/* Down to -1: with unsigned char the test is always true. */
void count_down_zero(void)
{
	char i;

	for (i = 9; i >= 0; i--)	/* expect: CS002 */
		a[i] = 0;		/* expect: CS005 */
}

/* 127 + 1 is 128: not ASCII. */
void up_to_limit(void)
{
	char i;

	for (i = 0; i <= 127; i++)	/* expect: CS001 */
		a[i] = 0;		/* expect: CS005 */
}

int bound_by_variable(int n)
{
	char i;
	int t = 0;

	for (i = 0; i < n; i++)		/* expect: CS003 */
		t += a[i & 15];
	return t;
}

/* The body writes the counter too: not only the for's step. */
void skipping(void)
{
	char i;

	for (i = 0; i < 10; i++) {	/* expect: CS003 */
		a[i] = 0;		/* expect: CS005 */
		if (a[i + 1])
			i = 120;
	}
}

/* A step outside the for: not bounded by its test. */
void while_loop(void)
{
	char i = 0;

	while (i < 10)			/* expect: CS003 */
		a[i++] = 0;
}

/* An unsigned limit that eval reads as -1, and an unsigned count down. */
void up_to_ulong_max(void)
{
	unsigned long i;

	for (i = 0; i <= ~0UL; i++) {
		char c = i;

		if (c > 'z')		/* expect: CS003 */
			return;
	}
}

void unsigned_down(void)
{
	unsigned long i;

	for (i = 5; i >= 0; i--) {
		char c = i + 2;

		if (c > 'z')		/* expect: CS003 */
			return;
	}
}

/* No test at all: `i < 10` is the init, and the step is unbounded. */
int init_not_test(int n)
{
	char i = 0, c;

	for (i < 10; ; i++) {	/* expect: CS003 */
		c = i;
		if (c < 0 || n == 200)	/* expect: CS002 */
			return i;	/* expect: CS010 */
	}
}

/* A goto or a case into the body skips the test. */
int goto_into(int n)
{
	char i = 127;

	if (n)
		goto in;
	for (i = 0; i < 10; i++) {	/* expect: CS003 */
in:
		a[n & 15] = 1;
	}
	return i > 'z';			/* expect: CS003 */
}

int duff(int n)
{
	char i = 127;

	switch (n) {
	case 0:
		for (i = 0; i < 10; i++) {	/* expect: CS003 */
	case 1:
			a[n & 15] = 1;
		}
	}
	return i > 'z';			/* expect: CS003 */
}
