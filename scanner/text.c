#include "text.h"

/* A newline in a file name or message would start a line that editors
 * read as another finding: control bytes are written as \xNN. */
void put_clean(FILE *f, const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
}

static void line(FILE *f, const struct loc *l, const char *base, const char *level,
		 const char *message, const char *id)
{
	put_clean(f, relative_path(l->path, base));
	fprintf(f, ":%u:%u: %s: ", l->line, l->col, level);
	put_clean(f, message);
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
