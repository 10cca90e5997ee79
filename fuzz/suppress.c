/*
 * charscan-ignore comments.  Any source bytes, a finding of some rule on
 * every line: no crash, no leak, and a finding is only suppressed when
 * its line or the line before holds the mark.
 */
#include <string.h>
#include "core/core.h"
#include "fuzz.h"
#include "report/report.h"

static int line_has_mark(struct filecache *src, const char *path, unsigned line)
{
	size_t len, mlen = strlen(SUPPRESS_MARK);
	const char *p = line ? filecache_line(src, path, line, &len) : NULL;

	for (size_t i = 0; p && i + mlen <= len; i++)
		if (!memcmp(p + i, SUPPRESS_MARK, mlen))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("s.c", data, size);
	struct findings f = { 0 };
	struct notices notes = { 0 };
	struct filecache src = { 0 };
	unsigned lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* One past the end too: a finding on a line the file lacks. */
	for (unsigned l = 1; l <= lines + 1 && l <= 256; l++) {
		struct finding *x = findings_add(&f);

		x->rule = (enum rule_id)(l % NR_RULES);
		x->loc = (struct loc){ xstrdup(path), l, 1, l, 2, 0, 0 };
		x->message = xstrdup("m");
		x->level = rules[x->rule].level;
	}
	suppress_in_source(&f, &src, &notes);
	for (size_t i = 0; i < f.len; i++)
		if (f.v[i].suppressed)
			fuzz_assert(line_has_mark(&src, path, f.v[i].loc.line) ||
				    line_has_mark(&src, path, f.v[i].loc.line - 1));
	findings_free(&f);
	notices_free(&notes);
	filecache_free(&src);
	return 0;
}
