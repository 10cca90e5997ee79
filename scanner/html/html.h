/*
 * html/: charscan report REPORT.sarif -o DIR: a report as static HTML
 * pages, a summary and list (index.c) and a page per finding (finding.c),
 * written through page.c.  The one header other folders include.
 */
#ifndef CHARSCAN_HTML_DOOR_H
#define CHARSCAN_HTML_DOOR_H

#include "core/core.h"

/* EXIT_CLEAN, or EXIT_USAGE (the report unreadable, DIR unwritable). */
int report_command(const struct options *o);

#endif
