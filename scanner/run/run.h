/*
 * run/: Scans run: worker processes one TU after another under limits, the
 * messages they send back and the cache that keeps them, shards.
 * The one header other folders include.
 */
#ifndef CHARSCAN_RUN_DOOR_H
#define CHARSCAN_RUN_DOOR_H

#include "cache.h"
#include "scan.h"
#include "shard.h"
#include "wire.h"

#endif
