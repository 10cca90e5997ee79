/*
 * A value that only ASCII bytes can reach is the same under either
 * signedness: guards (isdigit, isxdigit, isascii, closed ranges, early
 * exits) silence every rule behind them, and only behind them.
 */
static inline int isdigit(int c) { return '0' <= c && c <= '9'; }
static inline int isalpha(int c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

unsigned hash_digits(const char *s)
{
	unsigned h = 0;

	while (isdigit(*s))
		h = h * 31 + *s++;		/* ok: CS006 */
	return h;
}

unsigned nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c << 4;			/* ok: CS006 */
	return c << 4;				/* expect: CS006 signed {{sign-extended}} */
}

int lookup(const int *table, char c)
{
	if (c < '0' || c > '9')
		return -1;
	return table[c];			/* ok: CS005 */
}

int shifted_if_digit(char c, char d)
{
	int r = 0;

	if (isdigit(d))
		r += c << 4;			/* expect: CS006 */
	if (isdigit(c))
		r += 1;
	else
		r += c << 4;			/* expect: CS006 */
	return r + (isdigit(c) && (c << 4) > 0x300);	/* ok: CS006 */
}

/* The kernel's isalpha() admits Latin-1 letters: no guard. */
unsigned letter(char c)
{
	return isalpha(c) ? c << 8 : 0;		/* expect: CS006 */
}

/* Sources that hold ASCII only: a const table written out in ASCII, a
 * local assigned ASCII constants.  Any other byte anywhere, a table that
 * can be written, or a local written otherwise, and they are values. */
static const char hex_digits[] = "0123456789abcdef";
static const char with_latin1[] = "abc\xe9";
static char writable[] = "abc";
static const char listed[] = { 'x', 'y', 'z' };
static const char listed_high[] = { 'x', 'y', 0x7f + 1 };	/* expect: CS004 */

unsigned ascii_tables(int i)
{
	unsigned r = hex_digits[i] << 4;	/* ok: CS006 */

	r += listed[i] << 8;			/* ok: CS006 */
	r += with_latin1[i] << 4;		/* expect: CS006 */
	r += writable[i] << 4;			/* expect: CS006 */
	return r + (listed_high[i] << 4);	/* expect: CS006 */
}

unsigned ascii_locals(int x)
{
	char sep = ',', pad = x ? ' ' : '0', odd = 'a';
	char *p = &odd;

	*p = (char)x;
	return (sep << 8) | (pad << 4) |	/* ok: CS006 */
	       (odd << 12);			/* expect: CS006 */
}

/* The boot code's and vsprintf's skip_atoi: the read *((*s)++) is the
 * value isdigit(**s) tested. */
int skip_atoi(const char **s)
{
	int i = 0;

	while (isdigit(**s))
		i = i * 10 + *((*s)++) - '0';	/* ok: CS006 */
	return i;
}

/* The byte tested is not the byte used: the pointer steps in between
 * (vsprintf's "qualifier = *fmt++; ... *fmt"). */
unsigned after_step(const char *s)
{
	if (isdigit(*s)) {
		s++;
		return *s << 8;			/* expect: CS006 */
	}
	return 0;
}

/* A guard outside a loop tests the first byte only when the loop steps
 * the pointer: the second time round, the use reads a byte nothing
 * tested.  A do-while that tests again before each next round, or a
 * loop that does not step, keeps the guard. */
int digits_then_any(const char *p, int k)
{
	int n = 0;

	if (isdigit(*p))
		while (k--)
			n = n * 10 + *p++ - '0';	/* expect: CS006 */
	return n;
}

int digits_step_after_use(const char *p, int k)
{
	int n = 0;

	if (isdigit(*p))
		do {
			n = n * 10 + *p - '0';		/* expect: CS006 */
			p++;
		} while (--k);
	return n;
}

int digits_retested(const char *p)
{
	int n = 0;

	if (isdigit(*p))
		do {
			n = n * 10 + *p++ - '0';	/* ok: CS006 */
		} while (isdigit(*p));
	return n;
}

int digit_repeated(const char *p, int k)
{
	int n = 0;

	if (isdigit(*p))
		for (; k > 0; k--)
			n = n * 10 + *p - '0';		/* ok: CS006 */
	return n;
}

/* An early exit at the end of the body tests again before the next
 * round, after the step or in it; a step whose block leaves the loop
 * reaches no next round.  A continue before the exit skips it. */
int digits_retested_at_end(const char *p)
{
	int n = 0;

	if (!isdigit(*p))
		return 0;
	for (;;) {
		n = n * 10 + *p - '0';		/* ok: CS006 */
		p++;
		if (!isdigit(*p))
			break;
	}
	return n;
}

int digits_retested_stepping(const char *p)
{
	int n = 0;

	if (isdigit(*p))
		while (1) {
			n = n * 10 + *p - '0';	/* ok: CS006 */
			if (!isdigit(*++p))
				break;
		}
	return n;
}

int digits_step_then_leave(const char *p, int k)
{
	int n = 0;

	if (isdigit(*p))
		for (; k > 0; k--) {
			n = n * 10 + *p - '0';	/* ok: CS006 */
			if (n > 1000) {
				p++;
				return n;
			}
		}
	return n;
}

int digits_retest_skipped(const char *p, int k)
{
	int n = 0;

	if (isdigit(*p))
		for (;;) {
			n = n * 10 + *p - '0';	/* expect: CS006 */
			p++;
			if (k-- > 0)
				continue;
			if (!isdigit(*p))
				break;
		}
	return n;
}

int digits_each_round(const char *p, int k)
{
	int n = 0;

	for (; k > 0; k--, p++) {
		if (!isdigit(*p))
			break;
		n = n * 10 + *p - '0';			/* ok: CS006 */
	}
	return n;
}

unsigned index_moved(const char *buf, int i)
{
	if (!isdigit(buf[i]))
		return 0;
	i += 1;
	return buf[i] << 8;			/* expect: CS006 */
}

/* A case whose labels are all ASCII, with nothing falling into it, is
 * reached by ASCII bytes only (kernel/reboot.c's reboot= parser). */
unsigned int mode;

void parse_mode(const char *str)
{
	switch (*str) {
	case 'w':
		mode = 1;
		break;
	case 's':				/* another case steps str: */
		str += str[1] == 'm' ? 3 : 1;	/* not on the way to 'b' */
		break;
	case 'b': case 'a':
		mode = *str;			/* ok: CS006 */
		break;
	case 'x':
		mode = 2;
		/* fall through */
	case 'y':
		mode = *str;			/* expect: CS006 */
		break;
	default:
		mode = *str;			/* expect: CS006 */
	}
}

/* A char parameter of a function only this file calls, given an ASCII
 * constant by every call (bunzip2's get_bits(bd, 8)): ASCII only. */
struct bits { unsigned int count; };

static unsigned int get_bits(struct bits *bd, char wanted)
{
	bd->count -= wanted;			/* ok: CS006 */
	return 1u << wanted;
}

unsigned int read_header(struct bits *bd)
{
	return get_bits(bd, 8) + get_bits(bd, 24);
}

static unsigned int scaled(char k)
{
	return k << 4;				/* expect: CS006 */
}

unsigned int scale_all(char c)
{
	return scaled(2) + scaled(c);
}

static unsigned int hooked(char k)
{
	return k << 4;				/* expect: CS006 */
}

unsigned int (*hook)(char) = hooked;

unsigned int call_hooked(void)
{
	return hooked(2);
}

/* ... unless the body writes the parameter. */
extern char next_byte(void);

static unsigned int reread(char k)
{
	if (!k)
		k = next_byte();
	return k << 4;				/* expect: CS006 */
}

unsigned int reread_all(void)
{
	return reread(0) + reread(1);
}

/*
 * A plain char local given any byte on one path but a value masked to
 * 0..63 on another: a read only the masked write reaches holds 0..63
 * (include/linux/xarray.h's xas_reload).
 */
struct cursor { unsigned long index; unsigned char offset; };
extern void *slot_at(unsigned int offset);
extern unsigned long sibling_of(void *entry);

void *reload(struct cursor *cur, int shift, int multi)
{
	void *entry;
	char offset;

	if (multi) {
		offset = (cur->index >> shift) & 63;
		entry = slot_at(offset);		/* ok: CS006 only 0..63 reaches here */
		if (entry)
			return entry;
		offset = sibling_of(entry);
		if (slot_at(offset))			/* expect: CS006 {{'offset'}} */
			return entry;
		offset = 5;
		return slot_at(offset);			/* ok: CS006 the constant reaches here */
	}
	offset = cur->offset;
	return slot_at(offset);			/* expect: CS006 {{'offset'}} */
}

/*
 * A pointer parameter every call points at a constant ASCII table or
 * literal reads ASCII only (drivers/hid/hid-sony.c's ghl_init_urb(),
 * given ghl_ps3wiiu_magic_data or ghl_ps4_magic_data).  One call with
 * another table, or with any pointer, and the reads are any byte.
 */
static const char magic_ps3[] = { 0x02, 0x08, 0x20, 0x00 };
static const char magic_ps4[] = { 0x30, 0x02, 0x08, 0x0a };
static const char magic_odd[] = { 0x30, 0x7f, 0x7e };
extern void send_value(unsigned short v);

static void send_magic(const char magic[])
{
	send_value((5 << 8) | magic[0]);		/* ok: CS006 only ASCII tables are passed */
}

static void send_other(const char *magic)
{
	send_value((5 << 8) | magic[1]);		/* expect: CS006 {{'magic[1]'}} */
}

void start_dongle(int ps4, const char *user)
{
	send_magic(ps4 ? magic_ps4 : magic_ps3);
	send_magic("ab");
	send_magic("\001" "3\t\x7f\177");	/* escapes, all below 0x80 */
	send_other(magic_odd);
	send_other(user);
}

/* A literal's escapes are decoded: one byte above 0x7f, in hex or in
 * octal, and the reads are any byte. */
static void send_hex(const char *magic)
{
	send_value((5 << 8) | magic[0]);		/* expect: CS006 {{'magic[0]'}} */
}

static void send_octal(const char *magic)
{
	send_value((5 << 8) | magic[0]);		/* expect: CS006 {{'magic[0]'}} */
}

void start_other_dongle(void)
{
	send_hex("ab" "\x80");
	send_octal("a\0\200");
}
