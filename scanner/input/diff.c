#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diff.h"
#include "core/core.h"

/* git's C-quoted path ("a\tb") or plain path, up to the end of line. */
static char *diff_path(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	if (n < 2 || s[0] != '"') {
		memcpy(out, s, n);
		out[n] = '\0';
		return out;
	}
	for (size_t i = 1; i < n && s[i] != '"'; i++) {
		static const char esc[] = "a\ab\bt\tn\nv\vf\fr\r\"\"\\\\";
		const char *e;

		if (s[i] != '\\' || i + 1 >= n) {
			*o++ = s[i];
		} else if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3') {
			*o++ = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 3;
		} else if ((e = strchr(esc, s[i + 1])) && (e - esc) % 2 == 0) {
			*o++ = e[1];
			i++;
		} else {
			*o++ = s[++i];
		}
	}
	*o = '\0';
	return out;
}

static struct changed_file *add_file(struct changes *ch, char *rel)
{
	struct changed_file *c;

	grow(&ch->v, &ch->cap, ch->len + 1, sizeof(*ch->v));
	c = &ch->v[ch->len++];
	memset(c, 0, sizeof(*c));
	c->path = clean_path(join_path(ch->top, rel));
	free(rel);
	return c;
}

/* "@@ -a,b +c,d @@": lines c .. c+d-1 of the new file. */
static void add_hunk(struct changed_file *c, const char *line)
{
	const char *plus = strstr(line, " +");
	unsigned long first, count = 1;
	char *end;

	if (!c || !plus)
		return;
	first = strtoul(plus + 2, &end, 10);
	if (*end == ',')
		count = strtoul(end + 1, NULL, 10);
	if (!count)
		return;		/* lines only removed: nothing to report on */
	grow(&c->v, &c->cap, c->len + 1, sizeof(*c->v));
	c->v[c->len++] = (struct line_range) { (unsigned)first, (unsigned)(first + count - 1) };
}

static void parse_diff(struct changes *ch, const char *buf, size_t len)
{
	struct changed_file *cur = NULL;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		size_t n = (eol ? eol : end) - p;

		/* git ends a name holding a space with a tab, for patch(1). */
		if (n > 4 && !strncmp(p, "+++ ", 4) && p[n - 1] == '\t')
			n--;
		if (n > 4 && !strncmp(p, "+++ ", 4))
			cur = strncmp(p + 4, "/dev/null", 9) ? add_file(ch, diff_path(p + 4, n - 4)) : NULL;
		else if (n > 2 && !strncmp(p, "@@", 2))
			add_hunk(cur, p);
		p = eol ? eol + 1 : end;
	}
}

int diff_load(const char *rev, const char *dir, struct changes *ch, char **err)
{
	char *top_argv[] = { "git", "-C", (char *)dir, "rev-parse", "--show-toplevel", NULL };
	char *diff_argv[] = { "git", "-C", NULL, "-c", "core.quotePath=false", "diff",
		"--no-color", "--no-ext-diff", "--no-prefix", "--unified=0",
		"--diff-filter=d", (char *)rev, "--", NULL };
	char *out;
	size_t len;

	memset(ch, 0, sizeof(*ch));
	if (rev[0] == '-') {
		*err = xasprintf("--diff takes a revision, not '%s'", rev);
		return -1;
	}
	if (spawn_capture(top_argv, NULL, &out, &len, NULL, err))
		return -1;
	while (len && isspace((unsigned char)out[len - 1]))
		len--;
	ch->top = xstrndup(out, len);
	free(out);
	diff_argv[2] = ch->top;
	if (spawn_capture(diff_argv, NULL, &out, &len, NULL, err))
		return -1;
	parse_diff(ch, out, len);
	free(out);
	return 0;
}

static const struct changed_file *changed(const struct changes *ch, const char *path)
{
	for (size_t i = 0; i < ch->len; i++)
		if (!strcmp(ch->v[i].path, path))
			return &ch->v[i];
	return NULL;
}

/* ---- which TUs ------------------------------------------------------- */

/* Make-style dependency file (gcc -MD) or kbuild's .o.cmd after fixdep:
 * every word that is a changed file counts; the rest is harmless. */
static int deps_touch(const char *depfile, const struct tu *tu, const struct changes *ch,
		      int *found)
{
	const char *why;
	char *save = NULL;
	size_t len;
	/* Named by the database or the tree: a FIFO or a link to /dev/zero
	 * is no dependency file (read_input refuses it at once). */
	char *buf = read_input(depfile, LIMIT_SOURCE, &len, &why);
	int hit = 0;

	if (!buf)
		return 0;
	*found = 1;
	for (char *w = strtok_r(buf, " \t\n\\", &save); w && !hit; w = strtok_r(NULL, " \t\n\\", &save)) {
		size_t n = strlen(w);

		if (strchr(w, '$') || strchr(w, '=') || w[0] == '-')
			continue;
		if (n && w[n - 1] == ':')
			w[n - 1] = '\0';
		if (*w) {
			char *p = clean_path(join_path(tu->directory, w));

			hit = changed(ch, p) != NULL;
			free(p);
		}
	}
	free(buf);
	return hit;
}

/* Where a TU's dependency list may be: -MF/-Wp,-MD,FILE; OBJ.d beside
 * -o OBJ (gcc -MD); kbuild's DIR/.OBJ.cmd. */
static int tu_touched(const struct tu *tu, const struct changes *ch, int *found)
{
	char *cand[3] = { NULL, NULL, NULL };
	int hit = 0;

	if (tu->depfile)
		cand[0] = xstrdup(tu->depfile);
	if (tu->output) {
		const char *slash = strrchr(tu->output, '/'), *dot = strrchr(tu->output, '.');
		size_t stem = dot && dot > slash ? (size_t)(dot - tu->output) : strlen(tu->output);

		cand[1] = xasprintf("%.*s.d", (int)stem, tu->output);
		cand[2] = xasprintf("%.*s.%s.cmd", (int)(slash - tu->output + 1), tu->output,
				    slash + 1);
	}
	for (int i = 0; i < 3 && !hit; i++)
		if (cand[i])
			hit = deps_touch(cand[i], tu, ch, found);
	for (int i = 0; i < 3; i++)
		free(cand[i]);
	return hit;
}

struct select_ctx {
	const struct changes *ch;
	int header_changed;
	const struct dep_source *src;
	struct diff_counts *counts;
};

struct listed {
	const struct changes *ch;
	int hit;
};

static void listed_dep(const char *path, void *arg)
{
	struct listed *l = arg;
	char *real = clean_path(xstrdup(path));	/* as git's paths: links resolved */

	l->hit |= changed(l->ch, real) != NULL;
	free(real);
}

static int is_header(const char *path)
{
	static const char *const exts[] = { ".h", ".hh", ".hpp", ".inc", ".def", ".inl" };
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcmp(dot, exts[i]))
			return 1;
	return 0;
}

static int keep_touched(const struct tu *tu, void *arg)
{
	struct select_ctx *s = arg;
	int found = 0;

	if (changed(s->ch, tu->file))
		return 1;
	if (!s->header_changed)
		return 0;
	if (tu_touched(tu, s->ch, &found))
		return 1;
	if (!found && s->src) {
		struct listed l = { s->ch, 0 };

		if (!s->src->list(tu, s->src->arg, listed_dep, &l)) {
			s->counts->from_source++;
			return l.hit;
		}
	}
	/* No dependency list: it may include the changed header. */
	if (!found)
		s->counts->without_deps++;
	return !found;
}

void diff_select(struct compdb *db, const struct changes *ch, const struct dep_source *src,
		 struct diff_counts *counts)
{
	struct select_ctx s = { ch, 0, src, counts };

	memset(counts, 0, sizeof(*counts));
	for (size_t i = 0; i < ch->len; i++)
		if (is_header(ch->v[i].path))
			s.header_changed = 1;
	compdb_filter(db, keep_touched, &s);
}

/* ---- which findings ------------------------------------------------- */

static int on_changed_line(const struct finding *x, void *arg)
{
	const struct changed_file *c = changed(arg, x->loc.path);

	for (size_t i = 0; c && i < c->len; i++)
		if (x->loc.line >= c->v[i].first && x->loc.line <= c->v[i].last)
			return 1;
	return 0;
}

void diff_filter(struct findings *f, const struct changes *ch)
{
	findings_filter(f, on_changed_line, (void *)ch);
}

void changes_free(struct changes *ch)
{
	for (size_t i = 0; i < ch->len; i++) {
		free(ch->v[i].path);
		free(ch->v[i].v);
	}
	free(ch->v);
	free(ch->top);
	memset(ch, 0, sizeof(*ch));
}
