/*
 * --baseline: the earlier report's findings (read back by sarif-read.c)
 * matched to this scan's by rule and fingerprint, two passes (see
 * baseline.h); what is absent now moved from the baseline's source root
 * to this scan's.
 */
#include <stdlib.h>
#include <string.h>
#include "baseline.h"
#include "core/core.h"

/* old's unmatched finding x matches by fingerprint or context; an
 * absent result of the baseline is history, not a finding. */
static struct finding *match(struct findings *old, char *matched, const struct finding *x,
			     int by_context)
{
	const char *fp = by_context ? x->context_fp : x->fingerprint;

	for (size_t i = 0; i < old->len; i++) {
		const struct finding *o = &old->v[i];
		const char *ofp = by_context ? o->context_fp : o->fingerprint;

		if (!matched[i] && o->baseline != BASELINE_ABSENT && *ofp &&
		    !strcmp(ofp, fp) && o->rule == x->rule) {
			matched[i] = 1;
			return &old->v[i];
		}
	}
	return NULL;
}

static int unmatched(const struct finding *x, void *arg)
{
	const char **matched = arg;

	return x->baseline != BASELINE_ABSENT && !*(*matched)++;
}

void baseline_apply(struct findings *old, struct findings *f, struct findings *absent)
{
	char *matched = xcalloc(old->len + 1, 1);
	const char *cursor = matched;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < f->len; i++) {
			struct finding *x = &f->v[i], *o;

			if (x->baseline || !(o = match(old, matched, x, pass)))
				continue;
			x->baseline = pass == 0 && !strcmp(o->message, x->message) ?
				BASELINE_UNCHANGED : BASELINE_UPDATED;
		}
	for (size_t i = 0; i < f->len; i++)
		if (!f->v[i].baseline)
			f->v[i].baseline = BASELINE_NEW;
	findings_filter(old, unmatched, &cursor);
	for (size_t i = 0; i < old->len; i++)
		old->v[i].baseline = BASELINE_ABSENT;
	findings_move(absent, old);
	free(matched);
}

/* from/rest -> to/rest; a path outside from stays as it is. */
static void rebase_path(char **path, const char *from, const char *to)
{
	size_t n = strlen(from);
	const char *rest;
	char *moved;

	if (!*path || strncmp(*path, from, n))
		return;
	rest = *path + n;
	if (*rest != '/' && !(n && from[n - 1] == '/'))
		return;
	rest += *rest == '/';
	moved = xasprintf("%s%s%s", to, *to && to[strlen(to) - 1] == '/' ? "" : "/", rest);
	free(*path);
	*path = moved;
}

void baseline_rebase(struct findings *old, const char *from, const char *to)
{
	/* "/": the baseline had no %SRCROOT%, its paths are its own. */
	if (!strcmp(from, to) || !strcmp(from, "/"))
		return;
	for (size_t i = 0; i < old->len; i++) {
		struct finding *x = &old->v[i];

		rebase_path(&x->loc.path, from, to);
		for (int r = 0; r < x->nrelated; r++)
			rebase_path(&x->related[r].loc.path, from, to);
		if (x->has_fix)
			rebase_path(&x->fix.loc.path, from, to);
	}
}
