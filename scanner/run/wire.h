/*
 * What a worker process hands back for its TU: findings, notices and
 * cross-TU records as
 * bytes on a pipe, decoded by the parent into the same structures.  Not
 * a file format: both ends are the same binary (a scan's cache keeps the
 * message as it came, under a key that names the binary's version).
 */
#ifndef CHARSCAN_WIRE_H
#define CHARSCAN_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"
#include "xtu/xtu.h"

void wire_put(struct buf *b, const struct findings *f, const struct notices *n,
	      const struct xrecs *x, unsigned failed);
/* 0, or -1 when the bytes are not a whole message (a worker that died
 * while writing): nothing is added then. */
int wire_get(const struct buf *b, struct findings *f, struct notices *n, struct xrecs *x,
	     unsigned *failed);

/* The pieces, for other messages of the same kind (cache.c's entries):
 * integers in host order, strings with their length (~0: NULL). */
void wire_put_u32(struct buf *b, uint32_t v);
void wire_put_str(struct buf *b, const char *s);

/* Every read checks what is left: bad is set, and 0 or NULL given, past
 * the end. */
struct wire_reader {
	const char *p, *end;
	int bad;
};

uint32_t wire_get_u32(struct wire_reader *r);
char *wire_get_str(struct wire_reader *r);

#endif
