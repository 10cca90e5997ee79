/*
 * A buffer filled through local pointers (drivers/tty/vt/selection.c):
 * kmalloc()ed, kept in a field of the file's own struct, filled with
 * UTF-8 bytes by a static helper through `bp`, measured with `bp -
 * buffer`, and pasted as unsigned bytes.  A pointer moved, compared,
 * subtracted or copied into another such pointer reads nothing; only a
 * dereference reads a byte.
 */
void *kmalloc_array(unsigned long n, unsigned long size, int flags);
void kfree(const void *p);
int receive_buf(const unsigned char *p, int n);

static struct selection {
	char *buffer;
	int buf_len;
} sel;

static int store_utf8(unsigned int c, char *p)
{
	if (c < 0x80) {
		p[0] = c;
		return 1;
	}
	p[0] = 0xef;				/* ok: CS004 */
	p[1] = 0xbf;				/* ok: CS004 */
	p[2] = 0xbd;				/* ok: CS004 */
	return 3;
}

int store_chars(const unsigned int *text, int n)
{
	char *bp, *obp;

	bp = kmalloc_array(n, 4, 0);
	if (!bp)
		return -1;
	kfree(sel.buffer);
	sel.buffer = bp;
	obp = bp;
	for (int i = 0; i < n; i++) {
		if (!text[i]) {
			bp++;
			continue;
		}
		bp += store_utf8(text[i], bp);
		if (text[i] != ' ')
			obp = bp;
		if (i % 80 == 79) {
			if (obp != bp) {
				bp = obp;
				*bp++ = '\r';
			}
			obp = bp;
		}
	}
	sel.buf_len = bp - sel.buffer;
	return 0;
}

int paste(void)
{
	return receive_buf((const unsigned char *)sel.buffer, sel.buf_len);
}

/* The same, but one reader tests a byte of the buffer as a number. */
static struct other_selection {
	char *buffer;
} other;

static void mark(char *p)
{
	p[0] = 0xfe;				/* expect: CS004 */
}

void fill_other(int n)
{
	char *bp = kmalloc_array(n, 1, 0);

	other.buffer = bp;
	mark(bp);
}

int other_negative(void)
{
	return other.buffer[0] < 0;		/* expect: CS002 */
}

/* A pointer into memory this function did not allocate: its other
 * readers are not seen. */
static void mark_there(char *p)
{
	p[0] = 0xfd;				/* expect: CS004 */
}

void fill_given(char *given, unsigned char *out)
{
	char *bp = given;

	mark_there(bp);
	out[0] = bp[0];
}

/* Through another local pointer into the same memory: still not this
 * function's own. */
static void mark_alias(char *p)
{
	p[0] = 0xfc;				/* expect: CS004 */
}

void fill_given_alias(char *given, unsigned char *out)
{
	char *q = given, *bp = q;

	mark_alias(bp);
	out[0] = bp[0];
}

/* crypto/md5.c's padding: a char pointer into memory declared as u32
 * words, which the transform reads as words (the same bits either way).
 * Memory declared as plain char, or as void, may be read as char
 * elsewhere: kept.  A byte of the words read back through the char
 * pointer as a number is reported there. */
typedef unsigned int u32;
void transform(u32 *hash, const u32 *block);
void *memset(void *s, int c, unsigned long n);

struct md5_state {
	u32 hash[4];
	u32 block[16];
	char text[64];
	void *extra;
	unsigned long long byte_count;
};

void md5_final(struct md5_state *mctx)
{
	const unsigned int offset = mctx->byte_count & 0x3f;
	char *p = (char *)mctx->block + offset;

	*p++ = 0x80;				/* ok: CS004 */
	memset(p, 0, 56 - offset);
	transform(mctx->hash, mctx->block);
}

void md5_text(struct md5_state *mctx)
{
	char *p = (char *)mctx->text + 1;

	*p = 0x80;				/* expect: CS004 */
}

void md5_extra(struct md5_state *mctx)
{
	char *p = (char *)mctx->extra;

	*p = 0x80;				/* expect: CS004 */
}

int md5_peek(struct md5_state *mctx)
{
	char *p = (char *)mctx->hash;

	p[0] = 0x80;				/* expect: CS004 */
	return p[0] < 0;			/* expect: CS002 */
}
