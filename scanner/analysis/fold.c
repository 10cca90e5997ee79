/*
 * One bug, one finding.  A constant outside 0..127 stored into a plain
 * char field (CS004) and a finding on a read of that field in the same
 * TU are the same bug seen from both ends: arch/x86/events/intel/p4.c
 * stores -1 into `cntr` of its bind table and tests `j != -1` on what
 * it reads back.  The store is folded into each finding on the field's
 * reads: it becomes their first step ("the constant is stored here"),
 * their origin and their certainty, and is no result of its own (a pass
 * with --explain, naming the finding that reports it).  A store whose
 * field no finding reads stays a CS004 finding; a CS010 note, whose
 * reader is out of sight, reports nothing the store does not.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "walk.h"

void note_field_use(struct walk *w, size_t finding, CXCursor field, const char *store)
{
	if (clang_Cursor_isNull(field) || clang_getCursorKind(field) != CXCursor_FieldDecl)
		return;
	grow(&w->fuse, &w->fusecap, w->nfuse + 1, sizeof(*w->fuse));
	w->fuse[w->nfuse++] = (struct field_use){ clang_getCanonicalCursor(field), finding,
						  store ? xstrdup(store) : NULL };
}

/* The field a constant at node i of an initializer lands in: the
 * member of the innermost struct or union initializer around it (.cntr
 * = { {4, 5, -1} }), or null. */
CXCursor init_field(const struct tree *t, int i)
{
	for (int c = i, p = t->n[i].parent; p >= 0; c = p, p = t->n[p].parent) {
		CXCursor rec, field = clang_getNullCursor();
		unsigned k = 0;

		if (t->n[p].kind == CXCursor_UnexposedExpr || t->n[p].kind == CXCursor_ParenExpr ||
		    is_cast(t, p))
			continue;
		if (t->n[p].kind != CXCursor_InitListExpr)
			return clang_getNullCursor();
		rec = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(t->n[p].cur)));
		if (!is_record(rec))
			continue;		/* an array's: the entry goes on up */
		for (int m = t->n[c].first; t->n[c].kind == CXCursor_UnexposedExpr && m >= 0;
		     m = t->n[m].next)
			if (t->n[m].kind == CXCursor_MemberRef)
				field = clang_getCursorReferenced(t->n[m].cur);
		if (!clang_Cursor_isNull(field))
			return field;
		for (int s = t->n[p].first; s >= 0 && s != c; s = t->n[s].next)
			k++;
		return nth_field(rec, k);
	}
	return clang_getNullCursor();
}

/* Finding r reads the field store s writes (the constant as written):
 * s is its first step. */
static void fold_into(struct finding *r, const struct finding *s, const char *field,
		      const char *constant)
{
	char *origin;

	if (r->nrelated < MAX_RELATED) {
		struct related *x = &r->related[r->nrelated++];

		x->loc = s->loc;
		x->loc.path = xstrdup(s->loc.path ? s->loc.path : "?");
		x->label = related_label("store");
		x->message = xasprintf("'%s' is stored into plain char '%s' here", constant, field);
	}
	origin = xasprintf("field '%s': written %s at %s:%u", field, constant,
			   base_name(s->loc.path), s->loc.line);
	free(r->origin);
	r->origin = origin;
	r->confidence = CONF_HIGH;
}

static int reports_read(const struct finding *f)
{
	return !f->pass && f->rule != CS004 && f->rule != CS010;
}

void fold_stores(struct walk *w, unsigned char *drop)
{
	for (size_t s = 0; s < w->nfuse; s++) {
		const struct field_use *st = &w->fuse[s];
		struct finding *sf;
		CXString name;
		size_t first = (size_t)-1;

		if (!st->store || st->finding >= w->out->len || drop[st->finding] ||
		    w->out->v[st->finding].pass)
			continue;
		sf = &w->out->v[st->finding];
		name = clang_getCursorSpelling(st->field);
		for (size_t r = 0; r < w->nfuse; r++) {
			const struct field_use *rd = &w->fuse[r];

			if (rd->store || rd->finding >= w->out->len || drop[rd->finding] ||
			    !reports_read(&w->out->v[rd->finding]) ||
			    !clang_equalCursors(rd->field, st->field))
				continue;
			fold_into(&w->out->v[rd->finding], sf, clang_getCString(name), st->store);
			if (first == (size_t)-1)
				first = rd->finding;
		}
		clang_disposeString(name);
		if (first == (size_t)-1)
			continue;
		if (w->opts->explain)
			finding_make_pass(sf, xasprintf("'%s': read back as a number at line %u, "
							"where %s reports it with this store",
							st->store, w->out->v[first].loc.line,
							rules[w->out->v[first].rule].id));
		else
			drop[st->finding] = 1;
	}
	for (size_t s = 0; s < w->nfuse; s++)
		free(w->fuse[s].store);
	free(w->fuse);
	w->fuse = NULL;
	w->nfuse = w->fusecap = 0;
}
