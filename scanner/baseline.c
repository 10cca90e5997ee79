#include <stdlib.h>
#include <string.h>
#include "baseline.h"
#include "sarif.h"
#include "util.h"

struct old_result {
	json_t *json;
	const char *rule, *fp, *context_fp, *message;
	int matched;
};

static size_t old_results(json_t *log, struct old_result **out)
{
	json_t *runs = json_object_get(log, "runs");
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t r = 0; r < json_array_size(runs); r++) {
		json_t *results = json_object_get(json_array_get(runs, r), "results");

		for (size_t i = 0; i < json_array_size(results); i++) {
			json_t *x = json_array_get(results, i);

			/* An absent result of the baseline is history, not a finding. */
			if (!strcmp(sarif_str(x, "baselineState"), "absent"))
				continue;
			grow(out, &cap, n + 1, sizeof(**out));
			(*out)[n++] = (struct old_result) {
				x, sarif_str(x, "ruleId"),
				sarif_str(x, "partialFingerprints.charscan/v1"),
				sarif_str(x, "partialFingerprints.charscan/context/v1"),
				sarif_str(x, "message.text"), 0,
			};
		}
	}
	return n;
}

static struct old_result *match(struct old_result *old, size_t n, const struct finding *x,
				int by_context)
{
	const char *fp = by_context ? x->context_fp : x->fingerprint;

	for (size_t i = 0; i < n; i++) {
		const char *ofp = by_context ? old[i].context_fp : old[i].fp;

		if (!old[i].matched && *ofp && !strcmp(ofp, fp) &&
		    !strcmp(old[i].rule, rules[x->rule].id))
			return &old[i];
	}
	return NULL;
}

void baseline_apply(json_t *log, struct findings *f, json_t **absent)
{
	struct old_result *old;
	size_t n = old_results(log, &old);

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < f->len; i++) {
			struct finding *x = &f->v[i];
			struct old_result *o;

			char *message;

			if (x->baseline || !(o = match(old, n, x, pass)))
				continue;
			o->matched = 1;
			message = sarif_message(x);
			x->baseline = pass == 0 && !strcmp(o->message, message) ?
				BASELINE_UNCHANGED : BASELINE_UPDATED;
			free(message);
		}
	*absent = json_array();
	for (size_t i = 0; i < f->len; i++)
		if (!f->v[i].baseline)
			f->v[i].baseline = BASELINE_NEW;
	for (size_t i = 0; i < n; i++) {
		json_t *gone;

		if (old[i].matched)
			continue;
		gone = json_deep_copy(old[i].json);
		json_object_set_new(gone, "baselineState", json_string("absent"));
		if (rule_lookup(old[i].rule) >= 0)
			json_object_set_new(gone, "ruleIndex", json_integer(rule_lookup(old[i].rule)));
		else
			json_object_del(gone, "ruleIndex");
		json_array_append_new(*absent, gone);
	}
	free(old);
}
