/*
 * A page per finding, DIR/f/N.html (N its place in the list): the
 * message; the source lines around it with its region marked; its
 * related locations and its code flow as numbered steps, each with its
 * own source line; its fix as a two-line diff; the rule's help.
 *
 * The reader keeps no codeFlows: they are made from the related
 * locations, the way the writer makes them (sarif_flow()); a finding
 * with no flow there has its related locations, in their order, as
 * steps.  A file that cannot be shown (missing, outside the tree, shorter
 * than when scanned) is named with the reason, and the line as the
 * report has it (its snippet) shown instead when there is one.
 */
#include <stdlib.h>
#include <string.h>
#include "page.h"
#include "report.h"

#define CONTEXT 4		/* lines shown before and after a finding */
#define MAX_SPAN 30		/* lines of a region shown at most */
#define ADD "</span></div>\n<div class=\"add\"><span class=\"ln\">+</span><span class=\"code\">"

/* The bytes [from, to) of line L that loc covers. */
static void region_on(const struct loc *l, unsigned line, const char *text, size_t len,
		      size_t *from, size_t *to)
{
	unsigned end_line = l->end_line < l->line ? l->line : l->end_line;

	*from = *to = 0;
	if (line < l->line || line > end_line)
		return;
	*from = line == l->line ? ucol_byte(text, len, l->ucol ? l->ucol : l->col) : 0;
	*to = line == end_line ? ucol_byte(text, len, l->end_ucol ? l->end_ucol : l->end_col)
			       : len;
	if (*to <= *from && line == l->line)
		*to = len > *from ? len : *from;
}

static void src_line(FILE *f, unsigned no, const char *text, size_t len, size_t from,
		     size_t to)
{
	fprintf(f, "<div%s data-line=\"%u\"><span class=\"ln\">%u</span><span class=\"code\">",
		to > from ? " class=\"hit\"" : "", no, no);
	if (to > from) {
		html_textn(f, text, from);
		fputs("<mark>", f);
		html_textn(f, text + from, to - from);
		fputs("</mark>", f);
		html_textn(f, text + to, len - to);
	} else {
		html_textn(f, text, len);
	}
	fputs("</span></div>\n", f);
}

static void missing(FILE *f, const struct html_run *r, const struct loc *l, const char *why,
		    const char *snippet)
{
	fputs("<p class=\"missing\">", f);
	html_text(f, shown_path(r, l->path));
	fprintf(f, ":%u: source not shown: %s.", l->line, why);
	if (snippet) {
		fputs(" As scanned:</p>\n<div class=\"src\">", f);
		src_line(f, l->line, snippet, strlen(snippet), 0, 0);
		fputs("</div>\n", f);
	} else {
		fputs("</p>\n", f);
	}
}

/* Lines [first, last] of l's file, l's region marked. */
static void source_block(FILE *f, struct html_run *r, const struct loc *l, unsigned first,
			 unsigned last, const char *snippet)
{
	const char *why = NULL, *text;
	size_t len, from, to;

	if (!source_line(r, l->path, l->line, &len, &why)) {
		missing(f, r, l, why, snippet);
		return;
	}
	fputs("<div class=\"src\">\n", f);
	for (unsigned no = first; no <= last; no++) {
		if (!(text = source_line(r, l->path, no, &len, &why)))
			break;
		region_on(l, no, text, len, &from, &to);
		src_line(f, no, text, len, from, to);
	}
	fputs("</div>\n", f);
}

static void where(FILE *f, const struct html_run *r, const struct loc *l)
{
	fputs("<span class=\"where\">", f);
	html_text(f, shown_path(r, l->path));
	fprintf(f, ":%u</span>", l->line);
}

/* One numbered step: its label, message, place and source line. */
static void step(FILE *f, struct html_run *r, const char *label, const char *message,
		 const struct loc *l, const char *snippet)
{
	fputs("<li class=\"step\"><b class=\"label\">", f);
	html_text(f, label);
	fputs("</b> <span class=\"msg\">", f);
	html_text(f, message);
	fputs("</span> &mdash; ", f);
	where(f, r, l);
	fputs("\n", f);
	source_block(f, r, l, l->line, l->line, snippet);
	fputs("</li>\n", f);
}

static void related(FILE *f, struct html_run *r, const struct finding *x)
{
	if (!x->nrelated)
		return;
	fputs("<h2>Related locations</h2>\n<ol class=\"steps\" id=\"related\">\n", f);
	for (int i = 0; i < x->nrelated; i++)
		step(f, r, x->related[i].label, x->related[i].message, &x->related[i].loc, NULL);
	fputs("</ol>\n", f);
}

static void flow(FILE *f, struct html_run *r, const struct finding *x)
{
	const struct related *steps[MAX_RELATED];
	int n = sarif_flow(x, steps);

	if (!n)
		for (; n < x->nrelated; n++)
			steps[n] = &x->related[n];
	if (!n)
		return;
	fputs("<h2>Code flow</h2>\n<ol class=\"steps\" id=\"flow\">\n", f);
	for (int i = 0; i < n; i++)
		step(f, r, steps[i]->label, steps[i]->message, &steps[i]->loc, NULL);
	step(f, r, rules[x->rule].id, x->message, &x->loc, x->snippet);
	fputs("</ol>\n", f);
}

/* The fix as a diff of its line; from the report alone when the line
 * cannot be read or no longer holds the bytes the fix replaces. */
static void fix(FILE *f, struct html_run *r, const struct finding *x)
{
	const struct loc *l = &x->fix.loc;
	const char *why, *line;
	size_t len, from = 0, to = 0, dlen;

	if (!x->has_fix)
		return;
	dlen = strlen(x->fix.deleted);
	fputs("<h2>Fix</h2>\n<p id=\"fix-what\">", f);
	html_text(f, x->fix.description);
	fputs(" &mdash; ", f);
	where(f, r, l);
	fputs("</p>\n<div class=\"src diff\" id=\"fix\">\n", f);
	line = source_line(r, l->path, l->line, &len, &why);
	if (line) {
		from = ucol_byte(line, len, l->ucol);
		to = from + dlen;
	}
	fputs("<div class=\"del\"><span class=\"ln\">-</span><span class=\"code\">", f);
	if (line && to <= len && !memcmp(line + from, x->fix.deleted, dlen)) {
		html_textn(f, line, len);
		fputs(ADD, f);
		html_textn(f, line, from);
		fputs("<mark>", f);
		html_text(f, x->fix.text);
		fputs("</mark>", f);
		html_textn(f, line + to, len - to);
	} else {
		html_text(f, x->fix.deleted);
		fputs(ADD, f);
		html_text(f, x->fix.text);
	}
	fputs("</span></div>\n</div>\n", f);
}

static void help(FILE *f, const struct finding *x)
{
	const struct rule *rule = &rules[x->rule];

	fprintf(f, "<h2>Rule %s: %s</h2>\n<p>%s (CWE-%s, CERT %s)</p>\n", rule->id, rule->name,
		rule->short_desc, rule->cwe, rule->cert);
	if (rule->help_md) {
		fputs("<pre class=\"help\" id=\"help\">", f);
		html_text(f, rule->help_md);
		fputs("</pre>\n", f);
	}
}

static void nav(FILE *f, const struct html_run *r, size_t i)
{
	char list[32];

	list_page_name(list, sizeof(list), i / PER_PAGE + 1);
	fprintf(f, "<nav><a href=\"../index.html\">summary</a><a href=\"../%s\">list</a>", list);
	if (i)
		fprintf(f, "<a href=\"%zu.html\" rel=\"prev\">previous</a>", i);
	if (i + 1 < r->n)
		fprintf(f, "<a href=\"%zu.html\" rel=\"next\">next</a>", i + 2);
	fprintf(f, " finding %zu of %zu</nav>\n", i + 1, r->n);
}

static void heading(FILE *f, const struct html_run *r, const struct finding *x)
{
	const char *level = finding_level(x);

	fprintf(f, "<h1 id=\"title\"><span class=\"rule\">%s</span> %s</h1>\n<p>"
		"<b class=\"level level-", rules[x->rule].id, rules[x->rule].name);
	html_text(f, level);
	fputs("\">", f);
	html_text(f, level);
	fputs("</b> at ", f);
	where(f, r, &x->loc);
	fprintf(f, ":%u", x->loc.ucol ? x->loc.ucol : x->loc.col);
	if (x->function) {
		fputs(" in <code>", f);
		html_text(f, x->function);
		fputs("</code>", f);
	}
	fprintf(f, "; breaks when char is %s", breaks_names[x->breaks]);
	if (x->baseline)
		fprintf(f, "; baseline: <span id=\"baseline\">%s</span>",
			baseline_names[x->baseline]);
	if (x->codegen)
		fprintf(f, "; codegen %s", x->codegen);
	fputs(".</p>\n<p id=\"message\">", f);
	html_text(f, x->message);
	fputs("</p>\n", f);
	if (x->confidence) {
		fprintf(f, "<p id=\"origin\">Confidence <b>%s</b>: ",
			confidence_names[x->confidence]);
		html_text(f, x->origin ? x->origin : "origin not said");
		fputs(".</p>\n", f);
	}
}

int write_finding(struct html_run *r, size_t i, char **err)
{
	const struct finding *x = r->list[i];
	const struct loc *l = &x->loc;
	unsigned end = l->end_line > l->line ? l->end_line : l->line;
	char name[40], *title;
	struct page p;

	snprintf(name, sizeof(name), "f/%zu.html", i + 1);
	title = xasprintf("%s %s:%u", rules[x->rule].id, shown_path(r, l->path), l->line);
	if (page_open(&p, r->dir, name, r->input, title, 1, err)) {
		free(title);
		return -1;
	}
	free(title);
	nav(p.f, r, i);
	heading(p.f, r, x);
	fputs("<h2>Source</h2>\n<div id=\"source\">\n", p.f);
	if (end > l->line + MAX_SPAN)
		end = l->line + MAX_SPAN;
	source_block(p.f, r, l, l->line > CONTEXT ? l->line - CONTEXT : 1, end + CONTEXT,
		     x->snippet);
	fputs("</div>\n", p.f);
	related(p.f, r, x);
	flow(p.f, r, x);
	fix(p.f, r, x);
	help(p.f, x);
	return page_close(&p, err);
}
