/*
 * xtu/: Cross-TU records: what a TU tells the others about a char, and the
 * summary store of a sharded scan.
 * The one header other folders include.
 */
#ifndef CHARSCAN_XTU_DOOR_H
#define CHARSCAN_XTU_DOOR_H

#include "summary.h"

#endif
