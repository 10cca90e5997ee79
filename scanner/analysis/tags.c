/*
 * Tagged table entries: which entries a read of a field can see.  Drivers
 * keep command tables whose entries say what their bytes are by another
 * member (drm panels' init tables):
 *
 *	{ .type = INIT_DCS_CMD, .data = (char[]){ 0xb0, 0x05 } },
 *	{ .type = DELAY_CMD,    .data = (char[]){ 150 } },
 *	...
 *	switch (cmd->type) {
 *	case DELAY_CMD:    msleep(cmd->data[0]); break;	   a number
 *	case INIT_DCS_CMD: dsi_write(dsi, cmd->data[0], ...);  a byte
 *	}
 *
 * A store's tags are the constant members of its entry; a read's guard
 * is the case labels (or the == test) on another member of the same
 * pointer it stands under.  A read reaches a store unless both name the
 * same member and the store's value is not among the read's.  Anything
 * else (a default: label, a test charscan does not read, no guard) is a
 * read of every entry.
 */
#include "core/core.h"
#include "walk.h"

#define T(w, i) ((w)->t.n[(i)])

static int integer_field(CXCursor f)
{
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(f)).kind;

	return clang_getCursorKind(f) == CXCursor_FieldDecl &&
	       ((k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum);
}

/* A designated member initializer, `.type = X`: UnexposedExpr(MemberRef, X). */
static int is_designator(const struct tree *t, int s)
{
	return t->n[s].kind == CXCursor_UnexposedExpr && t->n[s].first >= 0 &&
	       t->n[t->n[s].first].kind == CXCursor_MemberRef;
}

/* Member initializer s of an entry of struct rec, at position k: its
 * field, and its value node in *value. */
static CXCursor member_of(const struct tree *t, int s, CXCursor rec, int k, int *value)
{
	CXCursor field = clang_getNullCursor();

	*value = s;
	if (!is_designator(t, s))
		return nth_field(rec, (unsigned)k);
	for (int m = t->n[s].first; m >= 0; m = t->n[m].next)
		if (t->n[m].kind == CXCursor_MemberRef)
			field = clang_getCursorReferenced(t->n[m].cur);
		else
			*value = m;
	return field;
}

/* Where the compound literal whose initializer is list stands in a table
 * entry: the member initializer holding it (a designator, or the literal
 * itself at position *k), and the entry's initializer in *entry (or -1);
 * -1 when list is no compound literal's or stands elsewhere. */
static int entry_slot(const struct tree *t, int list, int *entry, int *k)
{
	int lit = list >= 0 ? up(t, list) : -1, c, p;

	*entry = -1;
	*k = 0;
	if (lit < 0 || t->n[lit].kind != CXCursor_CompoundLiteralExpr)
		return -1;
	c = climb_implicit(t, lit);
	if ((p = t->n[c].parent) < 0)
		return -1;
	if (is_designator(t, p)) {
		if (t->n[p].parent >= 0 && t->n[t->n[p].parent].kind == CXCursor_InitListExpr)
			*entry = t->n[p].parent;
		return p;
	}
	if (t->n[p].kind != CXCursor_InitListExpr)
		return -1;
	*entry = p;
	for (int s = t->n[p].first; s >= 0 && s != c; s = t->n[s].next)
		++*k;
	return c;
}

static CXCursor record_of(const struct tree *t, int entry)
{
	return clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(t->n[entry].cur)));
}

CXCursor literal_field(struct walk *w, int list)
{
	const struct tree *t = &w->t;
	int entry, k, v, s = entry_slot(t, list, &entry, &k);

	if (s < 0)
		return clang_getNullCursor();
	return member_of(t, s, entry >= 0 ? record_of(t, entry) : clang_getNullCursor(), k, &v);
}

int entry_tags(struct walk *w, int list, struct tag *tags, int max)
{
	const struct tree *t = &w->t;
	int entry, k, n = 0;
	CXCursor rec;

	if (entry_slot(t, list, &entry, &k) < 0 || entry < 0)
		return 0;
	rec = record_of(t, entry);
	k = 0;
	for (int s = t->n[entry].first; s >= 0 && n < max; s = t->n[s].next, k++) {
		int v;
		long long value;
		CXCursor f = member_of(t, s, rec, k, &v);

		if (!clang_Cursor_isNull(f) && integer_field(f) && eval_const(t, v, &value))
			tags[n++] = (struct tag){ clang_getCanonicalCursor(f), value };
	}
	return n;
}

/* The variable a member access m is made through (cmd in cmd->data). */
static CXCursor member_base(const struct tree *t, int m)
{
	int b = m >= 0 && t->n[m].kind == CXCursor_MemberRefExpr ?
		strip_implicit(t, t->n[m].first) : -1;

	if (b < 0 || t->n[b].kind != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	return clang_getCursorReferenced(t->n[b].cur);
}

/* m is a member of the same variable as base: that member, or null. */
static CXCursor sibling_member(const struct tree *t, int m, CXCursor base)
{
	CXCursor b;

	m = strip_implicit(t, m);
	b = member_base(t, m);
	if (clang_Cursor_isNull(b) || !clang_equalCursors(b, base))
		return clang_getNullCursor();
	return clang_getCanonicalCursor(clang_getCursorReferenced(t->n[m].cur));
}

static int add_value(struct tag_guard *g, const struct tree *t, int e)
{
	long long k;

	if (g->n < 0 || g->n >= MAX_GUARD_VALUES || !eval_const(t, e, &k)) {
		g->n = -1;
		return 0;
	}
	g->v[g->n++] = k;
	return 1;
}

static int terminates(enum CXCursorKind k)
{
	return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt ||
	       k == CXCursor_GotoStmt || k == CXCursor_ContinueStmt;
}

static int is_label(const struct tree *t, int i)
{
	return t->n[i].kind == CXCursor_CaseStmt || t->n[i].kind == CXCursor_DefaultStmt;
}

/* The statement under statement c's chain of labels (case A: case B: x). */
static int labelled(const struct tree *t, int c)
{
	while (c >= 0 && is_label(t, c))
		c = last_child(t, c);
	return c;
}

/* Add the values of c's labels; 0 at a default: label. */
static int add_labels(const struct tree *t, int c, struct tag_guard *g)
{
	for (; c >= 0 && is_label(t, c); c = last_child(t, c))
		if (t->n[c].kind == CXCursor_DefaultStmt || !add_value(g, t, t->n[c].first))
			return 0;
	return 1;
}

/* Labels that enter statement s of a switch body and reach it: s's own
 * labels, and those of the statements before it that fall through.
 * 0 when a default: label is among them, or none is. */
static int entering_labels(const struct tree *t, int body, int s, struct tag_guard *g)
{
	int prev[256], n = 0;

	for (int c = t->n[body].first; c >= 0 && c != s && n < 256; c = t->n[c].next)
		prev[n++] = c;
	if (!add_labels(t, s, g))
		return 0;
	while (n > 0) {
		int c = prev[--n], inner = labelled(t, c);

		if (inner < 0)
			return 0;
		if (terminates(t->n[inner].kind))
			break;		/* nothing above falls into s */
		if (!add_labels(t, c, g))
			return 0;
	}
	return g->n > 0;
}

void read_tag_guard(struct walk *w, int read, struct tag_guard *g)
{
	const struct tree *t = &w->t;
	CXCursor base = member_base(t, read);

	g->n = -1;
	if (clang_Cursor_isNull(base))
		return;
	for (int a = read, p = t->n[a].parent; p >= 0; a = p, p = t->n[p].parent) {
		int cond = child(t, p, 0), s, other;

		if (t->n[p].kind == CXCursor_SwitchStmt && a == last_child(t, p) &&
		    t->n[a].kind == CXCursor_CompoundStmt &&
		    !clang_Cursor_isNull(g->field = sibling_member(t, cond, base))) {
			/* the statement of the body holding the read */
			for (s = read; t->n[s].parent != a; s = t->n[s].parent)
				;
			g->n = 0;
			if (!entering_labels(t, a, s, g))
				g->n = -1;
			return;
		}
		cond = strip_parens(t, cond);
		if (t->n[p].kind == CXCursor_IfStmt && a == child(t, p, 1) && cond >= 0 &&
		    t->n[cond].kind == CXCursor_BinaryOperator && t->n[cond].op == OP_EQ) {
			g->field = sibling_member(t, child(t, cond, 0), base);
			other = child(t, cond, 1);
			if (clang_Cursor_isNull(g->field)) {
				g->field = sibling_member(t, child(t, cond, 1), base);
				other = child(t, cond, 0);
			}
			if (clang_Cursor_isNull(g->field))
				continue;
			g->n = 0;
			add_value(g, t, other);
			return;
		}
	}
}

int guard_sees(const struct tag_guard *g, const struct tag *tags, int ntags)
{
	if (g->n < 0)
		return 1;
	for (int k = 0; k < ntags; k++) {
		if (!clang_equalCursors(tags[k].field, g->field))
			continue;
		for (int v = 0; v < g->n; v++)
			if (g->v[v] == tags[k].value)
				return 1;
		return 0;
	}
	return 1;
}
