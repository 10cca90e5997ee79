/*
 * The summary and the list of charscan report: index.html counts the
 * findings per rule, level, top-level directory and baseline state, as
 * bars, and lists the first PER_PAGE findings; list-2.html... the rest,
 * in the order of the report (path, line, column, rule).  A pager of
 * 5,000 findings stays a page of 500 rows.
 *
 * Each row carries its rule, level and directory as data attributes, and
 * a little inline script hides the rows a choice of rule, level or
 * directory leaves out; the choice is kept in the address (#rule=CS001)
 * and follows the pager's links.  The directory table says on which pages
 * each directory's findings are (the list is sorted by path, so they are
 * together).  Without script every row shows.
 */
#include <stdlib.h>
#include <string.h>
#include "page.h"
#include "report.h"

static const char *const level_names[] = { "error", "warning", "note", "none" };
#define NR_LEVELS (sizeof(level_names) / sizeof(level_names[0]))

static const char filter_script[] =
"<script>(function(){"
"var sel={rule:document.getElementById('f-rule'),level:document.getElementById('f-level'),"
"dir:document.getElementById('f-dir')};"
"function apply(){var n=0,h=[],k;"
"for(k in sel)if(sel[k].value)h.push(k+'='+sel[k].value);"
"document.querySelectorAll('tr.finding').forEach(function(t){var ok=true,k;"
"for(k in sel)if(sel[k].value&&t.dataset[k]!==sel[k].value)ok=false;"
"t.hidden=!ok;if(ok)n++;});"
"document.getElementById('shown').textContent=n;var hash=h.join('&');"
"try{history.replaceState(null,'',hash?'#'+hash:location.pathname);}catch(e){}"
"document.querySelectorAll('a.page').forEach(function(a){a.hash=hash;});}"
"function load(){location.hash.slice(1).split('&').forEach(function(p){"
"var kv=p.split('=');if(sel.hasOwnProperty(kv[0]))sel[kv[0]].value=decodeURIComponent(kv[1]||'');});"
"apply();}"
"for(var k in sel)sel[k].addEventListener('change',apply);"
"window.addEventListener('hashchange',load);load();})();</script>\n";

struct tally {
	size_t rule[NR_RULES];
	size_t level[NR_LEVELS];
	size_t state[NR_BASELINE_STATES];
	size_t *dir;			/* per r->dirs */
	size_t *first, *last;		/* the list pages of each directory */
};

static size_t level_index(const char *level)
{
	for (size_t i = 0; i < NR_LEVELS; i++)
		if (!strcmp(level, level_names[i]))
			return i;
	return 1;
}

static void count(const struct html_run *r, struct tally *t)
{
	t->dir = xcalloc(r->ndirs + 1, sizeof(*t->dir));
	t->first = xcalloc(r->ndirs + 1, sizeof(*t->first));
	t->last = xcalloc(r->ndirs + 1, sizeof(*t->last));
	for (size_t i = 0; i < r->n; i++) {
		const struct finding *x = r->list[i];
		unsigned d = r->dir_of[i];

		t->rule[x->rule]++;
		t->level[level_index(finding_level(x))]++;
		t->state[x->baseline]++;
		if (!t->dir[d]++)
			t->first[d] = i / PER_PAGE + 1;
		t->last[d] = i / PER_PAGE + 1;
	}
}

static size_t most(const size_t *v, size_t n)
{
	size_t m = 1;

	for (size_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* One row of a chart: its label is written by the caller between
 * bar_start() and bar_end(). */
static void bar_start(FILE *f, const char *group, const char *key)
{
	fprintf(f, "<tr class=\"count\" data-group=\"%s\" data-key=\"", group);
	html_text(f, key);
	fputs("\"><td>", f);
}

static void bar_end(FILE *f, size_t n, size_t max)
{
	fprintf(f, "</td><td class=\"n\">%zu</td><td><div class=\"bar\" style=\"width:%zupx\">"
		"</div></td></tr>\n", n, n * 300 / max);
}

static void chart_rules(FILE *f, const struct tally *t)
{
	size_t max = most(t->rule, NR_RULES);

	fputs("<h2>By rule</h2>\n<table class=\"chart\" id=\"by-rule\">\n", f);
	for (int i = 0; i < NR_RULES; i++) {
		if (!t->rule[i])
			continue;
		bar_start(f, "rule", rules[i].id);
		fprintf(f, "<a class=\"page\" href=\"index.html#rule=%s\">%s</a> %s", rules[i].id,
			rules[i].id, rules[i].name);
		bar_end(f, t->rule[i], max);
	}
	fputs("</table>\n", f);
}

static void chart_levels(FILE *f, const struct tally *t)
{
	size_t max = most(t->level, NR_LEVELS);

	fputs("<h2>By level</h2>\n<table class=\"chart\" id=\"by-level\">\n", f);
	for (size_t i = 0; i < NR_LEVELS; i++) {
		if (!t->level[i])
			continue;
		bar_start(f, "level", level_names[i]);
		fprintf(f, "<a href=\"index.html#level=%s\" class=\"level-%s\">%s</a>",
			level_names[i], level_names[i], level_names[i]);
		bar_end(f, t->level[i], max);
	}
	fputs("</table>\n", f);
}

static void chart_dirs(FILE *f, const struct html_run *r, const struct tally *t)
{
	size_t max = most(t->dir, r->ndirs);
	char name[32];

	fputs("<h2>By top-level directory</h2>\n<table class=\"chart\" id=\"by-dir\">\n", f);
	for (size_t i = 0; i < r->ndirs; i++) {
		bar_start(f, "dir", r->dirs[i]);
		list_page_name(name, sizeof(name), t->first[i]);
		fprintf(f, "<a href=\"%s#dir=%zu\">", name, i);
		html_text(f, r->dirs[i]);
		fputs("</a>", f);
		if (t->last[i] > t->first[i])
			fprintf(f, " <small>(pages %zu&ndash;%zu)</small>", t->first[i], t->last[i]);
		else if (t->first[i] > 1)
			fprintf(f, " <small>(page %zu)</small>", t->first[i]);
		bar_end(f, t->dir[i], max);
	}
	fputs("</table>\n", f);
}

static void chart_baseline(FILE *f, const struct tally *t)
{
	size_t max = most(t->state + 1, NR_BASELINE_STATES - 1);

	/* Only a report made with --baseline has states. */
	if (t->state[BASELINE_NEW] + t->state[BASELINE_UNCHANGED] +
	    t->state[BASELINE_UPDATED] + t->state[BASELINE_ABSENT] == 0)
		return;
	fputs("<h2>Against the baseline</h2>\n<table class=\"chart\" id=\"by-baseline\">\n", f);
	for (int i = BASELINE_NEW; i < NR_BASELINE_STATES; i++) {
		bar_start(f, "baseline", baseline_names[i]);
		fputs(baseline_names[i], f);
		bar_end(f, t->state[i], max);
	}
	fputs("</table>\n", f);
}

static void summary(FILE *f, const struct html_run *r, const struct tally *t)
{
	size_t errors = 0;

	for (size_t i = 0; i < r->in.notices.len; i++)
		errors += !strcmp(r->in.notices.v[i].level, "error");
	fputs("<h1>charscan report</h1>\n<p>", f);
	html_text(f, r->input);
	fputs(": source tree <code>", f);
	html_text(f, r->in.srcroot);
	fprintf(f, "</code>, char judged %s.</p>\n<p id=\"totals\"><b id=\"listed\">%zu</b> "
		"findings listed; <span id=\"suppressed\">%zu</span> suppressed and "
		"<span id=\"passes\">%zu</span> passes (--explain) counted, not listed.</p>\n",
		r->in.signedness ? r->in.signedness : "both", r->n, r->suppressed, r->passes);
	if (!r->in.complete || errors)
		fprintf(f, "<p class=\"missing\" id=\"incomplete\">The scan was incomplete: %zu "
			"errors (files not scanned).</p>\n", errors);
	chart_rules(f, t);
	chart_levels(f, t);
	chart_dirs(f, r, t);
	chart_baseline(f, t);
}

static void select_box(FILE *f, const char *id, const char *label)
{
	fprintf(f, "<label>%s <select id=\"f-%s\"><option value=\"\">all</option>", label, id);
}

static void filter_form(FILE *f, const struct html_run *r, const struct tally *t)
{
	fputs("<form id=\"filter\" onsubmit=\"return false\">", f);
	select_box(f, "rule", "rule");
	for (int i = 0; i < NR_RULES; i++)
		if (t->rule[i])
			fprintf(f, "<option value=\"%s\">%s</option>", rules[i].id, rules[i].id);
	fputs("</select></label>\n", f);
	select_box(f, "level", "level");
	for (size_t i = 0; i < NR_LEVELS; i++)
		if (t->level[i])
			fprintf(f, "<option>%s</option>", level_names[i]);
	fputs("</select></label>\n", f);
	select_box(f, "dir", "directory");
	for (size_t i = 0; i < r->ndirs; i++) {
		fprintf(f, "<option value=\"%zu\">", i);
		html_text(f, r->dirs[i]);
		fputs("</option>", f);
	}
	fputs("</select></label></form>\n", f);
}

static void pager(FILE *f, size_t pages, size_t current)
{
	char name[32];

	if (pages < 2)
		return;
	fputs("<nav class=\"pager\">pages: ", f);
	for (size_t k = 1; k <= pages; k++) {
		list_page_name(name, sizeof(name), k);
		if (k == current)
			fprintf(f, "<b>%zu</b> ", k);
		else
			fprintf(f, "<a class=\"page\" href=\"%s\">%zu</a> ", name, k);
	}
	fputs("</nav>\n", f);
}

static void row(FILE *f, const struct html_run *r, size_t i)
{
	const struct finding *x = r->list[i];
	const char *level = finding_level(x);

	fprintf(f, "<tr class=\"finding\" data-rule=\"%s\" data-level=\"", rules[x->rule].id);
	html_text(f, level);
	fprintf(f, "\" data-dir=\"%u\"><td class=\"id\"><a href=\"f/%zu.html\">%s</a></td>"
		"<td class=\"level level-", r->dir_of[i], i + 1, rules[x->rule].id);
	html_text(f, level);
	fputs("\">", f);
	html_text(f, level);
	fputs("</td><td class=\"where\">", f);
	html_text(f, shown_path(r, x->loc.path));
	fprintf(f, ":%u</td><td class=\"msg\">", x->loc.line);
	html_text(f, x->message);
	fprintf(f, "</td><td class=\"state\">%s</td></tr>\n",
		x->baseline ? baseline_names[x->baseline] : "");
}

static int list_page(struct html_run *r, const struct tally *t, size_t k, size_t pages,
		     char **err)
{
	size_t from = (k - 1) * PER_PAGE, to = from + PER_PAGE < r->n ? from + PER_PAGE : r->n;
	struct page p;
	char name[32], *title = xasprintf("charscan report, page %zu of %zu", k, pages);

	list_page_name(name, sizeof(name), k);
	if (page_open(&p, r->dir, name, r->input, title, 0, err)) {
		free(title);
		return -1;
	}
	free(title);
	if (k == 1)
		summary(p.f, r, t);
	else
		fputs("<p><a class=\"page\" href=\"index.html\">summary</a></p>\n", p.f);
	fprintf(p.f, "<h2 id=\"findings\">Findings %zu&ndash;%zu of %zu</h2>\n", from + !!to, to,
		r->n);
	filter_form(p.f, r, t);
	pager(p.f, pages, k);
	fprintf(p.f, "<p><span id=\"shown\">%zu</span> shown on this page.</p>\n"
		"<table id=\"list\"><tr><th>rule</th><th>level</th><th>where</th><th>message</th>"
		"<th>baseline</th></tr>\n", to - from);
	for (size_t i = from; i < to; i++)
		row(p.f, r, i);
	fputs("</table>\n", p.f);
	pager(p.f, pages, k);
	fputs(filter_script, p.f);
	return page_close(&p, err);
}

int write_index(struct html_run *r, char **err)
{
	struct tally t = { 0 };
	size_t pages = r->n ? (r->n + PER_PAGE - 1) / PER_PAGE : 1;
	int rc = 0;

	count(r, &t);
	/* index.html last: it never links to a page not yet written. */
	for (size_t k = pages; k >= 1 && !rc; k--)
		rc = list_page(r, &t, k, pages, err);
	free(t.dir);
	free(t.first);
	free(t.last);
	return rc;
}
