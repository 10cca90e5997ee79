/* A unified diff of two versions of a file, as diff -u and git print it. */
#ifndef CHARSCAN_UDIFF_H
#define CHARSCAN_UDIFF_H

#include <stdio.h>

struct diffstat {
	unsigned added, removed;	/* lines */
};

/*
 * Print "--- a/PATH", "+++ b/PATH" and the hunks (three lines of
 * context) that turn old into new, and add their line counts to *st.
 * Nothing is printed when the two are equal.
 */
void udiff(FILE *out, const char *path, const char *old, size_t old_len,
	   const char *new, size_t new_len, struct diffstat *st);

#endif
