/*
 * The SARIF and text writers' escaping.  Fields of any bytes (NUL-
 * separated: path, message, snippet, related message, fix text, notice,
 * source root) in a finding: the SARIF is JSON that sarif-read.c reads
 * back whole, and the text has exactly one line per finding, related
 * location and fix, whatever newlines the fields hold.
 */
#include <string.h>
#include "fuzz.h"
#include "sarif/sarif.h"
#include "report/report.h"
#include "core/core.h"

enum { PATH, MESSAGE, SNIPPET, RELATED, FIX, NOTICE, ROOT, NFIELDS };

static void split(const uint8_t *data, size_t size, char *field[NFIELDS])
{
	const char *p = (const char *)data, *end = p + size;

	for (int i = 0; i < NFIELDS; i++) {
		const char *nul = memchr(p, '\0', end - p);
		size_t n = nul ? (size_t)(nul - p) : (size_t)(end - p);

		field[i] = xstrndup(p, n);
		p += n + (nul != NULL);
	}
}

/* Paths are absolute in a scan; the root is one too. */
static char *absolute(const char *s)
{
	return s[0] == '/' ? xstrdup(s) : xasprintf("/%s", s);
}

static void make_finding(struct findings *f, char *field[NFIELDS], size_t size)
{
	struct finding *x = findings_add(f);

	x->rule = (enum rule_id)(size % NR_RULES);
	x->loc = (struct loc){ absolute(field[PATH]), 3, 5, 3, 9, 0, 0 };
	x->message = xstrdup(field[MESSAGE]);
	x->snippet = xstrdup(field[SNIPPET]);
	x->breaks = BREAKS_SIGNED;
	x->nrelated = 1;
	x->related[0] = (struct related){ { absolute(field[PATH]), 1, 1, 1, 2, 0, 0 },
					  xstrdup(field[RELATED]), "call" };
	x->has_fix = 1;
	x->fix = (struct fix){ .loc = { absolute(field[PATH]), 3, 5, 3, 6, 0, 0 },
			       .text = xstrdup(field[FIX]), .deleted = xstrdup(field[SNIPPET]),
			       .description = xstrdup(field[MESSAGE]) };
}

static size_t text_lines(const struct findings *f)
{
	char *text = NULL;
	size_t len = 0, lines = 0;
	FILE *out = open_memstream(&text, &len);

	write_text(out, f, "/", 0);
	fclose(out);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	fuzz_assert(len == 0 || text[len - 1] == '\n');
	free(text);
	return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *field[NFIELDS], *root, *dumped;
	struct findings f = { 0 };
	struct notices n = { 0 };
	struct filecache src = { 0 };
	struct sarif_in back;
	json_t *log, *again;
	char *err = NULL;

	split(data, size, field);
	root = absolute(field[ROOT]);
	make_finding(&f, field, size);
	notice_add(&n, "error", f.v[0].loc.path, "%s", field[NOTICE]);
	findings_finish(&f, root, &src);
	fuzz_assert(text_lines(&f) == 3);

	{
		struct sarif_run run = { root, "both", 0, &src, NULL, NULL };

		log = sarif_log(&f, &n, &run);
	}
	dumped = json_dumps(log, JSON_COMPACT);
	fuzz_assert(dumped);
	again = json_loads(dumped, JSON_REJECT_DUPLICATES, NULL);
	fuzz_assert(again && json_equal(again, log));
	fuzz_assert(sarif_from_json(again, "written", &back, &err) == 0);
	fuzz_assert(back.findings.len == 1 && back.notices.len == 1);
	fuzz_assert(back.findings.v[0].nrelated == 1 && back.findings.v[0].has_fix);
	sarif_in_free(&back);
	json_decref(again);
	json_decref(log);
	free(dumped);
	findings_free(&f);
	notices_free(&n);
	filecache_free(&src);
	free(root);
	for (int i = 0; i < NFIELDS; i++)
		free(field[i]);
	return 0;
}
