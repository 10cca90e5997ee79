/*
 * core/: What every part shares: memory and strings, paths, files read
 * and written atomically, what keeps a cached answer valid, the rule
 * catalogue, the finding, the options of a run.
 * The one header other folders include.
 */
#ifndef CHARSCAN_CORE_DOOR_H
#define CHARSCAN_CORE_DOOR_H

#include "util.h"
#include "path.h"
#include "output.h"
#include "filecache.h"
#include "rules.h"
#include "findings.h"
#include "seqdiff.h"
#include "spawn.h"
#include "pool.h"
#include "shadow.h"
#include "literal.h"
#include "options.h"
#include "version.h"

#endif
