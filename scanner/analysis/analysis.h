/*
 * analysis/: The walk of one TU: plain-char values found, followed and judged;
 * findings and cross-TU records out.
 * The one header other folders include.
 */
#ifndef CHARSCAN_ANALYSIS_DOOR_H
#define CHARSCAN_ANALYSIS_DOOR_H

#include "engine.h"
#include "charcond.h"

#endif
