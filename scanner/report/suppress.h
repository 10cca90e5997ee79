/*
 * In-source suppressions.  A comment on the finding's line or on the
 * line before that holds
 *
 *	charscan-ignore CS004: the byte is a bit pattern, never a number
 *	charscan-ignore CS004,char-sign-test: reason
 *
 * (in a block or a line comment) names the rules, by id or name, that it
 * silences there; the text after ':' is the justification.  Suppressed
 * findings stay in the SARIF report, with suppressions[].kind "inSource",
 * and count for nothing else.
 */
#ifndef CHARSCAN_SUPPRESS_H
#define CHARSCAN_SUPPRESS_H

#include "core/core.h"

#define SUPPRESS_MARK "charscan-ignore"

/* Unknown rule names in a suppression near a finding: a warning in notes. */
void suppress_in_source(struct findings *f, struct filecache *src, struct notices *notes);

#endif
