/*
 * gcc-style text: path:line:col: level: message [RULE], then a note line
 * per related location.  A newline in a file name or message would start
 * a line that editors read as another finding: fput_clean() writes
 * control bytes as \xNN.
 */
#include "text.h"
#include "core/core.h"

static void line(FILE *f, const struct loc *l, const char *base, const char *level,
		 const char *message, const char *id)
{
	fput_clean(f, relative_path(l->path, base));
	fprintf(f, ":%u:%u: %s: ", l->line, l->col, level);
	fput_clean(f, message);
	if (id)
		fprintf(f, " [%s]", id);
	fputc('\n', f);
}

void write_text(FILE *f, const struct findings *fs, const char *base, int only_new)
{
	for (size_t i = 0; i < fs->len; i++) {
		const struct finding *x = &fs->v[i];

		if (x->pass || x->suppressed || (only_new && x->baseline != BASELINE_NEW))
			continue;
		line(f, &x->loc, base, x->level, x->message, rules[x->rule].id);
		for (int r = 0; r < x->nrelated; r++)
			line(f, &x->related[r].loc, base, "note", x->related[r].message, NULL);
		if (x->has_fix)
			line(f, &x->fix.loc, base, "note", x->fix.description, NULL);
	}
}
