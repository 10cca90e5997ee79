/* A unified diff of two versions of a file, as diff -u and git print it. */
#ifndef CHARSCAN_UDIFF_H
#define CHARSCAN_UDIFF_H

#include <stdio.h>

struct diffstat {
	unsigned added, removed;	/* lines */
};

/*
 * prefix and path joined as git writes a file name (quote_c_style with
 * core.quotePath on): in double quotes with C escapes when the name
 * holds '"', '\\', a control byte or a byte above 0x7f, else as it is.
 * The caller frees it.
 */
char *git_path(const char *prefix, const char *path);

/*
 * Print "--- a/PATH", "+++ b/PATH" and the hunks (three lines of
 * context; PATH quoted as git_path() does, a tab after it when it holds a
 * space, as git writes it) that turn old into new, and add their line counts to *st.
 * Nothing is printed when the two are equal.
 */
void udiff(FILE *out, const char *path, const char *old, size_t old_len,
	   const char *new, size_t new_len, struct diffstat *st);

#endif
