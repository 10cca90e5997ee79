/*
 * charscan fix REPORT.sarif: the report's fixes written into the source
 * tree; with --dry-run printed as a diff instead, with --patches DIR
 * written as mails, one per subsystem (patchmail.c).
 *
 * A report is trusted with nothing (fixguard.c): a fix outside the tree,
 * or one that is not charscan's own change, is refused and then nothing
 * is written at all.  A fix is applied only where the tree still reads
 * as it did when it was scanned: the finding's line must equal its snippet, and the bytes a fix
 * replaces must be the ones it names.  A file where either differs is
 * refused, with every fix in it, and the other files go on.  Files are
 * replaced atomically, keeping their mode.  A declaration's trailing
 * comment keeps its column when the type grows ("char" -> "signed char"
 * in a tab-aligned struct), as a kernel developer would write the patch.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "fix.h"
#include "fixguard.h"
#include "patchmail.h"
#include "sarif/sarif.h"
#include "udiff.h"

#define TAB 8

/* Bytes [start, end) of a file replaced by text. */
struct edit {
	size_t start, end;
	char *text;
	const struct finding *x;	/* NULL: a comment's realignment */
};

/* Was this line what the scan saw?  A long line's snippet is a window
 * of it between "..." marks. */
static int snippet_matches(const char *line, size_t len, const char *snippet)
{
	size_t n = strlen(snippet);

	if (n == len && !memcmp(line, snippet, n))
		return 1;
	if (n > 3 && !strncmp(snippet, "...", 3))
		snippet += 3, n -= 3;
	if (n > 3 && !strcmp(snippet + n - 3, "..."))
		n -= 3;
	return n < len && memmem(line, len, snippet, n) != NULL;
}

static unsigned width(const char *s, size_t n, unsigned col)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\t')
			col = (col / TAB + 1) * TAB;
		else if (((unsigned char)s[i] & 0xc0) != 0x80)
			col++;
	}
	return col;
}

/*
 * The white space before a trailing comment, re-made so that the comment
 * keeps its column once [c0, c1) of the line reads text: 1 and the edit
 * (offsets in the line), or 0 when nothing after the fix is a
 * tab-aligned comment or it cannot keep its column.
 */
static int realign(const char *line, size_t len, size_t c0, size_t c1, const char *text,
		   struct edit *e)
{
	const char *c = NULL;
	size_t ws, at;
	unsigned target, col;
	char *out;

	for (size_t i = c1; i + 1 < len && !c; i++)
		if (line[i] == '/' && (line[i + 1] == '*' || line[i + 1] == '/'))
			c = line + i;
	if (!c)
		return 0;
	at = c - line;
	for (ws = at; ws > c1 && (line[ws - 1] == ' ' || line[ws - 1] == '\t');)
		ws--;
	if (ws == at || !memchr(line + ws, '\t', at - ws))
		return 0;
	target = width(line, at, 0);
	col = width(line + c1, ws - c1, width(text, strlen(text), width(line, c0, 0)));
	if (col >= target)
		return 0;
	e->text = out = xmalloc(target - col + 1);
	while ((col / TAB + 1) * TAB <= target) {
		*out++ = '\t';
		col = (col / TAB + 1) * TAB;
	}
	for (; col < target; col++)
		*out++ = ' ';
	*out = '\0';
	e->start = ws;
	e->end = at;
	e->x = NULL;
	return 1;
}

struct fix_run {
	struct filecache src;
	struct sarif_in in;
	struct fix_tree tree;
	const struct options *o;
	unsigned applied, refused, hostile;
};

/* The finding still stands where it was found, and its fix's bytes are
 * there: 0 and their offsets in the file, or -1 with a notice on stderr. */
static int still_there(struct fix_run *r, const struct finding *x, size_t *start, size_t *end)
{
	const char *line, *buf;
	size_t len, flen;

	line = filecache_line(&r->src, x->loc.path, x->loc.line, &len);
	if (!line || !snippet_matches(line, len, x->snippet)) {
		complain("fix: %s:%u changed since the scan; not fixing [%s]",
			 relative_path(x->loc.path, r->in.srcroot), x->loc.line, rules[x->rule].id);
		return -1;
	}
	buf = filecache_get(&r->src, x->fix.loc.path, &flen);
	line = filecache_line(&r->src, x->fix.loc.path, x->fix.loc.line, &len);
	if (line && x->fix.loc.end_line == x->fix.loc.line) {
		*start = (line - buf) + ucol_byte(line, len, x->fix.loc.ucol);
		*end = (line - buf) + ucol_byte(line, len, x->fix.loc.end_ucol);
		if (*end >= *start && strlen(x->fix.deleted) == *end - *start &&
		    !memcmp(buf + *start, x->fix.deleted, *end - *start) &&
		    fix_whole_token(line, len, *start - (line - buf), *end - (line - buf)))
			return 0;
	}
	complain("fix: %s:%u no longer reads as the fix expects; not fixing [%s]",
		 relative_path(x->fix.loc.path, r->in.srcroot), x->fix.loc.line, rules[x->rule].id);
	return -1;
}

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* One file: its fixes (selected[0..n), all in it) as edits, then the new
 * text.  -1 if the file is refused. */
static int fix_file(struct fix_run *r, const struct finding **sel, size_t n,
		    struct fixed_file *ff)
{
	struct edit *e = xcalloc(2 * n + 1, sizeof(*e));
	size_t ne = 0, len, pos = 0, o = 0;
	const char *old = filecache_get(&r->src, sel[0]->fix.loc.path, &len);
	int rc = 0;

	for (size_t i = 0; i < n && old; i++) {
		const char *line;
		size_t ll, lo, s, t;

		if (still_there(r, sel[i], &s, &t)) {
			rc = -1;
			break;
		}
		e[ne++] = (struct edit){ s, t, xstrdup(sel[i]->fix.text), sel[i] };
		line = filecache_line(&r->src, sel[i]->fix.loc.path, sel[i]->fix.loc.line, &ll);
		lo = line - old;
		if (realign(line, ll, s - lo, t - lo, sel[i]->fix.text, &e[ne])) {
			e[ne].start += lo;
			e[ne++].end += lo;
		}
	}
	if (!old || rc) {
		if (!old)
			complain("fix: cannot read %s", sel[0]->fix.loc.path);
		r->refused += n;
		rc = -1;
		goto out;
	}
	qsort(e, ne, sizeof(*e), cmp_edit);
	ff->path = sel[0]->fix.loc.path;
	ff->old = old;
	ff->old_len = len;
	ff->new = xmalloc(len + 1);
	for (size_t i = 0; i < ne; i++) {
		size_t add = strlen(e[i].text);

		/* The same fix twice (two findings, one declaration) once;
		 * a different edit of the same bytes loses. */
		if (e[i].start < pos) {
			if (e[i].x && !(i && e[i - 1].start == e[i].start && e[i - 1].end == e[i].end &&
					!strcmp(e[i - 1].text, e[i].text)))
				complain("fix: %s:%u overlaps another fix; not fixing [%s]",
					 relative_path(ff->path, r->in.srcroot), e[i].x->fix.loc.line,
					 rules[e[i].x->rule].id);
			continue;
		}
		ff->new = xrealloc(ff->new, o + (e[i].start - pos) + add + (len - e[i].end) + 1);
		memcpy(ff->new + o, old + pos, e[i].start - pos);
		o += e[i].start - pos;
		memcpy(ff->new + o, e[i].text, add);
		o += add;
		pos = e[i].end;
	}
	memcpy(ff->new + o, old + pos, len - pos);
	ff->new_len = o + len - pos;
	ff->findings = sel;
	ff->nfindings = n;
	r->applied += n;
out:
	for (size_t i = 0; i < ne; i++)
		free(e[i].text);
	free(e);
	return rc;
}

static int write_file(const struct fixed_file *ff)
{
	struct output out;
	char *err = NULL;

	if (output_open(&out, ff->path, &err) == 0) {
		fwrite(ff->new, 1, ff->new_len, out.f);
		if (output_commit(&out, &err) == 0)
			return 0;
	}
	complain("fix: %s", err);
	free(err);
	return -1;
}

static int wanted(const struct finding *x, const struct options *o)
{
	return x->has_fix && !x->pass && !x->suppressed && x->baseline != BASELINE_ABSENT &&
	       o->engine.enabled[x->rule];
}

static int cmp_fix_place(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding *const *)a;
	const struct finding *y = *(const struct finding *const *)b;
	int c = strcmp(x->fix.loc.path, y->fix.loc.path);

	if (c)
		return c;
	if (x->fix.loc.line != y->fix.loc.line)
		return x->fix.loc.line < y->fix.loc.line ? -1 : 1;
	return finding_cmp(x, y);
}

/* Every selected fix, file by file, into files[]. */
static size_t fix_all(struct fix_run *r, const struct finding **sel, size_t n,
		      struct fixed_file *files)
{
	size_t nf = 0;

	qsort(sel, n, sizeof(*sel), cmp_fix_place);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(sel[j]->fix.loc.path, sel[i]->fix.loc.path);)
			j++;
		memset(&files[nf], 0, sizeof(files[nf]));
		if (fix_file(r, sel + i, j - i, &files[nf]) == 0)
			nf++;
	}
	return nf;
}

static int emit(struct fix_run *r, struct fixed_file *files, size_t nf)
{
	const struct options *o = r->o;
	struct diffstat st = { 0 };
	int rc = 0;

	if (o->patches)
		return patchmail_write(o->patches, r->in.srcroot, files, nf);
	for (size_t i = 0; i < nf; i++) {
		if (o->dry_run)
			udiff(stdout, relative_path(files[i].path, r->in.srcroot), files[i].old,
			      files[i].old_len, files[i].new, files[i].new_len, &st);
		else if (write_file(&files[i])) {
			r->applied -= files[i].nfindings;
			r->refused += files[i].nfindings;
			rc = -1;
		}
	}
	return rc;
}

/* A path of the report moved to the file fix may touch (taken), or -1:
 * gone since the scan (refused like a changed file), or refused as no
 * file of the tree (hostile: nothing will be written). */
static int resolve(struct fix_run *r, const struct finding *x, char **path)
{
	const char *why;
	int gone;
	char *real = fix_tree_resolve(&r->tree, *path, &why, &gone);

	if (real) {
		free(*path);
		*path = real;
		return 0;
	}
	complain("fix: %s result at %s:%u refused: %s", rules[x->rule].id,
		 relative_path(*path, r->tree.report_root), x->loc.line, why);
	if (gone)
		r->refused++;
	else
		r->hostile++;
	return -1;
}

/* Each selected fix checked against what a report may ask (fixguard.c);
 * those that stand are kept in sel, the count returned. */
static size_t guard(struct fix_run *r, struct finding **sel, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		struct finding *x = sel[i];
		const char *why = fix_shape(x);

		if (why) {
			complain("fix: %s result at %s:%u refused: %s", rules[x->rule].id,
				 relative_path(x->loc.path, r->tree.report_root), x->loc.line, why);
			r->hostile++;
			continue;
		}
		if (resolve(r, x, &x->loc.path) || resolve(r, x, &x->fix.loc.path))
			continue;
		sel[kept++] = x;
	}
	free(r->in.srcroot);
	r->in.srcroot = xstrdup(r->tree.real);
	return kept;
}

static const char *done_as(const struct options *o)
{
	return o->patches ? "written as patches" : o->dry_run ? "shown" : "applied";
}

int fix_command(const struct options *o)
{
	struct fix_run r = { .o = o };
	struct finding **sel = NULL;
	struct fixed_file *files = NULL;
	size_t n = 0, nf = 0;
	char *err = NULL;
	int rc = EXIT_USAGE;

	if (sarif_load(o->files[0], &r.in, &err) ||
	    fix_tree_open(&r.tree, o->srcroot, r.in.srcroot, &err)) {
		complain("%s", err);
		free(err);
		goto out;
	}
	sel = xcalloc(r.in.findings.len + 1, sizeof(*sel));
	for (size_t i = 0; i < r.in.findings.len; i++)
		if (wanted(&r.in.findings.v[i], o))
			sel[n++] = &r.in.findings.v[i];
	n = guard(&r, sel, n);
	if (r.hostile) {
		complain("fix: %u results of %s refused: nothing %s", r.hostile, o->files[0],
			 done_as(o));
		goto out;
	}
	files = xcalloc(n + 1, sizeof(*files));
	nf = fix_all(&r, (const struct finding **)sel, n, files);
	rc = emit(&r, files, nf) ? EXIT_USAGE : r.refused ? EXIT_INCOMPLETE : EXIT_CLEAN;
	fprintf(stderr, "charscan: fix: %u fixes in %zu files %s, %u refused\n", r.applied, nf,
		done_as(o), r.refused);
out:
	for (size_t i = 0; i < nf; i++)
		free(files[i].new);
	free(files);
	free(sel);
	filecache_free(&r.src);
	fix_tree_free(&r.tree);
	sarif_in_free(&r.in);
	return rc;
}
