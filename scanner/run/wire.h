/*
 * What a worker process hands back for its TU: findings, notices and
 * cross-TU records as
 * bytes on a pipe, decoded by the parent into the same structures.  Not
 * a file format: both ends are the same binary.
 */
#ifndef CHARSCAN_WIRE_H
#define CHARSCAN_WIRE_H

#include <stddef.h>
#include "core/core.h"
#include "xtu/xtu.h"

void wire_put(struct buf *b, const struct findings *f, const struct notices *n,
	      const struct xrecs *x, unsigned failed);
/* 0, or -1 when the bytes are not a whole message (a worker that died
 * while writing): nothing is added then. */
int wire_get(const struct buf *b, struct findings *f, struct notices *n, struct xrecs *x,
	     unsigned *failed);

#endif
