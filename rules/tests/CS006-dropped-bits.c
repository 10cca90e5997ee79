/*
 * A sign extension whose extended bits are all dropped before anything
 * observes the value is the same either way: drivers/cdrom/cdrom.c
 * builds the 16-bit MMC-3 profile as `(buffer[6] << 8) | buffer[7]`
 * from a `char buffer[]`.  buffer[6]'s extension fills bits 16-31 only,
 * which a store into an unsigned short drops; buffer[7]'s fills bits
 * 8-15 too, and stays.  cdrom.c itself keeps the value in a local int
 * first: followed to its reads, each of which must drop the bits.
 */
typedef unsigned short u16;
typedef unsigned int u32;

struct cdrom_info {
	u16 mmc3_profile;
	u32 wide;
	unsigned char low;
};

void get_profile(struct cdrom_info *cdi, const char *buffer)
{
	/* one finding: buffer[7]'s, not buffer[6]'s */
	cdi->mmc3_profile = (buffer[6] << 8) | buffer[7];	/* expect: CS006 {{plain char 'buffer[7]'}} */
}

/* Kept in 32 bits: both extensions are there. */
void get_wide(struct cdrom_info *cdi, const char *buffer)
{
	cdi->wide = (buffer[6] << 8) | buffer[7];	/* expect: CS006 CS006 */
}

/* The usual big-endian read, with the low byte cast right. */
u16 be16(const char *b)
{
	u16 v = (b[0] << 8) | (unsigned char)b[1];	/* ok: CS006 */

	return v;
}

/* A sum carries the difference upwards: into the kept bits. */
u16 sum16(const char *b, u16 base)
{
	u16 v = (b[0] << 8) + base;		/* ok: CS006 */
	u16 w = b[1] + base;			/* expect: CS006 */

	return v ^ w;
}

/* A comparison observes the value before any narrowing. */
int high_bit_set(const char *b, int k)
{
	return ((b[0] << 8) | k) < 0;		/* expect: CS006 */
}

/* cdrom.c's own shape: the local's every read drops the high bits. */
void get_profile_local(struct cdrom_info *cdi, const char *buffer, int failed)
{
	int mmc3_profile;

	if (failed)
		mmc3_profile = 0xffff;
	else
		mmc3_profile = (buffer[6] << 8) | buffer[7];	/* expect: CS006 {{plain char 'buffer[7]'}} */
	cdi->mmc3_profile = mmc3_profile;
}

/* Through two locals, one of them a u16: dropped all the same. */
void get_profile_two(struct cdrom_info *cdi, const char *buffer)
{
	int p = buffer[6] << 8;		/* ok: CS006 */
	u16 q = p;

	cdi->mmc3_profile = q | 1;
}

/* One read keeps all 32 bits: the local does not drop them. */
void get_profile_kept(struct cdrom_info *cdi, const char *buffer)
{
	int p = buffer[6] << 8;		/* expect: CS006 */

	cdi->mmc3_profile = p;
	cdi->wide = p;
}

/* Changed in place, or its address taken: not followed. */
void get_profile_rmw(struct cdrom_info *cdi, const char *buffer)
{
	int p = buffer[6] << 8;		/* expect: CS006 */
	int q = buffer[4] << 8;		/* expect: CS006 */
	int *pq = &q;

	p |= 0x10000;
	cdi->wide = p >> 16;
	cdi->mmc3_profile = *pq;
}

/* Tested before it is narrowed: observed. */
int get_profile_tested(struct cdrom_info *cdi, const char *buffer)
{
	int p = buffer[6] << 8;		/* expect: CS006 */

	cdi->mmc3_profile = p;
	return p < 0;			/* expect: CS002 */
}

/* A short keeps bits 8-15 of c << 1, which differ; its read spreads
 * them again.  c << 8 in a short is the same either way. */
void get_profile_short(struct cdrom_info *cdi, const char *buffer)
{
	short s = buffer[6] << 1;	/* expect: CS006 */
	short t = buffer[7] << 8;	/* ok: CS006 */

	cdi->wide = s + t;
}

/* The assignment's own value goes on: stored whole, compared, returned. */
void assigned_on(struct cdrom_info *cdi, const char *b)
{
	int p;

	cdi->wide = p = b[6] << 8;	/* expect: CS006 */
	cdi->mmc3_profile = p;
}

int assigned_tested(struct cdrom_info *cdi, const char *b)
{
	int p, n;

	n = (p = b[6] << 8) < 0;	/* expect: CS006 */
	cdi->mmc3_profile = p;
	return n;
}

int assigned_returned(struct cdrom_info *cdi, const char *b)
{
	int p, q = b[6] << 8;		/* expect: CS006 */

	cdi->mmc3_profile = q;
	return p = q;
}

/* An if's body without braces: the value is thrown away. */
void assigned_in_if(struct cdrom_info *cdi, const char *b)
{
	int p = 0;

	if (b)
		p = b[6] << 8;		/* ok: CS006 */
	cdi->mmc3_profile = p;
}

/* The last statement of a statement expression gives its value. */
int statement_expression(struct cdrom_info *cdi, const char *b)
{
	int p;
	int n = ({ p = b[6] << 8; });	/* expect: CS006 */

	cdi->mmc3_profile = p;
	return n < 0;
}
