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

#include "core/core.h"

/* Set f's baseline states against old (read with sarif_load()); old's
 * findings not found in f are moved to absent, the rest freed. */
void baseline_apply(struct findings *old, struct findings *f, struct findings *absent);
/* old's paths below from (the baseline's %SRCROOT%) moved below to
 * (this scan's): a baseline made in another checkout folder (a CI
 * artifact) gives absent results relative to this run's root. */
void baseline_rebase(struct findings *old, const char *from, const char *to);

#endif
