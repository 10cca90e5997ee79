/*
 * input/: What a scan reads: the compile database and each entry's argv, the
 * .charscan config, the lines a git diff changes.
 * The one header other folders include.
 */
#ifndef CHARSCAN_INPUT_DOOR_H
#define CHARSCAN_INPUT_DOOR_H

#include "compdb.h"
#include "config.h"
#include "diff.h"

#endif
