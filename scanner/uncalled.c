/*
 * Static functions of the main file nothing refers to: no call, no
 * address taken, so the compiler makes no code of them and nothing runs
 * them.
 * The kernel writes such functions on purpose, as compile-time checks
 * (trace_export.c's __always_unused ____ftrace_check_<event>(), which
 * hands each trace format and its arguments to printk() so that the
 * compiler checks them): what they say of a char is never executed.
 * Their findings are passes with --explain, and dropped without.
 */
#include <stdlib.h>
#include "util.h"
#include "walk.h"

struct uncalled {
	CXCursor fn;
	size_t from, to;	/* its findings: walk.out->v[from..to) */
};

static CXFile main_file(CXTranslationUnit tu)
{
	CXString name = clang_getTranslationUnitSpelling(tu);
	CXFile f = clang_getFile(tu, clang_getCString(name));

	clang_disposeString(name);
	return f;
}

/*
 * Is fn made by the main file: written there, or by a macro defined
 * there (trace_export.c's FTRACE_ENTRY, expanded in trace_entries.h)?
 * Then no other file can call it.  A header's static function is the
 * header's API: other files may, so it is judged as written.
 */
static int made_by_main_file(CXTranslationUnit tu, CXCursor fn)
{
	CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(fn));
	CXFile spelled, main = main_file(tu);

	if (clang_Location_isFromMainFile(at))
		return 1;
	clang_getSpellingLocation(at, &spelled, NULL, NULL, NULL);
	return spelled && main && clang_File_isEqual(spelled, main);
}

void note_static_walk(struct walk *w, CXCursor fn, size_t from)
{
	size_t i;

	if (clang_getCursorLinkage(fn) != CXLinkage_Internal)
		return;
	for (i = from; i < w->out->len && w->out->v[i].pass; i++)
		;
	if (i == w->out->len || !made_by_main_file(w->tu, fn))
		return;			/* nothing to take back */
	grow(&w->uncalled, &w->uncalledcap, w->nuncalled + 1, sizeof(*w->uncalled));
	w->uncalled[w->nuncalled++] = (struct uncalled){ fn, from, w->out->len };
}

/* Any reference but a declaration: a call, an address, a table entry. */
static enum CXVisitorResult count_use(void *uses, CXCursor c, CXSourceRange r)
{
	(void)r;
	if (clang_getCursorKind(c) == CXCursor_FunctionDecl)
		return CXVisit_Continue;
	++*(int *)uses;
	return CXVisit_Break;
}

static int referenced(CXTranslationUnit tu, CXCursor fn)
{
	CXFile main = main_file(tu), own;
	CXCursorAndRangeVisitor v = { NULL, count_use };
	int uses = 0;

	clang_getExpansionLocation(clang_getCursorLocation(fn), &own, NULL, NULL, NULL);
	v.context = &uses;
	/* Referred to from the main file, or from the header a macro of
	 * the main file wrote it into. */
	if (main)
		clang_findReferencesInFile(fn, main, v);
	if (!uses && own && !clang_File_isEqual(own, main))
		clang_findReferencesInFile(fn, own, v);
	return uses || !main;
}

void drop_uncalled(struct walk *w, unsigned char *drop)
{
	for (size_t k = 0; k < w->nuncalled; k++) {
		const struct uncalled *u = &w->uncalled[k];

		if (referenced(w->tu, u->fn))
			continue;
		for (size_t i = u->from; i < u->to && i < w->out->len; i++) {
			struct finding *f = &w->out->v[i];

			if (f->pass)
				continue;
			if (w->opts->explain)
				finding_make_pass(f, xasprintf("'%s': %s", f->operand ? f->operand : "...",
							       verdict_text(V_NEVER_CALLED)));
			else
				drop[i] = 1;
		}
	}
	free(w->uncalled);
}
