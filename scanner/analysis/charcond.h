/*
 * Code the preprocessor keeps for one signedness only: the groups of an
 * #if / #ifdef / #ifndef / #elif on __CHAR_UNSIGNED__, and their #else.
 * What is written there is chosen for the signedness it is compiled
 * with, so it is not a finding (is_signed_type_kunit.c, test_printf.c).
 */
#ifndef CHARSCAN_CHARCOND_H
#define CHARSCAN_CHARCOND_H

#include "core/core.h"

/* Drop the findings that lie in such a group (f sorted by path); with
 * explain, keep each as a pass saying why. */
void char_conditional(struct findings *f, struct filecache *src, int explain);

/* --explain: each such group of the database's files as a pass. */
struct compdb;
void char_groups(struct findings *f, struct filecache *src, const struct compdb *db);

#endif
