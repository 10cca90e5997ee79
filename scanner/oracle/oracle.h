/*
 * oracle/: The codegen oracle: each TU compiled with char signed and unsigned,
 * the changed lines matched to the findings (charscan confirm).
 * The one header other folders include.
 */
#ifndef CHARSCAN_ORACLE_DOOR_H
#define CHARSCAN_ORACLE_DOOR_H

#include "confirm.h"

#endif
