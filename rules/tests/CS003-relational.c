/*
 * CS003 char-relational: a relational test that is true for bytes
 * 0x80-0xff under one signedness and false under the other.  Closed
 * ranges are judged as a whole and stay silent.
 */
#define is_ctrl(c) ((c) < ' ')

int classify(char c, const char *a, const char *b)
{
	int r = 0;

	r += c < ' ';				/* expect: CS003 */
	r += c <= 0x7e;				/* expect: CS003 */
	r += is_ctrl(c);			/* expect: CS003 */
	r += *a < *b;				/* expect: CS003 */
	r += c >= 'a' && c <= 'z';		/* ok: CS003 */
	r += c >= '0' && c <= '9';		/* ok: CS003 */
	r += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');	/* ok: CS003 */
	r += (unsigned char)c < ' ';		/* ok: CS003 */
	r += *a == *b;				/* ok: CS003 */
	r += c - '0' < 10;			/* expect: CS003 */
	return r;
}

/* Printable ASCII is a closed range too. */
int printable(char c)
{
	return c >= ' ' && c < 127;		/* ok: CS003 */
}

/*
 * Asking the compiler which signedness char has is not assuming one:
 * constants compared with constants are decided at compile time
 * (is_signed_type(char) in every TRACE_EVENT char field).
 */
#define is_signed_type(type) (((type)(-1)) < (type)1)

struct field_desc { const char *name; int is_signed; };

static const struct field_desc fields[] = {
	{ "flag", is_signed_type(char) },	/* ok: CS003 {{decided at compile time}} CS004 */
};

int char_is_signed(void)
{
	return fields[0].is_signed + ((char)-1 < 0);	/* ok: CS001 CS002 CS003 CS004 */
}

int runtime_value_still_judged(const char *p)
{
	return *p < (char)1;			/* expect: CS003 */
}

/* A range test no byte can fail or pass differently: 'c > 255' is
 * false for every byte under either signedness. */
int above_a_byte(char c)
{
	return c > 255;				/* ok: CS003 */
}

/*
 * A value computed from a char and kept in a variable is judged where
 * the variable is compared: 'v >= 26' lets bytes 0x80-0xff through as
 * negative indexes when char is signed.  A digit test on an unsigned
 * difference, a closed range, or a variable also given other values is
 * no finding.
 */
int letter_index(const char *s)
{
	int v = *s - 'a';

	if (v >= 26)				/* expect: CS003 either {{'v' (computed from plain char '*s')}} */
		return -1;
	return v;
}

int digit_value(const char *name)
{
	unsigned int c = *name - '0';

	if (c > 9)				/* ok: CS003 */
		return -1;
	return c;
}

int is_digit_char(char ch)
{
	int d = ch - '0';

	return !(d < 0 || d > 9);		/* ok: CS003 */
}

int reassigned(char ch, int k)
{
	int d = ch - '0';

	if (k)
		d = k;
	return d > 9;				/* ok: CS003 */
}

/*
 * min()/max() as the kernel writes them: the operands are copied into
 * temporaries, so the bound is a variable holding a constant.  A plain
 * char clamped at 0 keeps its high bytes only when char is unsigned.
 */
#define __cmp(x, y, op)	((x) op (y) ? (x) : (y))
#define __cmp_once(x, y, ux, uy, op) \
	({ typeof(x) ux = (x); typeof(y) uy = (y); __cmp(ux, uy, op); })
#define max(x, y)	__cmp_once(x, y, __ux, __uy, >)

int clamp_power(char txpower)
{
	return max(txpower, 0);			/* expect: CS003 {{'max(txpower, 0)' on plain char 'txpower'}} */
}

int clamp_unsigned(unsigned char level)
{
	return max(level, 0);			/* ok: CS003 */
}

int bound_changes(char c, int k)
{
	int bound = 0;

	if (k)
		bound = k;
	return c > bound;			/* expect: CS003 {{compares plain char 'c' with 'bound'}} */
}

/* Against a wider value that is no constant: whatever it holds, bytes
 * 0x80-0xff count as negative under one signedness only (bunzip2's
 * get_bits took its bit count as a char). */
struct bit_reader { unsigned int have; int budget; };

unsigned int take_bits(struct bit_reader *br, char wanted)
{
	unsigned int n = 0;

	while (br->have < wanted)		/* expect: CS003 {{byte 0x80 counts as 0xffffff80 when char is signed, 128}} */
		n++;
	if (br->budget >= wanted)		/* expect: CS003 {{compares plain char 'wanted' with 'br->budget'}} */
		n--;
	if (br->budget == wanted)		/* ok: CS003 equal only if budget holds such a number */
		n--;
	return n;
}

int within(char c, int lo, int hi)
{
	if (c >= '0' && c <= '9')
		return lo < c && c < hi;	/* ok: CS003 only digits get here */
	return (c & 0x7f) > lo;			/* ok: CS003 masked to 0..127 */
}

int two_chars(char c, char d)
{
	return c < d + 1;			/* expect: CS003 {{'c < d + 1'}} */
}
