/*
 * report/: Findings made ready for a reader: baselines, suppressions, gcc-style text.
 * The one header other folders include.
 */
#ifndef CHARSCAN_REPORT_DOOR_H
#define CHARSCAN_REPORT_DOOR_H

#include "baseline.h"
#include "suppress.h"
#include "text.h"

#endif
