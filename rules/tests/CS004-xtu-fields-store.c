/*
 * CS004 on a field of a header's struct: judged at its reads in every
 * TU of the scan (this file and CS004-xtu-fields-read.c).
 * arch/x86/kernel/mpparse.c's `mpc->checksum = 0xff`, only summed back
 * into itself.
 */
#include "xtu-table.h"

void xf_seal(struct xf_table *t)
{
	t->checksum = 0xff;		/* ok: CS004 {{every read of it the scan sees (in 1 TU)}} */
	t->checksum -= xf_sum((unsigned char *)t, t->length);
	t->name[0] = 0xc3;		/* ok: CS004 */
	t->level = 0x80;		/* expect: CS004 */
	t->sig[0] = 0x90;		/* expect: CS004 */
}

void xf_tag(struct xf_other *o)
{
	o->tag[0] = 0xc0;		/* expect: CS004 */
}
