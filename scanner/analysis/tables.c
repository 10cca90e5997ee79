/*
 * Tables of plain char that hold bytes 0x80-0xff (-1 sentinels) but are
 * only ever read through a signed char pointer: their initializer is
 * data for signed reads and correct under either signedness.  The walk
 * counts each use of a table of this TU; a constant store into one
 * (CS004) is dropped once the whole TU has been seen and every use was
 * such a cast.  A table other TUs can see keeps its finding.
 */
#include <stdlib.h>
#include "core/core.h"
#include "walk.h"

static int plain_char_array(CXCursor var)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(var));

	if (clang_getCursorKind(var) != CXCursor_VarDecl ||
	    (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray))
		return 0;
	return classify_type(clang_getArrayElementType(t)).cls == T_PLAIN_CHAR;
}

/* Visible to this TU only: every use is one the walk sees. */
static int table_of_tu(CXCursor var)
{
	enum CXLinkageKind l = clang_getCursorLinkage(var);

	return plain_char_array(var) && (l == CXLinkage_Internal || l == CXLinkage_NoLinkage);
}

static struct table_use *use_of(struct walk *w, CXCursor var)
{
	for (size_t k = 0; k < w->ntab; k++)
		if (clang_equalCursors(w->tab[k].var, var))
			return &w->tab[k];
	grow(&w->tab, &w->tabcap, w->ntab + 1, sizeof(*w->tab));
	w->tab[w->ntab] = (struct table_use){ var, 0, 0 };
	return &w->tab[w->ntab++];
}

/* Is node i (a use of a table) converted to a pointer to signed char
 * by a cast written in the source? */
static int cast_to_signed(const struct tree *t, int i)
{
	int p = t->n[climb_implicit(t, i)].parent;
	CXType pt;

	if (p < 0 || t->n[p].kind != CXCursor_CStyleCastExpr)
		return 0;
	pt = clang_getCanonicalType(clang_getCursorType(t->n[p].cur));
	return pt.kind == CXType_Pointer &&
	       clang_getCanonicalType(clang_getPointeeType(pt)).kind == CXType_SChar;
}

void note_table_uses(struct walk *w)
{
	const struct tree *t = &w->t;

	for (int i = 0; i < t->len; i++) {
		CXCursor var;
		struct table_use *u;

		if (t->n[i].kind != CXCursor_DeclRefExpr)
			continue;
		var = clang_getCursorReferenced(t->n[i].cur);
		if (!table_of_tu(var))
			continue;
		u = use_of(w, clang_getCanonicalCursor(var));
		if (cast_to_signed(t, i))
			u->signed_reads++;
		else
			u->other_uses++;
	}
}

void note_table_store(struct walk *w, CXCursor var, size_t finding)
{
	if (clang_Cursor_isNull(var) || !table_of_tu(var))
		return;
	grow(&w->tstore, &w->tstorecap, w->ntstore + 1, sizeof(*w->tstore));
	w->tstore[w->ntstore++] = (struct table_store){ clang_getCanonicalCursor(var), finding };
}

void drop_signed_tables(struct walk *w, unsigned char *drop)
{
	for (size_t s = 0; s < w->ntstore; s++) {
		const struct table_use *u = use_of(w, w->tstore[s].var);

		if (u->signed_reads && !u->other_uses && w->tstore[s].finding < w->out->len)
			drop[w->tstore[s].finding] = 1;
	}
	free(w->tab);
	free(w->tstore);
}
