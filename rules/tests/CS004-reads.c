/*
 * CS004 judged at the reads: a constant outside 0..127 stored into char
 * storage only this file can see is a finding only where something reads
 * it back as a number.  Copied (memcpy), compared as bytes (memcmp),
 * printed with %s or handed to a const unsigned char * are the same
 * bytes either way: ip.h's multicast addresses, MD5's 0x80 padding.
 */
void *memcpy(void *dst, const void *src, __SIZE_TYPE__ n);
int memcmp(const void *a, const void *b, __SIZE_TYPE__ n);
int printf(const char *fmt, ...);
void md_update(void *ctx, const unsigned char *data, unsigned int len);

/* Copied by memcpy only. */
void eth_mc_map(unsigned char *mac)
{
	char buf[6] = { 0x01, 0x00, 0x5e };

	buf[3] = 0x80;			/* ok: CS004 */
	memcpy(mac, buf, sizeof(buf));
}

/* Compared with memcmp only. */
static const char magic[4] = { 0x7f, 'E', 'L', 0xc6 };	/* ok: CS004 */

int is_magic(const void *p)
{
	return !memcmp(p, magic, sizeof(magic));
}

/* Printed with %s only. */
void say_degrees(void)
{
	char deg[3] = { 0xc2, 0xb0, 0 };	/* ok: CS004 */

	printf("%s\n", deg);
}

/* Printed through %p: user space prints the address, the kernel's
 * extensions (%ph, %pM, %pE) read the bytes as u8 (lib/test_printf.c's
 * hex_string()). */
void hex_string(void)
{
	const char buf[3] = { 0xc0, 0xff, 0xee };	/* ok: CS004 */

	printf("%3ph|%3phC|%p\n", buf, buf, buf);
}

/* %d of one of the bytes reads it as a number. */
void hex_and_number(void)
{
	const char buf[3] = { 0xc0, 0xff, 0xee };	/* expect: CS004 */

	printf("%3ph %d\n", buf, buf[1]);		/* expect: CS006 */
}

/* Handed to a const unsigned char * parameter only (MD4/MD5 padding). */
void md_final(void *ctx)
{
	char padding[64] = { 0x80 };	/* ok: CS004 */

	md_update(ctx, padding, 64);
}

/* Compared with < : reads back as a number. */
int below(int v)
{
	char limit = 0xf0;		/* expect: CS004 signed */

	return v < limit;		/* expect: CS003 */
}

/* Widened into an int sum: a checksum loop. */
int checksum(void)
{
	static char hdr[4] = { 0x45, 0x80, 0x01, 0x02 };	/* expect: CS004 */
	int sum = 0;

	for (int i = 0; i < 4; i++)
		sum += hdr[i];		/* expect: CS006 */
	return sum;
}

/*
 * A checksum byte of a table the file defines, set to 0xff and summed
 * into itself (arch/x86/kernel/mpparse.c's mpc->checksum): the low byte
 * of a sum depends only on the low bytes, the same either way.
 */
struct mp_table {
	char signature[4];
	char checksum;
	unsigned short length;
};

unsigned char sum_bytes(const unsigned char *p, int n);

void seal(struct mp_table *mpc)
{
	mpc->checksum = 0xff;		/* ok: CS004 */
	mpc->checksum -= sum_bytes((unsigned char *)mpc, mpc->length);
}

/* The sum's value read on the spot is a number. */
int sealed(struct mp_table *mpc)
{
	mpc->signature[0] = 0xfe;	/* expect: CS004 */
	return (mpc->signature[0] += 1) < 0;	/* expect: CS002 */
}

/* Used as an index. */
int lookup(const int *table)
{
	char at = 0xc0;			/* expect: CS004 */

	return table[at];		/* expect: CS005 */
}

/* External linkage: other files may read it as a number. */
char shared_tag[2] = { 0x80, 0 };	/* expect: CS004 */

void send_tag(unsigned char *out)
{
	memcpy(out, shared_tag, 2);
}

/* Its address kept in a pointer that is read numerically later. */
int through_pointer(void)
{
	char code[2];
	char *p = code;

	code[0] = 0x90;			/* expect: CS004 */
	return p[0] > 0;		/* expect: CS003 */
}

/* A field of a struct of this file: read by memcpy only. */
struct frame {
	char start[2];
	char flag;
};

void frame_start(struct frame *f, unsigned char *out)
{
	f->start[0] = 0x80;		/* ok: CS004 */
	memcpy(out, f->start, sizeof(f->start));
}

/* ... against one read with > */
void frame_flag(struct frame *f)
{
	f->flag = 0xff;			/* ok: CS004 {{where CS003 reports it with this store}} */
}

int frame_flagged(const struct frame *f)
{
	return f->flag > 0;		/* expect: CS003 */
}

/* Memory through a char * parameter: the callers' reads are not seen. */
void put_mark(char *buf)
{
	buf[0] = 0x80;			/* expect: CS004 */
}

/* Equal to the same constant written as a character: both sides alike. */
int is_marker(void)
{
	char mark[1];

	mark[0] = 0xaa;			/* ok: CS004 */
	return mark[0] == '\xaa';	/* ok: CS001 */
}

/* A static function's char * parameter (ip.h's ip_eth_mc_map): judged
 * by what each call passes it and how the caller reads that. */
static void mc_map(char *buf)
{
	buf[0] = 0x81;			/* ok: CS004 */
	memcpy(buf + 1, "\x5e", 1);
}

void join_group(unsigned char *mac)
{
	char addr[6];
	unsigned char raw[6];

	mc_map(addr);
	mc_map((char *)raw);
	memcpy(mac, addr, 6);
	memcpy(mac, raw, 6);
}

/* ... a caller reads the buffer as a number */
static void mark_map(char *buf)
{
	buf[0] = 0x82;			/* expect: CS004 */
}

int marked(void)
{
	char addr[2];

	mark_map(addr);
	return addr[0] < 0;		/* expect: CS002 */
}

/* ... a caller passes memory of another file's */
static void opaque_map(char *buf)
{
	buf[0] = 0x83;			/* expect: CS004 */
}

void map_into(char *out)
{
	opaque_map(out);
}

/* ... its address is taken: callers unknown */
static void taken_map(char *buf)
{
	buf[0] = 0x85;			/* expect: CS004 */
}

void (*map_hook)(char *) = taken_map;

/* A panel's init tables (drm's panel-boe-tv101wum-nl6.c): byte strings
 * kept as compound literals behind a char * field of a struct this file
 * defines, and only ever handed to a function taking const void *. */
struct rd_init_cmd {
	unsigned long len;
	const char *data;
};

#define RD_CMD(...) { .len = sizeof((char[]){ __VA_ARGS__ }), .data = (char[]){ __VA_ARGS__ } }

static const struct rd_init_cmd rd_panel_init[] = {
	RD_CMD(0xB0, 0x05),			/* ok: CS004 */
	RD_CMD(0xFF, 0x20),			/* ok: CS004 */
};

extern int rd_dsi_write(const void *payload, unsigned long len);

int rd_panel_send(void)
{
	int err = 0;

	for (unsigned i = 0; i < sizeof(rd_panel_init) / sizeof(rd_panel_init[0]); i++)
		err |= rd_dsi_write(rd_panel_init[i].data, rd_panel_init[i].len);
	return err;
}

/* The same shape, one table read back as a number: the stores stay. */
struct rd_seq {
	const char *bytes;
};

static const struct rd_seq rd_seqs[] = {
	{ (char[]){ 0x90, 0x01 } },		/* expect: CS004 */
};

int rd_seq_first_high(void)
{
	return rd_seqs[0].bytes[0] > 0x10;	/* expect: CS003 */
}
