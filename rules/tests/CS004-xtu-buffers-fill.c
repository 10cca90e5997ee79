/*
 * CS004 across TUs, the side that stores: a char * parameter of a
 * function other TUs call is filled here, and read back (or not) by its
 * callers in CS004-xtu-buffers-use.c.  The shape of net/ipv6/ndisc.c's
 * ndisc_mc_map(), which hands its buf to if_inet6.h's
 * ipv6_ib_mc_map(): the 0xff bytes of an IB multicast address, moved
 * as bytes by every caller (dev_mc_add() takes unsigned char *).
 */
void *memcpy(void *d, const void *s, unsigned long n);

static inline void xb_ib_map(const unsigned char *bcast, char *buf)
{
	buf[0] = 0;
	buf[1] = 0xff;				/* ok: CS004 {{every call of it the scan sees (in 1 TU)}} */
	buf[2] = bcast[5] & 0xf;
}

int xb_mc_map(char *buf, const unsigned char *bcast, int type)
{
	switch (type) {
	case 1:
		xb_ib_map(bcast, buf);
		return 0;
	case 2:
		buf[0] = 0x80;			/* ok: CS004 */
		return 0;
	default:
		memcpy(buf, bcast, 6);
		return 0;
	}
}

/* Every caller with a prototype gives unsigned char memory, but one
 * calls it through `void xb_fill_kr();` (CS004-xtu-noproto.c). */
void xb_fill_kr(char *out)
{
	out[0] = 0x90;				/* expect: CS004 */
}

/* A caller reads the byte back as a number: kept, here. */
void xb_fill_number(char *out)
{
	out[0] = 0xfe;				/* expect: CS004 */
}

/* No caller in the scan: what reads it is out of sight. */
void xb_fill_unseen(char *out)
{
	out[0] = 0xfd;				/* expect: CS004 */
}

/* Called only with bytes, but its address is taken too. */
void xb_fill_pointer(char *out)
{
	out[0] = 0xfc;				/* expect: CS004 */
}

/* Read as a number in its own body: the callers do not matter. */
int xb_fill_and_test(char *out)
{
	out[0] = 0xfb;				/* expect: CS004 */
	return out[0] < 0;			/* expect: CS002 */
}

/* The same static helper, given a buffer this TU reads as a number:
 * kept, whatever the other call's buffer is. */
static inline void xb_mark(char *p)
{
	p[0] = 0xfa;				/* expect: CS004 */
}

void xb_mark_bytes(char *out)
{
	xb_mark(out);
}

int xb_mark_number(void)
{
	char own[2];

	xb_mark(own);
	return own[0] > 0;			/* expect: CS003 */
}

/* EXPORT_SYMBOL(): the kernel's export table takes the address to link
 * modules against it (__ADDRESSABLE, or a __ksymtab_ entry); the calls
 * are still all in the scan. */
#define __ADDRESSABLE(sym) \
	static void *__UNIQUE_ID___addressable_##sym##1 __attribute__((used)) = (void *)&sym;

void xb_exported(char *out)
{
	out[0] = 0xf9;				/* ok: CS004 */
}
__ADDRESSABLE(xb_exported)
