/* Which elements two sequences do not share: Myers' O(ND) diff. */
#ifndef CHARSCAN_SEQDIFF_H
#define CHARSCAN_SEQDIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Set a_del[i] for each a[i] and b_ins[j] for each b[j] outside one
 * longest common subsequence of a and b (both arrays zeroed first).
 * Returns the number of edits, or -1 when more than max_edits would be
 * needed: then every element is marked, as a diff that gives up must.
 */
long seqdiff(const uint64_t *a, size_t n, const uint64_t *b, size_t m,
	     unsigned char *a_del, unsigned char *b_ins, size_t max_edits);

#endif
