/*
 * --baseline OLD.sarif: each finding is "new", "unchanged" or "updated"
 * against the results of an earlier report, and the earlier results not
 * found now come back as "absent".  Matching is by partialFingerprints:
 * first charscan/v1 (rule, file, function, line text), then, for what is
 * left, charscan/context/v1 (rule, function, the lines before and
 * after).  A finding that only moved is unchanged; one matched
 * through its context, or with another message, is updated.
 */
#ifndef CHARSCAN_BASELINE_H
#define CHARSCAN_BASELINE_H

#include <jansson.h>
#include "findings.h"

/* Set f's baseline states against log (read with sarif_read()); *absent
 * gets a new array of the results of log not found in f. */
void baseline_apply(json_t *log, struct findings *f, json_t **absent);

#endif
