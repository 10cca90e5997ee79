/*
 * A local written a char and other values is no carrier, but a read
 * that only the char's write can reach holds the char: the write is an
 * earlier statement of the read's block (or of a block around it,
 * inside the same loop body), with no other write, label or case in
 * between.  Where another write may reach the read, it is not followed.
 */
extern int getchar(void);
extern void use(int);
extern void set(int *);

/* arch/x86/boot/video.c: key is getchar()'s, then a char's. */
unsigned mode_number(const char *entry_buf, int len)
{
	int key, i;
	unsigned v = 0;

	key = getchar();
	use(key);
	for (i = 0; i < len; i++) {
		v <<= 4;
		key = entry_buf[i] | 0x20;
		v += (key > '9') ? key - 'a' + 10 : key - '0';	/* expect: CS003 {{computed from plain char 'entry_buf[i]'}} */
	}
	return v;
}

int reused(const char *s, int x)
{
	int v = x * 2;

	use(v);
	v = s[1];
	if (x)
		return v == -1;			/* expect: CS001 unsigned {{assigned from plain char 's[1]'}} */
	return 0;
}

/* A loop that does not write it: the write before the loop reaches in. */
int before_loop(const char *s, int n, int x)
{
	int v = x, r = 0;

	use(v);
	v = s[0];
	while (n--)
		r += v == -1;			/* expect: CS001 unsigned */
	return r;
}

/* Either write may reach the test. */
int joined(const char *s, int x, int y)
{
	int v = s[0];

	if (x)
		v = y * 3;
	return v == -1;				/* ok: CS001 */
}

/* Entered from the switch: case 2 never ran case 1's write. */
int cases(const char *s, int x)
{
	int v = x;

	switch (x) {
	case 1:
		v = s[0];
		break;
	case 2:
		return v == -1;			/* ok: CS001 */
	}
	return v;
}

/* The end of the loop body comes back to its start. */
int loop_back(const char *s, int n)
{
	int v = n, r = 0;

	while (n--) {
		r += v == -1;			/* ok: CS001 */
		v = *s++;
	}
	return r;
}

/* Written through a pointer somewhere: out of sight. */
int address_taken(const char *s)
{
	int v = 0;

	set(&v);
	v = s[0];
	return v == -1;				/* ok: CS001 */
}
