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

/* An initializer's constants are stores into the fields they land in,
 * one finding per field. */
const struct xf_table xf_default = {
	.sig = { 'X', 'F' },
	.name = { 0xc3, 0xa9 },		/* ok: CS004 {{every read of it the scan sees}} */
	.level = 0x81,			/* expect: CS004 */
};

struct xf_table xf_spare = { .sig = { 0xaa } };	/* expect: CS004 */

/* A union's plain char members read each other's bytes: stateid's are
 * only copied and compared as bytes (the number over them reads bits),
 * pair's `hi` is read as a number. */
const struct xf_stateid xf_invalid = {
	{ .data = { 0xff, 0xff, 0xff } },	/* ok: CS004 {{a union in struct xf_stateid}} */
	.type = 3,
};

const struct xf_pair xf_mark = { { .raw = { 0x80, 0x80 } } };	/* expect: CS004 */

void xf_mark_other(struct xf_stateid *s)
{
	s->other[0] = 0xfe;		/* ok: CS004 */
}

/* A table of the header's structs: one finding per field, not per row. */
const struct xf_table xf_rows[] = {
	{ .name = { 0xc3 },		/* ok: CS004 */
	  .level = 0x81 },		/* expect: CS004 */
	{ .name = { 0xc4 },
	  .level = 0x82 },
};

const struct xf_boxed xf_box = { { .raw = { 0xff } } };	/* expect: CS004 */

const struct xf_two xf_pair2 = { { .a = { 0xff } } };	/* expect: CS004 */

const xf_id_t xf_none = { { .data = { 0xff } } };	/* ok: CS004 {{a union in struct xf_id_t}} */
