/*
 * Turning a node into a finding: where (macro invocations reported at
 * the invocation), why (the char's declaration, the macro, the
 * assignment that carried the value) and the fix at the declaration.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tree/tree.h"
#include "core/core.h"
#include "walk.h"

/* Where the outermost macro invocation around l starts (l itself
 * outside macros); *in_macro says which. */
static unsigned invocation(CXSourceLocation l, CXFile *f, int *in_macro)
{
	CXFile sf;
	unsigned off, soff;

	clang_getExpansionLocation(l, f, NULL, NULL, &off);
	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	*in_macro = !clang_File_isEqual(*f, sf) || off != soff;
	return off;
}

/*
 * A macro's own temporary: `const typeof(l) __left = (l);` then
 * `__left == __right` (KUnit, min/max, cmp macros).  When node i reads
 * a variable declared by the same macro invocation, return that
 * variable's initializer, the operand the user wrote; -1 otherwise.
 */
static int macro_local_init(const struct tree *t, int i)
{
	CXCursor decl;
	CXFile uf, df;
	unsigned use, def;
	int use_in, def_in;

	if (i < 0 || t->n[i].kind != CXCursor_DeclRefExpr)
		return -1;
	decl = clang_getCursorReferenced(t->n[i].cur);
	if (clang_getCursorKind(decl) != CXCursor_VarDecl)
		return -1;
	use = invocation(clang_getCursorLocation(t->n[i].cur), &uf, &use_in);
	def = invocation(clang_getCursorLocation(decl), &df, &def_in);
	if (!use_in || !def_in || use != def || !clang_File_isEqual(uf, df))
		return -1;
	for (int k = 0; k < t->len; k++)
		if (t->n[k].kind == CXCursor_VarDecl && clang_equalCursors(t->n[k].cur, decl))
			return last_expr_child(t, k);
	return -1;
}

/* Down through conversions and macro temporaries to what the user wrote. */
static int written_operand(const struct tree *t, int i)
{
	for (int depth = 0; depth < 8; depth++) {
		int j = strip_implicit(t, i), init = macro_local_init(t, j);

		if (init < 0)
			return j >= 0 ? j : i;
		i = init;
	}
	return i;
}

/* moved: p++ and p-- are p (a store's storage), else they are no
 * declaration's value. */
static CXCursor trace(const struct tree *t, int i, int moved)
{
	int hops = 0, init;

	for (;;) {
		const struct node *n;

		i = strip_implicit(t, i);
		if (i < 0)
			return clang_getNullCursor();
		/* bounded: a temporary may be initialized from itself */
		if (hops++ < 8 && (init = macro_local_init(t, i)) >= 0) {
			i = init;
			continue;
		}
		n = &t->n[i];
		switch (n->kind) {
		case CXCursor_DeclRefExpr:
		case CXCursor_MemberRefExpr:
		case CXCursor_CallExpr:
			return clang_getCursorReferenced(n->cur);
		case CXCursor_ArraySubscriptExpr:
			i = t->n[strip_implicit(t, child(t, i, 0))].type.cls == T_PTR ?
			    child(t, i, 0) : child(t, i, 1);
			continue;
		case CXCursor_UnaryOperator:
			if (n->op != OP_DEREF && !(moved && (n->op == OP_INC || n->op == OP_DEC)))
				return clang_getNullCursor();
			i = child(t, i, 0);
			continue;
		case CXCursor_BinaryOperator:
			if (n->op != OP_ADD && n->op != OP_SUB)
				return clang_getNullCursor();
			i = t->n[strip_implicit(t, child(t, i, 0))].type.cls == T_PTR ?
			    child(t, i, 0) : child(t, i, 1);
			continue;
		default:
			return clang_getNullCursor();
		}
	}
}

CXCursor trace_decl(const struct tree *t, int i)
{
	return trace(t, i, 0);
}

CXCursor trace_storage(const struct tree *t, int i)
{
	return trace(t, i, 1);
}

char *node_text(struct walk *w, int i)
{
	return cursor_text(w->tu, w->t.n[i].cur);
}

/* An operand as written: libclang puts a read's implicit conversion
 * around the parentheses of a macro body ((x) < 0), so quoting it would
 * quote the whole invocation, where the name itself is 'c'; a macro's
 * temporary is quoted as the argument it holds. */
char *operand_text(struct walk *w, int i)
{
	return node_text(w, written_operand(&w->t, i));
}

char *macro_name(struct walk *w, int i, CXCursor *macro)
{
	struct loc l;
	CXCursor m;
	CXString s;
	char *name;

	if (cursor_region(w->tu, w->t.n[i].cur, &l, &m))
		return NULL;
	free(l.path);
	if (clang_Cursor_isNull(m))
		return NULL;
	if (macro)
		*macro = m;
	s = clang_getCursorSpelling(m);
	name = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return name;
}

static int token_is(CXTranslationUnit tu, CXToken tok, const char *word)
{
	CXString s = clang_getTokenSpelling(tu, tok);
	int same = !strcmp(clang_getCString(s), word);

	clang_disposeString(s);
	return same;
}

/* The type a declaration is written with (result type for functions),
 * looking through pointers and arrays. */
static CXType declared_base_type(CXCursor decl)
{
	CXType t = clang_getCursorKind(decl) == CXCursor_FunctionDecl ?
		   clang_getCursorResultType(decl) : clang_getCursorType(decl);

	for (;;) {
		if (t.kind == CXType_Pointer)
			t = clang_getPointeeType(t);
		else if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
			t = clang_getArrayElementType(t);
		else if (t.kind == CXType_Elaborated)
			t = clang_Type_getNamedType(t);
		else
			return t;
	}
}

/*
 * The plain `char` keyword of a declaration, written before its name; for
 * a typedef'd type, the one in the typedef.
 */
static int char_keyword(CXTranslationUnit tu, CXCursor decl, struct loc *l, int depth)
{
	CXSourceRange r = clang_getCursorExtent(decl);
	unsigned name_off, ntok, i;
	CXToken *tok;
	CXFile f;
	int found = -1;

	if (depth > 4 || clang_Cursor_isNull(decl) || in_system_header(decl))
		return -1;
	clang_getFileLocation(clang_getCursorLocation(decl), &f, NULL, NULL, &name_off);
	clang_tokenize(tu, r, &tok, &ntok);
	for (i = 0; i < ntok; i++) {
		CXSourceLocation tl = clang_getTokenLocation(tu, tok[i]);
		CXFile tf;
		unsigned off;

		clang_getFileLocation(tl, &tf, NULL, NULL, &off);
		if (!clang_File_isEqual(tf, f) || off >= name_off)
			break;
		if (clang_getTokenKind(tok[i]) == CXToken_Keyword &&
		    token_is(tu, tok[i], "char") &&
		    !(i && (token_is(tu, tok[i - 1], "signed") ||
			    token_is(tu, tok[i - 1], "unsigned")))) {
			cursor_file_loc(decl, l);	/* for the path */
			clang_getFileLocation(tl, NULL, &l->line, &l->col, NULL);
			l->end_line = l->line;
			l->end_col = l->col + 4;
			found = 0;
			break;
		}
	}
	clang_disposeTokens(tu, tok, ntok);
	if (found < 0) {
		CXType t = declared_base_type(decl);

		if (t.kind == CXType_Typedef)
			return char_keyword(tu, clang_getTypeDeclaration(t), l, depth + 1);
	}
	return found;
}

static char *decl_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *name = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return name;
}

static void add_related(struct finding *f, struct loc l, const char *label, char *message)
{
	if (f->nrelated == MAX_RELATED) {
		free(l.path);
		free(message);
		return;
	}
	f->related[f->nrelated].loc = l;
	f->related[f->nrelated].label = label;
	f->related[f->nrelated++].message = message;
}

static void add_decl(struct walk *w, struct finding *f, CXCursor decl)
{
	struct loc l;
	char *name;

	if (clang_Cursor_isNull(decl) || in_system_header(decl) || cursor_file_loc(decl, &l))
		return;
	name = decl_name(decl);
	add_related(f, l, "declaration", xasprintf("'%s' is declared here with plain char", name));
	if (rules[f->rule].fix == FIX_DECL && f->breaks != BREAKS_EITHER &&
	    !char_keyword(w->tu, decl, &l, 0)) {
		const char *type = f->breaks == BREAKS_UNSIGNED ? "signed char" : "unsigned char";

		f->has_fix = 1;
		f->fix.loc = l;
		f->fix.text = xstrdup(type);
		f->fix.deleted = xstrdup("char");
		f->fix.description = xasprintf("Declare '%s' with %s", name, type);
	}
	free(name);
}

static void add_assignment(struct walk *w, struct finding *f, int assign)
{
	struct loc l;
	CXCursor m;
	char *text;

	if (assign < 0 || cursor_region(w->tu, w->t.n[assign].cur, &l, &m))
		return;
	text = node_text(w, assign);
	add_related(f, l, "assignment", xasprintf("the plain char value is assigned here: '%s'", text));
	free(text);
}

/* A place in another TU, as a related location of its own. */
static struct loc copy_loc(const struct loc *l)
{
	struct loc c = *l;

	c.path = xstrdup(l->path);
	c.ucol = c.end_ucol = 0;
	return c;
}

/* A value a function returns: where it returns the char. */
static void add_return(struct finding *f, const struct ret_val *r)
{
	const char *what;
	struct loc l;

	if (r && r->stmt_loc)
		l = copy_loc(r->stmt_loc);
	else if (!r || cursor_file_loc(r->stmt, &l))
		return;
	what = r->derived ? "a value computed from the plain char" : "the plain char";
	if (r->field) {
		add_related(f, l, "assignment", xasprintf("'%s' is assigned %s '%s' here",
							  r->name, what, r->what));
		return;
	}
	add_related(f, l, "return", xasprintf("%s() returns %s '%s' here", r->name, what, r->what));
}

/* A parameter carrier: where the caller passes the char. */
static void add_call(struct finding *f, const struct carrier *car, const struct param_in *seed,
		     CXTranslationUnit tu)
{
	struct loc l;
	CXCursor m;

	if (car && car->caller && car->call_loc)
		l = copy_loc(car->call_loc);
	else if (!car || !car->caller || cursor_region(tu, car->call, &l, &m))
		return;
	add_related(f, l, "call", xasprintf("%s is passed here by %s()", seed && seed->d ?
					     "a value computed from a plain char" : "the plain char",
					     car->caller));
}

/* Conversions and parentheses around a node, as the tree has them. */
static int wrapper(enum CXCursorKind k)
{
	return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr ||
	       k == CXCursor_CStyleCastExpr;
}

/*
 * The char passed to a function with a body here: its parameter.  The
 * callee is where the converted value is read, and where an inlined
 * callee's code changes with the signedness (charscan confirm).
 */
static void add_parameter(struct walk *w, struct finding *f, int operand)
{
	int arg = operand, call = -1, k;
	CXCursor fn;
	struct loc l;
	char *name, *callee;

	while (arg >= 0 && (call = w->t.n[arg].parent) >= 0 && wrapper(w->t.n[call].kind))
		arg = call;
	if (arg < 0 || call < 0 || w->t.n[call].kind != CXCursor_CallExpr ||
	    (k = argument_index(&w->t, call, arg)) < 0)
		return;
	fn = clang_getCursorDefinition(clang_getCursorReferenced(w->t.n[call].cur));
	if (clang_Cursor_isNull(fn) || in_system_header(fn) ||
	    k >= clang_Cursor_getNumArguments(fn) ||
	    cursor_file_loc(clang_Cursor_getArgument(fn, (unsigned)k), &l))
		return;
	name = decl_name(clang_Cursor_getArgument(fn, (unsigned)k));
	callee = decl_name(fn);
	add_related(f, l, "parameter", xasprintf("it is passed to parameter '%s' of %s()",
						  name, callee));
	free(name);
	free(callee);
}

static enum CXChildVisitResult find_return(CXCursor c, CXCursor parent, CXClientData data)
{
	CXCursor *ret = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ReturnStmt) {
		*ret = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/*
 * The char is what a function with a body here returns: its return,
 * where the byte is read (and where an inlined callee's code changes).
 */
static void add_callee_return(struct walk *w, struct finding *f, int operand)
{
	CXCursor fn, ret = clang_getNullCursor();
	struct loc l;
	char *callee;

	if (operand < 0 || w->t.n[operand].kind != CXCursor_CallExpr)
		return;
	fn = clang_getCursorDefinition(clang_getCursorReferenced(w->t.n[operand].cur));
	if (clang_Cursor_isNull(fn) || in_system_header(fn))
		return;
	clang_visitChildren(fn, find_return, &ret);
	if (clang_Cursor_isNull(ret) || cursor_file_loc(ret, &l))
		return;
	callee = decl_name(fn);
	add_related(f, l, "return", xasprintf("%s() returns the plain char here", callee));
	free(callee);
}

static void add_macro(struct finding *f, CXCursor macro)
{
	CXCursor def = clang_getCursorReferenced(macro);
	struct loc l;
	char *name;

	if (clang_Cursor_isNull(def) || cursor_file_loc(def, &l))
		return;
	name = decl_name(macro);
	add_related(f, l, "macro definition", xasprintf("in expansion of macro '%s'", name));
	free(name);
}

static struct finding *add_finding(struct walk *w, enum rule_id r, int node,
				   enum breaks br, CXCursor *macro)
{
	struct finding *f;
	struct loc l;

	if (!w->opts->enabled[r] || !(br & w->opts->breaks_mask))
		return NULL;
	if (cursor_region(w->tu, w->t.n[node].cur, &l, macro))
		return NULL;
	f = findings_add(w->out);
	f->rule = r;
	f->loc = l;
	f->breaks = br;
	f->function = xstrdup(w->function);
	if ((f->expanded_line = expansion_line(w->t.n[node].cur)) == l.line)
		f->expanded_line = 0;
	f->snippet = line_text(w->tu, cursor_file(clang_Cursor_isNull(*macro) ?
				w->t.n[node].cur : *macro), l.line, l.col);
	utf16_columns(w->tu, &f->loc);
	return f;
}

/* ---- verdicts into messages ------------------------------------------ */

static const struct verdict_row {
	enum rule_id rule;
	const char *text;	/* message template, or a pass's reason */
	int pass;
} verdicts[NR_VERDICTS] = {
#define FINDING(name, rule, text) [V_##name] = { rule, text, 0 },
#define PASS(name, rule, text) [V_##name] = { rule, text, 1 },
#include "verdicts.def"
#undef FINDING
#undef PASS
};

const char *verdict_text(enum verdict_id id)
{
	return verdicts[id].text;
}

enum field { F_STR, F_BYTE, F_VS, F_VU, F_BS, F_BU, F_RESULT, F_WHEN, F_NOT_WHEN, F_K, F_K2, F_MORE };

static const struct placeholder {
	const char *name;
	enum field kind;
	size_t off;		/* F_STR: where the string is in a verdict */
} placeholders[] = {
	{ "value", F_STR, offsetof(struct verdict, value) },
	{ "expr", F_STR, offsetof(struct verdict, expr) },
	{ "other", F_STR, offsetof(struct verdict, other) },
	{ "callee", F_STR, offsetof(struct verdict, callee) },
	{ "type", F_STR, offsetof(struct verdict, type) },
	{ "ps", F_STR, offsetof(struct verdict, printed_s) },
	{ "pu", F_STR, offsetof(struct verdict, printed_u) },
	{ "byte", F_BYTE, 0 }, { "vs", F_VS, 0 }, { "vu", F_VU, 0 },
	{ "bs", F_BS, 0 }, { "bu", F_BU, 0 }, { "result", F_RESULT, 0 },
	{ "when", F_WHEN, 0 }, { "not_when", F_NOT_WHEN, 0 },
	{ "k", F_K, 0 }, { "k2", F_K2, 0 }, { "more", F_MORE, 0 },
};

static const char *signedness(enum breaks br)
{
	return br == BREAKS_SIGNED ? "signed" : "unsigned";
}

/* The text of placeholder ph for v (in buf when it has to be made). */
static const char *field_text(const struct verdict *v, const struct placeholder *ph,
			      char *buf, size_t size)
{
	const char *str;

	switch (ph->kind) {
	case F_STR:
		memcpy(&str, (const char *)v + ph->off, sizeof(str));
		return str ? str : "?";
	case F_BYTE:
		snprintf(buf, size, "0x%02x", v->byte);
		return buf;
	case F_VS:
		return val_str(v->vs, buf, size);
	case F_VU:
		return val_str(v->vu, buf, size);
	case F_BS:
		return v->vs ? "true" : "false";
	case F_BU:
		return v->vu ? "true" : "false";
	case F_RESULT:
		return (v->br == BREAKS_UNSIGNED ? v->vu : v->vs) ? "true" : "false";
	case F_WHEN:
		return signedness(v->br);
	case F_NOT_WHEN:
		return signedness(v->br == BREAKS_SIGNED ? BREAKS_UNSIGNED : BREAKS_SIGNED);
	case F_K:
		snprintf(buf, size, "%lld", v->k);
		return buf;
	case F_K2:
		snprintf(buf, size, "%lld", v->k2);
		return buf;
	case F_MORE:
		if (!v->more)
			return "";
		snprintf(buf, size, " (%d more constant%s outside 0..127 in this initializer)",
			 v->more, v->more > 1 ? "s" : "");
		return buf;
	}
	return "?";
}

/* The verdict's message: its row's template with the placeholders filled. */
static char *render(const struct verdict *v)
{
	const char *p = verdicts[v->id].text;
	size_t len = 0, cap = 0;
	char *out = NULL;

	while (*p) {
		const char *open = strchr(p, '{'), *close, *text;
		char buf[96];
		size_t n, k;

		n = open ? (size_t)(open - p) : strlen(p);
		grow(&out, &cap, len + n + 1, 1);
		memcpy(out + len, p, n);
		len += n;
		p += n;
		if (!open)
			break;
		close = strchr(open, '}');
		for (k = 0; close && k < sizeof(placeholders) / sizeof(placeholders[0]); k++)
			if (strlen(placeholders[k].name) == (size_t)(close - open - 1) &&
			    !strncmp(placeholders[k].name, open + 1, close - open - 1))
				break;
		if (!close || k == sizeof(placeholders) / sizeof(placeholders[0]))
			die("rules/verdicts.def: unknown placeholder in \"%s\"", verdicts[v->id].text);
		text = field_text(v, &placeholders[k], buf, sizeof(buf));
		n = strlen(text);
		grow(&out, &cap, len + n + 1, 1);
		memcpy(out + len, text, n);
		len += n;
		p = close + 1;
	}
	grow(&out, &cap, len + 1, 1);
	out[len] = 0;
	return out;
}

void report_pass(struct walk *w, enum verdict_id id, int node)
{
	report_pass_of(w, id, node, node);
}

void report_pass_of(struct walk *w, enum verdict_id id, int node, int named)
{
	CXCursor macro;
	struct finding *f = add_finding(w, verdicts[id].rule, node, BREAKS_EITHER, &macro);
	char *text;

	if (!f)
		return;
	text = node_text(w, named);
	f->pass = 1;
	f->message = xasprintf("'%s': %s", text, verdicts[id].text);
	free(text);
	/* Where an inlined callee's code changes for it (charscan confirm). */
	add_parameter(w, f, named);
	for (int i = 0; i < f->nrelated; i++)
		utf16_columns(w->tu, &f->related[i].loc);
}

/* The finding compares (or combines) two plain chars, the other not
 * known to be ASCII: what one operand's origin says cannot let it go
 * (`s[0] < t[0]` with s a literal at every call and t any byte). */
static int other_char_unsure(struct walk *w, const struct report_at *at)
{
	const struct tree *t = &w->t;
	int p, a, b, other;

	if (at->operand < 0)
		return 0;
	p = t->n[climb_implicit(t, at->operand)].parent;
	if (p < 0 || t->n[p].kind != CXCursor_BinaryOperator)
		return 0;
	a = strip_implicit(t, child(t, p, 0));
	b = strip_implicit(t, child(t, p, 1));
	other = a == strip_implicit(t, at->operand) ? b : a;
	return other >= 0 && t->n[other].type.cls == T_PLAIN_CHAR && !ascii_value_seen(w, other);
}

void judge(struct walk *w, const struct verdict *v)
{
	struct report_at at = v->at;
	struct finding *f;
	int unsure;
	CXCursor macro;

	if (verdicts[v->id].pass)
		die("verdict %d is a pass, not a finding", (int)v->id);
	if (!(f = add_finding(w, verdicts[v->id].rule, at.node, v->br, &macro)))
		return;
	f->message = render(v);
	if (at.operand >= 0)
		f->operand = operand_text(w, at.operand);
	judge_origin(w, f, &at);
	add_decl(w, f, at.decl);
	unsure = other_char_unsure(w, &at);
	if (!w->seed && !unsure)
		note_param_finding(w, at.decl, (size_t)(f - w->out->v));
	add_call(f, at.car, w->seed, w->tu);
	add_return(f, at.ret);
	if (!at.ret) {
		add_callee_return(w, f, at.operand);
		/* A store (CS004) writes the field; the others read it. */
		if (f->rule != CS004 && !unsure) {
			note_field_read(w, f, at.decl, at.operand);
			note_field_use(w, (size_t)(f - w->out->v),
				       origin_decl(w, at.decl, at.operand), NULL);
		}
	}
	add_assignment(w, f, at.assign);
	add_parameter(w, f, at.operand);
	if (!clang_Cursor_isNull(macro))
		add_macro(f, macro);
	for (int i = 0; i < f->nrelated; i++)
		utf16_columns(w->tu, &f->related[i].loc);
	if (f->has_fix)
		utf16_columns(w->tu, &f->fix.loc);
}
