/*
 * The pages of charscan report: each written to a temporary file beside
 * it and renamed over it when complete (core/output.c), so that a reader
 * never opens half a page; none over the report it is made from.
 *
 * Everything a page shows of a report or of the source (paths, messages,
 * source lines, a rule's help) goes through html_textn(): a "<script>"
 * in a file name or a source line is text on the page, never markup.
 */
#include <stdlib.h>
#include <string.h>
#include "page.h"

/* One style for every page, inline: the pages open from file:// with
 * nothing beside them. */
static const char style[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}"
"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
"tr.finding:nth-child(even){background:#f4f4f4}"
".bar{background:#4a7fb5;height:12px;min-width:1px}.chart td.n{text-align:right}"
".level-error{color:#b00}.level-warning{color:#a60}.level-note{color:#06a}"
"pre,code,.src{font:13px/1.35 ui-monospace,monospace}"
".src{border:1px solid #ccc;background:#fafafa;padding:4px 0;overflow-x:auto}"
".src div{display:flex;padding:0 8px}.src .hit{background:#fff3c0}"
".src .code{white-space:pre;tab-size:8}"
".src .ln{color:#888;flex:none;width:6ch;text-align:right;margin-right:2ch}"
"mark{background:#ffd54a}.missing{color:#b00}"
".diff .del{background:#fdd}.diff .add{background:#dfd}"
"ol.steps>li{margin-bottom:.6em}.help{white-space:pre-wrap;background:#f6f6f6;padding:8px}"
"nav a{margin-right:.6em}";

void html_textn(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\r': break;	/* the parser would make it a line break */
		default:
			if (c < 0x20 && c != '\t' && c != '\n')
				fputs("&#xfffd;", f);
			else
				fputc(c, f);
		}
	}
}

void html_text(FILE *f, const char *s)
{
	html_textn(f, s, strlen(s));
}

int page_open(struct page *p, const char *dir, const char *name, const char *input,
	      const char *title, char **err)
{
	char *path = join_path(dir, name);
	int rc = -1;

	if (output_names(path, input))
		*err = xasprintf("%s is the report read: not written over", path);
	else if (output_open(&p->out, path, err) == 0)
		rc = 0;
	free(path);
	if (rc)
		return rc;
	p->f = p->out.f;
	fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<meta name=\"generator\" content=\"charscan " CHARSCAN_VERSION "\"><title>", p->f);
	html_text(p->f, title);
	fprintf(p->f, "</title><style>%s</style></head>\n<body>\n", style);
	return 0;
}

int page_close(struct page *p, char **err)
{
	fputs("</body></html>\n", p->f);
	return output_commit(&p->out, err);
}
