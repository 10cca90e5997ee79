/*
 * How sure a finding is that a byte 0x80-0xff reaches the use, and
 * where the bytes come from (SARIF rank, properties.confidence and
 * properties.valueOrigin; --min-confidence).  High: the code names such
 * a byte, or the value is a constant, a table entry, a user-space byte
 * or a field written such a constant.  Medium: an origin charscan
 * cannot bound.  Low: the value only leaves the function.  Each
 * finding's confidence is checked by tests/origins.py.
 */
extern unsigned long copy_from_user(void *to, const void *from, unsigned long n);
extern void *memdup_user(const void *from, unsigned long n);

static const char og_dash[] = "\xe2\x80\x94";
static const char og_plain[] = "ab";

struct og_dev {
	char mark;
	char seen;
};

unsigned og_table(int i)
{
	return og_dash[i] << 8;		/* expect: CS006 */ /* confidence: high {{table 'og_dash'}} */
}

unsigned og_constant(void)
{
	char c = '\xff';

	return c << 8;			/* expect: CS006 */ /* confidence: high {{the constant byte 0xff}} */
}

unsigned og_parameter(char c)
{
	return c << 8;			/* expect: CS006 */ /* confidence: medium {{parameter 'c'}} */
}

long og_user(const char *ubuf)
{
	char buf[4];

	if (copy_from_user(buf, ubuf, sizeof(buf)))
		return -1;
	return buf[0] << 8;		/* expect: CS006 */ /* confidence: high {{user space (copy_from_user())}} */
}

long og_user_dup(const char *ubuf)
{
	char *p = memdup_user(ubuf, 4);

	return p[1] << 8;		/* expect: CS006 */ /* confidence: high {{user space (memdup_user())}} */
}

int og_escape(const char *s)
{
	return *s;			/* expect: CS010 */ /* confidence: low {{reader is elsewhere}} */
}

int og_names_the_byte(const char *s)
{
	return *s == 0xff;		/* expect: CS001 */ /* confidence: high {{names a byte}} */
}

void og_set(struct og_dev *d, const char *buf)
{
	d->mark = 0x80;			/* ok: CS004 {{read back as a number at line 72}} */
	d->seen = buf[0];
}

unsigned og_mark(const struct og_dev *d)
{
	return d->mark << 8;		/* expect: CS006 */ /* confidence: high {{written 0x80 at CS006-origins.c:66}} */
}

unsigned og_seen(const struct og_dev *d)
{
	return d->seen << 8;		/* expect: CS006 */ /* confidence: medium {{cannot bound at CS006-origins.c:}} */
}

unsigned og_ascii_table(int i)
{
	return og_plain[i] << 8;	/* ok: CS006 */
}

/* Bytes from a stream or the environment: any byte can come. */
typedef struct og_file og_file;
extern char *fgets(char *s, int n, og_file *f);
extern char *getenv(const char *name);

unsigned og_stream(og_file *f)
{
	char line[80];

	if (!fgets(line, sizeof(line), f))
		return 0;
	return line[0] << 8;		/* expect: CS006 */ /* confidence: high {{bytes from a file or stream (fgets())}} */
}

unsigned og_environment(void)
{
	const char *v = getenv("OG");

	return v ? v[0] << 8 : 0;	/* expect: CS006 */ /* confidence: high {{bytes from the environment (getenv())}} */
}

/* A walked pointer parameter: its callers' bytes (early_printk.c). */
unsigned og_walked(const char *str)
{
	unsigned sum = 0;
	char c;

	while ((c = *str++) != '\0')
		sum += c << 1;		/* expect: CS006 */ /* confidence: medium {{the bytes parameter 'str' points at}} */
	return sum;
}

/* mpparse.c's checksum byte: stored, its reads out of sight.  The store
 * is not a read of the field: its origin is its own constant. */
struct og_chk {
	char checksum;
};

void og_chk_set(struct og_chk *t)
{
	t->checksum = 0xff;		/* expect: CS004 */ /* confidence: medium {{a constant outside 0..127 is stored; no read}} */
}
