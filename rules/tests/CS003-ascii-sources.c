/*
 * A char read from a table of ASCII constants holds bytes 0x00-0x7f
 * only: whatever observes it is the same either way.  The shape of
 * drivers/tty/tty_io.c's pty_line_name(): the table's byte is an
 * argument on the third line of a call, and --explain says so there,
 * where the compiler widens it, not where the call starts.
 */
int sprintf(char *buf, const char *fmt, ...);

static const char ptychar[] = "pqrstuvwxyzabcde";
static const char signs[] = { '+', '-', 0xff };	/* expect: CS004 */

void pty_line_name(char *p, int index, int slave, const char *name)
{
	sprintf(p, "%s%c%x",
		slave ? "tty" : name,
		ptychar[index >> 4 & 0xf],	/* ok: CS003 {{ASCII constants}} */
		index & 0xf);
}

/* One byte of the table is not ASCII: the comparison is judged. */
int sign_of(int k)
{
	return signs[k & 1] < 0;	/* expect: CS002 */
}

/*
 * A macro's temporary that holds a read of an ASCII table holds ASCII
 * too: lib/memcpy_kunit.c's KUNIT_EXPECT_EQ(test, wrap.output[0],
 * input[0]) with input "hi" in a larger array (the rest is zeros).  A
 * literal with a NUL inside may hide bytes from strlen(): not ASCII.
 */
struct wrap {
	unsigned char output[8];
};

#define EXPECT_EQ(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a == __b; })

int expect_copied(struct wrap *w)
{
	static const char input[sizeof(unsigned long)] = "hi";
	static const char hidden[4] = "h\0\xff";

	return EXPECT_EQ(w->output[0], input[0]) +	/* ok: CS008 CS003 {{ASCII constants}} */
	       EXPECT_EQ(w->output[2], hidden[2]);	/* expect: CS008 */
}

/* A char local written only values masked to 0..127 holds ASCII: the
 * shape of xas_reload()'s offset = (index >> shift) & XA_CHUNK_MASK. */
unsigned int masked_slot(unsigned long index, unsigned int shift, const unsigned int *slots)
{
	char offset = (index >> shift) & 0x3f;

	return slots[offset];		/* ok: CS005 CS003 {{masked to them}} */
}

/* Masked to 0..255 is any byte. */
unsigned int byte_slot(unsigned long index, const unsigned int *slots)
{
	char offset = index & 0xff;

	return slots[offset];		/* expect: CS005 */
}

/*
 * A char given the result of a function of this file whose every
 * return is in 0..127, two calls down (lib/maple_tree.c: char
 * empty_count = mas_mt_height(mas), a height masked to 0..31).
 */
struct tree_root { unsigned int flags; };

static inline unsigned int root_height(const struct tree_root *mt)
{
	return (mt->flags & 0x7C) >> 0x02;
}

static unsigned int state_height(const struct tree_root *mt)
{
	return root_height(mt);
}

static unsigned int raw_flags(const struct tree_root *mt)
{
	return mt->flags >> 2;
}

int needs_nodes(const struct tree_root *mt, unsigned long have)
{
	char empty = state_height(mt);
	char other = raw_flags(mt);

	return (have < 1 + empty * 3) +		/* ok: CS003 0..31 */
	       (have < 1 + other * 3);		/* expect: CS003 {{compares plain char 'other' with 'have'}} */
}
