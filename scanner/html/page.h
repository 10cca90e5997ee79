/* One HTML page written atomically, and text escaped into it. */
#ifndef CHARSCAN_HTML_PAGE_H
#define CHARSCAN_HTML_PAGE_H

#include <stdio.h>
#include "core/core.h"

struct page {
	struct output out;
	FILE *f;
};

/* DIR/name opened (refused if it names input, the report) and its head
 * written: title escaped, the style inline.  -1 with *err. */
int page_open(struct page *p, const char *dir, const char *name, const char *input,
	      const char *title, char **err);
/* The tail written, the page committed; -1 with *err. */
int page_close(struct page *p, char **err);
/* n bytes of s as HTML text (also in an attribute value): markup
 * characters as entities, carriage returns left out, NUL and the other
 * control bytes but tab and newline as U+FFFD. */
void html_textn(FILE *f, const char *s, size_t n);
void html_text(FILE *f, const char *s);

#endif
