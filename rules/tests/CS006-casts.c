/*
 * CS006 through an explicit cast: (uint32_t)c, (unsigned long)*p still
 * sign-extend a plain char when it is signed (0x80 becomes 0xffffff80),
 * whatever the type is called.  A cast written with a typedef is one
 * (git's murmur3 Bloom-filter hash, data a const char *: its filters
 * differ between x86 and Arm).  Casts through unsigned char, masks, ASCII
 * values and two chars widened alike for an equality are not.
 */
typedef unsigned int uint32_t;
typedef unsigned char uint8_t;
typedef unsigned long u64;
extern int isdigit(int c);

uint32_t murmur3_tail(const char *data, int len, uint32_t seed)
{
	uint32_t k1 = 0;

	switch (len & 3) {
	case 3:
		k1 ^= ((uint32_t)data[2]) << 16;	/* expect: CS006 signed {{'((uint32_t)data[2]) << 16'}} */
		/* fallthrough */
	case 2:
		k1 ^= (uint32_t)data[1] << 8;		/* expect: CS006 */
		/* fallthrough */
	case 1:
		k1 ^= (uint32_t)data[0];		/* expect: CS006 {{'k1 ^= (uint32_t)data[0]'}} */
	}
	return seed ^ k1;
}

uint32_t widened_return(const char *p)
{
	return (uint32_t)*p;				/* expect: CS006 signed {{'uint32_t' in 'return (uint32_t)*p'}} */
}

u64 widened_long(const char *p, u64 h)
{
	return h * 33 + (u64)*p;			/* expect: CS006 */
}

int table_at(const int *tab, const char *p)
{
	return tab[(uint32_t)*p];			/* expect: CS005 {{0xffffff80 for byte 0x80}} */
}

/* What is the same byte either way. */
uint32_t byte_casts(const char *p, uint32_t k)
{
	k ^= (uint8_t)p[0];				/* ok: CS006 */
	k ^= (uint32_t)(uint8_t)p[1] << 8;		/* ok: CS006 */
	k ^= (int)(unsigned char)p[2] << 16;		/* ok: CS006 */
	k ^= (uint32_t)p[3] & 0xff;			/* ok: CS006 {{the same for every byte}} */
	k ^= (uint32_t)(p[4] & 0x7f) << 24;		/* ok: CS006 */
	return k;
}

int signed_byte(const char *p)
{
	return (signed char)*p;				/* ok: CS010 */
}

uint32_t ascii_only(const char *p)
{
	if (isdigit((uint8_t)*p))
		return (uint32_t)*p - '0';		/* ok: CS003 {{an ASCII-only guard}} */
	return (uint32_t)'0';
}

/* The guard's own cast through a byte type of any name. */
typedef unsigned char byte_t;

uint32_t ascii_shifted(const char *p)
{
	if (isdigit((byte_t)*p))
		return (uint32_t)*p << 4;		/* ok: CS006 */
	return 0;
}

int same_widening(const char *a, const char *b)
{
	return (uint32_t)*a == (uint32_t)*b;		/* ok: CS001 */
}
