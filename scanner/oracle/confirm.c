/*
 * charscan confirm: the codegen oracle over a compile database, and a
 * scan report annotated with what it says.  Each result gets
 * properties.codegen:
 *   changed    instructions on its line, or a line next to it, differ
 *              between -fsigned-char and -funsigned-char (or next to the
 *              line of the macro invocation it is an argument of:
 *              properties.expandedAtLine, where debug info puts it)
 *   unchanged  there are instructions there, and they do not differ
 *   none       no instructions there (an initializer, a declaration)
 * A compiler extends a char once, where the function first reads it,
 * and reuses the register after: a result whose own lines did not
 * change is "changed" too when an earlier line of its function reads
 * the same operand and its change is an extension (movsb, movzb), or
 * when the line its char was widened at changed (the related location
 * of the assignment into the variable or field it reads, or of the
 * return as int), or when the compiler moved the observation: to a
 * later line of the function that reads the variable the result's
 * value is assigned to, or into the body of the function inlined there
 * that it is passed to (the related "parameter"), where a line reads
 * that parameter.  properties.codegenLine says which line.
 * And, with --changes, every changed line is written as a row of
 * "path, line, function, differing instructions" for make evaluate.
 */
#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codegen.h"
#include "input/input.h"
#include "confirm.h"
#include "core/core.h"
#include "sarif/sarif.h"
#include "report/report.h"

struct confirm {
	const struct options *o;
	struct compdb db;
	struct cg_opts cg;
	struct cg_lines *tu_lines;	/* one list per TU */
	struct notices *tu_notices;
	atomic_size_t failed;
	size_t skipped;			/* entries of the database not used */
	struct cg_lines lines;		/* all, finished */
	struct sarif_in report;
	struct filecache files;	/* for the text of earlier lines */
	char *err;
};

#define MAX_HOIST 40		/* lines an extension may move up */
#define MAX_BODY 200		/* lines searched for a moved observation */

static void confirm_tu(void *ctx, void *state, size_t i)
{
	struct confirm *c = ctx;
	const struct tu *tu = &c->db.tu[i];
	char *err = NULL;
	int rc;

	(void)state;
	rc = codegen_tu(tu, &c->cg, &c->tu_lines[i], &err);
	if (rc == SPAWN_LATE)
		notice_add(&c->tu_notices[i], "error", tu->file,
			   "%s: codegen oracle: TU skipped: %s; its compiler was killed",
			   tu->file, err);
	else if (rc)
		notice_add(&c->tu_notices[i], "warning", tu->file,
			   "%s: codegen oracle: does not compile: %s", tu->file, err);
	if (rc) {
		atomic_fetch_add(&c->failed, 1);
		free(err);
	}
}

static const char *verdict(const struct cg_lines *l, const char *path, unsigned line)
{
	const char *v = "none";

	for (unsigned d = 0; d < 3; d++) {
		unsigned at = d == 0 ? line : d == 1 ? line - 1 : line + 1;
		const struct cg_line *x = at ? cg_lines_find(l, path, at) : NULL;

		if (x && x->changed)
			return "changed";
		if (x && d == 0)
			v = "unchanged";
	}
	return v;
}

/* Does line text read operand, as a whole expression (flag, not flags)? */
static int reads_operand(const char *text, size_t len, const char *operand)
{
	size_t n = strlen(operand);

	for (const char *p = text; n && p + n <= text + len; p++) {
		int before = p > text ? (unsigned char)p[-1] : ' ';
		int after = p + n < text + len ? (unsigned char)p[n] : ' ';

		if (!memcmp(p, operand, n) && !isalnum(before) && before != '_' &&
		    !isalnum(after) && after != '_')
			return 1;
	}
	return 0;
}

/* The earlier line of f's function where its operand's extension
 * changed, or 0.  The function is the one around f's line: the code
 * inlined elsewhere is named after its caller, so the way up stops at
 * the end of the function before (a '}' in column 0, as the kernel and
 * most C code write it). */
static unsigned hoisted_to(struct confirm *c, const struct finding *f, const char *path)
{
	const char *text;
	size_t len;

	if (!f->operand)
		return 0;
	for (unsigned at = f->loc.line - 1; at > 0 && at + MAX_HOIST >= f->loc.line; at--) {
		const struct cg_line *x = cg_lines_find(&c->lines, path, at);

		if (!(text = filecache_line(&c->files, f->loc.path, at, &len)) ||
		    (len && text[0] == '}'))
			return 0;
		if (x && x->changed && x->detail &&
		    (strstr(x->detail, "movsb") || strstr(x->detail, "movzb")) &&
		    reads_operand(text, len, f->operand))
			return at;
	}
	return 0;
}

/* The line where f's char was widened into what its line reads (the
 * assignment of a variable or field, a return as int), if that line
 * changed; else 0. */
static unsigned widened_at(struct confirm *c, const struct finding *f)
{
	for (int i = 0; i < f->nrelated; i++) {
		const struct related *r = &f->related[i];
		char *path;
		int changed;

		if (strcmp(r->label, "assignment") && strcmp(r->label, "return"))
			continue;
		path = clean_path(xstrdup(r->loc.path));
		changed = !strcmp(verdict(&c->lines, cg_intern(path), r->loc.line), "changed");
		free(path);
		if (changed)
			return r->loc.line;
	}
	return 0;
}

/* The identifier that ends just before column col (1-based) of text, ignoring
 * blanks and one '=' (the variable an initializer or assignment sets),
 * when start is 0; the one that starts at col when start is 1. */
static int ident_near(const char *text, size_t len, unsigned col, int start,
		      char *buf, size_t size)
{
	size_t b, e = col ? col - 1 : 0;

	if (e > len)
		return 0;
	if (!start) {
		while (e && isspace((unsigned char)text[e - 1]))
			e--;
		if (!e || text[e - 1] != '=' || (e > 1 && strchr("=!<>+-*/%&|^", text[e - 2])))
			return 0;
		for (e--; e && isspace((unsigned char)text[e - 1]); e--)
			;
		for (b = e; b && (isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_'); b--)
			;
	} else {
		for (b = e; e < len && (isalnum((unsigned char)text[e]) || text[e] == '_'); e++)
			;
	}
	if (b == e || e - b >= size || isdigit((unsigned char)text[b]))
		return 0;
	memcpy(buf, text + b, e - b);
	buf[e - b] = 0;
	return 1;
}

/* The first line after `from`, up to the end of its function (a '}' in
 * column 0), that reads name and whose code changed in f's function:
 * the code inlined there is named after f's function.  Or 0. */
static unsigned read_later(struct confirm *c, const struct finding *f, const char *file,
			   unsigned from, const char *name)
{
	char *path = clean_path(xstrdup(file));
	const char *key = cg_intern(path), *text;
	unsigned found = 0;
	size_t len;

	free(path);
	for (unsigned at = from + 1; !found && at <= from + MAX_BODY; at++) {
		const struct cg_line *x = cg_lines_find(&c->lines, key, at);

		if (!(text = filecache_line(&c->files, file, at, &len)) || (len && text[0] == '}'))
			break;
		if (x && x->changed && x->function && f->function &&
		    !strcmp(x->function, f->function) && reads_operand(text, len, name))
			found = at;
	}
	return found;
}

/*
 * Where the compiler moved f's observation to: a comparison kept in a
 * variable (`bool neg = c < 0;`) is computed where the variable is
 * tested; a char passed to a function inlined here is extended where
 * its body reads the parameter.  The line, or 0.
 */
static unsigned moved_to(struct confirm *c, const struct finding *f)
{
	char name[128];
	const char *text;
	size_t len;

	if ((text = filecache_line(&c->files, f->loc.path, f->loc.line, &len)) &&
	    ident_near(text, len, f->loc.col, 0, name, sizeof(name)))
		return read_later(c, f, f->loc.path, f->loc.line, name);
	for (int i = 0; i < f->nrelated; i++) {
		const struct related *r = &f->related[i];
		unsigned at;

		if (strcmp(r->label, "parameter") ||
		    !(text = filecache_line(&c->files, r->loc.path, r->loc.line, &len)) ||
		    !ident_near(text, len, r->loc.col, 1, name, sizeof(name)))
			continue;
		if ((at = read_later(c, f, r->loc.path, r->loc.line, name)))
			return at;
	}
	return 0;
}

/* Each result gets its verdict; counts per verdict into n[3]. */
static void annotate(struct confirm *c, size_t n[3])
{
	static const char *const names[] = { "changed", "unchanged", "none" };
	struct findings *f = &c->report.findings;

	for (size_t i = 0; i < f->len; i++) {
		char *path = clean_path(xstrdup(f->v[i].loc.path));

		f->v[i].codegen = verdict(&c->lines, cg_intern(path), f->v[i].loc.line);
		if (strcmp(f->v[i].codegen, "changed") && f->v[i].expanded_line &&
		    !strcmp(verdict(&c->lines, cg_intern(path), f->v[i].expanded_line), "changed"))
			f->v[i].codegen = "changed";
		if (strcmp(f->v[i].codegen, "changed") &&
		    ((f->v[i].codegen_line = hoisted_to(c, &f->v[i], cg_intern(path))) ||
		     (f->v[i].codegen_line = widened_at(c, &f->v[i])) ||
		     (f->v[i].codegen_line = moved_to(c, &f->v[i]))))
			f->v[i].codegen = "changed";
		for (int j = 0; j < 3; j++)
			n[j] += !strcmp(f->v[i].codegen, names[j]);
		free(path);
	}
}

static int write_changes(struct confirm *c, const char *path)
{
	struct output out = { 0 };

	if (output_open(&out, path, &c->err))
		return -1;
	fputs("path\tline\tfunction\tinstructions\n", out.f);
	for (size_t i = 0; i < c->lines.len; i++) {
		const struct cg_line *x = &c->lines.v[i];

		if (x->changed)
			fprintf(out.f, "%s\t%u\t%s\t%s\n", x->path, x->line, x->function,
				x->detail ? x->detail : "");
	}
	return output_commit(&out, &c->err);
}

static size_t count_changed(const struct cg_lines *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->len; i++)
		n += l->v[i].changed;
	return n;
}

/* -o and --changes write over neither the database, the report, a
 * source file nor each other. */
static int outputs_are_not_inputs(struct confirm *c)
{
	const struct options *o = c->o;
	const char *outs[] = { o->out, o->changes };

	for (size_t i = 0; i < sizeof(outs) / sizeof(*outs); i++) {
		const char *named[] = { c->db.path, o->files[o->nfiles - 1], outs[!i] };
		int clash = 0;

		for (size_t k = 0; k < sizeof(named) / sizeof(*named); k++)
			clash |= output_names(outs[i], named[k]);
		for (size_t k = 0; k < c->db.len; k++)
			clash |= output_names(outs[i], c->db.tu[k].file);
		if (clash) {
			c->err = xasprintf("will not write %s: it is an input of confirm", outs[i]);
			return -1;
		}
	}
	return 0;
}

static int run_confirm(struct confirm *c, struct output *out)
{
	const struct options *o = c->o;
	struct notices notes = { 0 };
	struct pool_work w = { 0 };
	size_t n[3] = { 0 };
	json_t *log;
	int rc;

	if (compdb_load(o->db, &c->db, &notes, &c->err) ||
	    outputs_are_not_inputs(c) ||
	    (o->nfiles > 1 && compdb_select(&c->db, o->files, o->nfiles - 1, &c->err))) {
		notices_free(&notes);
		return EXIT_USAGE;
	}
	c->skipped = notes.len;		/* malformed entries: all errors */
	if (c->cg.cache_dir && (c->err = cache_dir_unusable(c->cg.cache_dir))) {
		notices_free(&notes);
		return EXIT_USAGE;
	}
	c->tu_lines = xcalloc(c->db.len, sizeof(*c->tu_lines));
	c->tu_notices = xcalloc(c->db.len, sizeof(*c->tu_notices));
	w = (struct pool_work){ .n = c->db.len, .jobs = o->jobs, .unit = "TUs",
				.label = !o->quiet && isatty(2) ? "CONFIRM" : NULL,
				.ctx = c, .item = confirm_tu };
	pool_run(&w);
	for (size_t i = 0; i < c->db.len; i++) {
		cg_lines_move(&c->lines, &c->tu_lines[i]);
		notices_move(&notes, &c->tu_notices[i]);
	}
	cg_lines_finish(&c->lines);
	annotate(c, n);
	for (size_t i = 0; i < notes.len; i++)
		complain("%s: %s", notes.v[i].level, notes.v[i].message);
	c->report.complete &= !atomic_load(&c->failed) && !c->skipped;
	notices_move(&c->report.notices, &notes);
	if (o->changes && write_changes(c, o->changes))
		return EXIT_USAGE;
	log = sarif_in_log(&c->report);
	rc = sarif_dump(log, out, &c->err);
	json_decref(log);
	if (rc)
		return EXIT_USAGE;
	if (!o->quiet)
		fprintf(stderr, "charscan confirm: %zu TUs, %zu failed, %zu entries skipped, "
			"%zu changed lines; results: %zu changed, %zu unchanged, %zu none\n",
			c->db.len, atomic_load(&c->failed), c->skipped, count_changed(&c->lines),
			n[0], n[1], n[2]);
	return atomic_load(&c->failed) || c->skipped ? EXIT_INCOMPLETE : EXIT_CLEAN;
}

int confirm_command(const struct options *o)
{
	struct confirm c = { .o = o, .cg = { o->compiler, o->cache,
					     { o->tu_timeout, o->tu_memory } } };
	struct output out = { 0 };
	int rc = EXIT_USAGE;

	if (output_open(&out, o->out, &c.err) == 0 &&
	    sarif_load(o->files[o->nfiles - 1], &c.report, &c.err) == 0)
		rc = run_confirm(&c, &out);
	if (rc == EXIT_USAGE)
		complain("%s", c.err ? c.err : "failed");
	output_abort(&out);
	for (size_t i = 0; c.tu_lines && i < c.db.len; i++)
		cg_lines_free(&c.tu_lines[i]);
	free(c.tu_lines);
	free(c.tu_notices);
	cg_lines_free(&c.lines);
	cg_intern_free();
	filecache_free(&c.files);
	compdb_free(&c.db);
	sarif_in_free(&c.report);
	free(c.err);
	return rc;
}
