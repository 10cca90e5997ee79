/* --shard K/N: a stable partition of a compile database's TUs. */
#ifndef CHARSCAN_SHARD_H
#define CHARSCAN_SHARD_H

#include "input/input.h"

/* The shard (0 .. n-1) of a TU: its path relative to the source root. */
unsigned shard_of(const char *relpath, unsigned n);
/* Keep the TUs of shard k (1 .. n) of n. */
void shard_select(struct compdb *db, unsigned k, unsigned n, const char *srcroot);

#endif
