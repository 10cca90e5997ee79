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
#include "core/core.h"
#include "walk.h"

struct uncalled {
	CXCursor fn;		/* canonical */
	CXFile file;		/* where it is (expanded) */
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
	w->uncalled[w->nuncalled] = (struct uncalled){ clang_getCanonicalCursor(fn), NULL,
						       from, w->out->len };
	clang_getExpansionLocation(clang_getCursorLocation(fn), &w->uncalled[w->nuncalled].file,
				   NULL, NULL, NULL);
	w->nuncalled++;
}

/*
 * Which of them something refers to: a call, an address, a table entry,
 * looked for in every declaration of the main file and of the files the
 * functions are in.  By the cursor each reference resolves to, not by
 * where it is spelled: DEVICE_ATTR_RO(io_type) names io_type_show with
 * a pasted token, spelled in no file (clang_findReferencesInFile()
 * misses it).
 */
struct search {
	struct walk *w;
	CXFile main;
	unsigned char *used;
	size_t left;
};

static enum CXChildVisitResult find_uses(CXCursor c, CXCursor parent, CXClientData data)
{
	struct search *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor to;

	(void)parent;
	if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
		return CXChildVisit_Recurse;
	to = clang_getCanonicalCursor(clang_getCursorReferenced(c));
	for (size_t i = 0; i < s->w->nuncalled; i++)
		if (!s->used[i] && clang_equalCursors(to, s->w->uncalled[i].fn)) {
			s->used[i] = 1;
			if (!--s->left)
				return CXChildVisit_Break;
		}
	return CXChildVisit_Recurse;
}

static int searched_file(const struct search *s, CXFile f)
{
	if (!f)
		return 0;
	if (s->main && clang_File_isEqual(f, s->main))
		return 1;
	for (size_t i = 0; i < s->w->nuncalled; i++)
		if (clang_File_isEqual(f, s->w->uncalled[i].file))
			return 1;
	return 0;
}

static enum CXChildVisitResult each_top(CXCursor c, CXCursor parent, CXClientData data)
{
	struct search *s = data;
	CXFile f;

	(void)parent;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (searched_file(s, f))
		clang_visitChildren(c, find_uses, s);
	return s->left ? CXChildVisit_Continue : CXChildVisit_Break;
}

void drop_uncalled(struct walk *w, unsigned char *drop)
{
	struct search s = { w, main_file(w->tu), xcalloc(w->nuncalled + 1, 1), w->nuncalled };

	if (w->nuncalled)
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu), each_top, &s);
	for (size_t k = 0; k < w->nuncalled; k++) {
		const struct uncalled *u = &w->uncalled[k];

		if (s.used[k])
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
	free(s.used);
	free(w->uncalled);
}
