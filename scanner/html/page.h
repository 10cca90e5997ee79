/* One HTML page written atomically, and text escaped into it. */
#ifndef CHARSCAN_HTML_PAGE_H
#define CHARSCAN_HTML_PAGE_H

#include <stdio.h>
#include "core/core.h"

struct page {
	struct output out;	/* a page of the list: through core/output.c */
	char *path, *tmp;	/* a finding's page: renamed, not synced */
	FILE *f;
};

/* DIR/name opened (refused if it names input, the report) and its head
 * written: title escaped, the style inline.  A quick page (one of
 * thousands in one folder) is renamed into place without the search for
 * stale temporaries and the fsync of core/output.c: pages_sync() makes
 * them all durable at once.  -1 with *err. */
int page_open(struct page *p, const char *dir, const char *name, const char *input,
	      const char *title, int quick, char **err);
/* The tail written, the page committed; -1 with *err. */
int page_close(struct page *p, char **err);
/* The quick pages written so far in dir's file system on disk. */
int pages_sync(const char *dir, char **err);
/* A quick page's temporary of a run that died: its name, in a folder. */
int page_is_stale_tmp(const char *name);
/* n bytes of s as HTML text (also in an attribute value): markup
 * characters as entities, carriage returns left out, NUL and the other
 * control bytes but tab and newline as U+FFFD. */
void html_textn(FILE *f, const char *s, size_t n);
void html_text(FILE *f, const char *s);

#endif
