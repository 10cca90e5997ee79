/* The From: and Subject: lines of a patch mail, as git format-patch. */
#ifndef CHARSCAN_MAILHEAD_H
#define CHARSCAN_MAILHEAD_H

#include <stdio.h>

/* A git config user.name or user.email as git would put it in a commit:
 * crud (whitespace, quotes, ".,:;<>\\'") cut from both ends, newlines
 * and angle brackets dropped.  The caller frees it. */
char *ident_clean(const char *s);

/* Can a cleaned address go in a header as it is (no control byte,
 * space or double quote)? */
int is_clean_address(const char *email);

/* "From: NAME <EMAIL>" and "Subject: [PATCH] TITLE", each with its
 * newline, quoted, encoded and folded as git format-patch does. */
void mail_from(FILE *f, const char *name, const char *email);
void mail_subject(FILE *f, const char *title);

#endif
