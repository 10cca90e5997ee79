/*
 * Macro invocations found by where they begin.  A walk records where
 * each value, write and call is, and inside a macro's body that is the
 * whole invocation.  clang_getCursor() finds it by searching the AST
 * from the top, about 0.1 ms a question on a kernel TU, thousands of
 * questions a TU.  Instead, the first question of a walk indexes every
 * MacroExpansion of the TU's preprocessing record (a few ms) in an
 * open-addressed table keyed by the file and offset it begins at, which
 * is where clang_getCursor() would look.  The table is per thread, and
 * lives from expansions_begin() to expansions_end().
 */
#include <stdint.h>
#include <stdlib.h>
#include "expansion.h"
#include "core/core.h"

struct slot {
	CXFile file;		/* NULL: empty */
	unsigned off;
	CXCursor macro;
};

static _Thread_local struct {
	CXTranslationUnit tu;
	struct slot *slot;
	size_t cap, len;	/* cap: a power of two, or 0 */
} table;

static CXCursor look_up(CXTranslationUnit tu, CXFile f, unsigned line, unsigned col)
{
	CXCursor m = clang_getCursor(tu, clang_getLocation(tu, f, line, col));

	return clang_getCursorKind(m) == CXCursor_MacroExpansion ? m : clang_getNullCursor();
}

static size_t slot_of(const struct slot *s, size_t cap, CXFile f, unsigned off)
{
	size_t i = ((((uintptr_t)f >> 4) ^ ((uint64_t)off << 20) ^ off) * 0x9e3779b97f4a7c15ull >> 20) &
		   (cap - 1);

	while (s[i].file && (s[i].file != f || s[i].off != off))
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow_table(void)
{
	size_t cap = table.cap ? table.cap * 2 : 256;
	struct slot *s = xcalloc(cap, sizeof(*s));

	for (size_t i = 0; i < table.cap; i++)
		if (table.slot[i].file)
			s[slot_of(s, cap, table.slot[i].file, table.slot[i].off)] = table.slot[i];
	free(table.slot);
	table.slot = s;
	table.cap = cap;
}

/* Every MacroExpansion among the TU's top-level cursors, keyed by where
 * it begins: one pass over the preprocessing record (a few ms). */
static enum CXChildVisitResult index_one(CXCursor c, CXCursor parent, CXClientData data)
{
	CXFile f;
	unsigned off;
	size_t i;

	(void)parent;
	(void)data;
	if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
		return CXChildVisit_Continue;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
	if (!f)
		return CXChildVisit_Continue;
	if (2 * (table.len + 1) > table.cap)
		grow_table();
	i = slot_of(table.slot, table.cap, f, off);
	if (!table.slot[i].file) {
		table.slot[i] = (struct slot){ f, off, c };
		table.len++;
	}
	return CXChildVisit_Continue;
}

CXCursor macro_expansion_at(CXTranslationUnit tu, CXSourceLocation l)
{
	CXFile f;
	unsigned line, col, off;
	size_t i;

	clang_getExpansionLocation(l, &f, &line, &col, &off);
	if (!f || !tu || tu != table.tu)
		return look_up(tu, f, line, col);
	if (!table.cap) {
		grow_table();
		clang_visitChildren(clang_getTranslationUnitCursor(tu), index_one, NULL);
	}
	i = slot_of(table.slot, table.cap, f, off);
	return table.slot[i].file ? table.slot[i].macro : clang_getNullCursor();
}

void expansions_begin(CXTranslationUnit tu)
{
	expansions_end();
	table.tu = tu;
}

void expansions_end(void)
{
	free(table.slot);
	table.slot = NULL;
	table.tu = NULL;
	table.cap = table.len = 0;
}
