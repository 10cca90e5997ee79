/*
 * A sign extension whose extended bits are all dropped before anything
 * observes the value is the same either way: drivers/cdrom/cdrom.c
 * builds the 16-bit MMC-3 profile as `(buffer[6] << 8) | buffer[7]`
 * from a `char buffer[]`.  buffer[6]'s extension fills bits 16-31 only,
 * which a store into an unsigned short drops; buffer[7]'s fills bits
 * 8-15 too, and stays.  (cdrom.c itself stores into a local int first,
 * which is not followed yet.)
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
