#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "source.h"
#include "expansion.h"
#include "ast.h"
#include "core/core.h"

#define MAX_TEXT 72
#define MAX_QUOTED 80	/* the longest invocation quoted for an expression in it */
#define MAX_SNIPPET 240	/* bytes of a snippet from a long line */

char *file_path(CXFile f)
{
	CXString s = clang_File_tryGetRealPathName(f);
	const char *p = clang_getCString(s);
	char real[PATH_MAX], *out;

	if (!p || !*p) {
		clang_disposeString(s);
		s = clang_getFileName(f);
		p = clang_getCString(s);
	}
	out = xstrdup(realpath(p ? p : "", real) ? real : p ? p : "");
	clang_disposeString(s);
	return out;
}

static int is_in_macro(CXSourceLocation l)
{
	CXFile f, sf;
	unsigned off, soff;

	clang_getExpansionLocation(l, &f, NULL, NULL, &off);
	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	return !clang_File_isEqual(f, sf) || off != soff;
}

unsigned expansion_line(CXCursor c)
{
	CXSourceLocation l = clang_getRangeStart(clang_getCursorExtent(c));
	CXFile f, sf;
	unsigned line;

	if (!is_in_macro(l))
		return 0;
	clang_getExpansionLocation(l, &f, &line, NULL, NULL);
	clang_getSpellingLocation(l, &sf, NULL, NULL, NULL);
	return clang_File_isEqual(f, sf) ? line : 0;
}

int in_macro(CXCursor c)
{
	return is_in_macro(clang_getRangeStart(clang_getCursorExtent(c)));
}

int only_between(CXTranslationUnit tu, CXCursor a, CXCursor b, char sep)
{
	CXSourceLocation end = clang_getRangeEnd(clang_getCursorExtent(a));
	CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(b));
	CXFile fa, fb;
	unsigned from, to, seen = 0;
	const char *buf;
	size_t size;

	if (is_in_macro(end) || is_in_macro(start))
		return 0;
	clang_getSpellingLocation(end, &fa, NULL, NULL, &from);
	clang_getSpellingLocation(start, &fb, NULL, NULL, &to);
	if (!fa || !clang_File_isEqual(fa, fb) || from > to ||
	    !(buf = clang_getFileContents(tu, fa, &size)) || to > size)
		return 0;
	for (unsigned i = from; i < to; i++) {
		if (buf[i] == sep)
			seen++;
		else if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
			return 0;
	}
	return seen == 1;
}

static int range_region(CXSourceRange r, struct loc *l)
{
	CXFile f, ef;
	unsigned line, col, eline, ecol;

	clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, NULL);
	if (!f)
		return -1;
	clang_getExpansionLocation(clang_getRangeEnd(r), &ef, &eline, &ecol, NULL);
	l->path = file_path(f);
	l->line = line;
	l->col = col;
	if (clang_File_isEqual(f, ef) && (eline > line || (eline == line && ecol > col))) {
		l->end_line = eline;
		l->end_col = ecol;
	} else {
		l->end_line = line;
		l->end_col = col + 1;
	}
	return 0;
}

/* Is l a token written where clang_getFileLocation puts it (a macro's
 * argument, or no macro), not one of a macro's body? */
static int written_at(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col)
{
	CXFile sf;
	unsigned off, soff;

	clang_getFileLocation(l, f, line, col, &off);
	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	return *f && clang_File_isEqual(*f, sf) && off == soff;
}

/*
 * An expression written whole in a macro's arguments (pr_cont("%c",
 * "D."[x]) over three lines) is reported where it is written: that is
 * the line the compiler gives its code, and two of them in one macro
 * call stay two places.  (Not through clang_getLocationForOffset: it
 * maps an argument's place back into the expansion.)
 */
static int argument_region(CXSourceRange r, struct loc *l)
{
	CXFile f, ef;
	unsigned line, col, eline, ecol;

	if (!written_at(clang_getRangeStart(r), &f, &line, &col) ||
	    !written_at(clang_getRangeEnd(r), &ef, &eline, &ecol) || !clang_File_isEqual(f, ef) ||
	    eline < line || (eline == line && ecol <= col))
		return -1;
	l->path = file_path(f);
	l->line = line;
	l->col = col;
	l->end_line = eline;
	l->end_col = ecol;
	return 0;
}

int cursor_region(CXTranslationUnit tu, CXCursor c, struct loc *l, CXCursor *macro)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation start = clang_getRangeStart(r);

	*macro = clang_getNullCursor();
	if (!is_in_macro(start))
		return range_region(r, l);
	if (!argument_region(r, l))
		return 0;
	*macro = macro_expansion_at(tu, start);
	if (!clang_Cursor_isNull(*macro))
		r = clang_getCursorExtent(*macro);
	return range_region(r, l);
}

int cursor_file_loc(CXCursor c, struct loc *l)
{
	CXFile f;
	unsigned line, col;

	clang_getFileLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
	if (!f)
		return -1;
	l->path = file_path(f);
	l->line = l->end_line = line;
	l->col = col;
	l->end_col = col + 1;
	return 0;
}

/* Is the token at l written at file offset off of f (a macro argument,
 * not part of a macro's body)? */
static int spelled_here(CXSourceLocation l, CXFile f, unsigned off)
{
	CXFile sf;
	unsigned soff;

	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	return clang_File_isEqual(sf, f) && soff == off;
}

/* s[0..n) with runs of blanks folded to one space, cut at MAX_TEXT bytes
 * (then ending in "..."). */
static char *fold_text(const char *s, size_t n)
{
	char *out = xmalloc(MAX_TEXT + 4), *o = out;
	int space = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
			space = o != out;
			continue;
		}
		if ((size_t)(o - out) + space + 1 > MAX_TEXT)
			break;
		if (space)
			*o++ = ' ';
		space = 0;
		*o++ = (char)c;
	}
	strcpy(o, i < n ? "..." : "");
	return out;
}

/* Can an invocation be quoted for an expression in its expansion: one
 * short line, its parentheses balanced?  Not a DECLARE_EVENT_CLASS() of
 * thirty lines, nor the start of one whose end the range misses. */
static int quotable(const char *s, size_t n)
{
	int depth = 0;

	if (n > MAX_QUOTED || memchr(s, '\n', n))
		return 0;
	for (size_t i = 0; i < n && depth >= 0; i++)
		depth += (s[i] == '(') - (s[i] == ')');
	return depth == 0;
}

char *cursor_text(CXTranslationUnit tu, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation s = clang_getRangeStart(r), e = clang_getRangeEnd(r);
	CXFile f, ef;
	unsigned so, eo;
	size_t size;
	const char *buf;

	/* A macro argument is spelled in the file: quote it as written;
	 * anything else inside a macro is quoted as the invocation. */
	unsigned line, col;
	int invocation = 0;

	clang_getFileLocation(s, &f, &line, &col, &so);
	clang_getFileLocation(e, &ef, NULL, NULL, &eo);
	if (f && (!clang_File_isEqual(f, ef) || eo <= so) && spelled_here(s, f, so)) {
		/* One token of a macro argument: its range ends in the
		 * expansion, but the token itself is in the file. */
		CXToken *tok = clang_getToken(tu, clang_getLocation(tu, f, line, col));

		if (tok) {
			CXString sp = clang_getTokenSpelling(tu, *tok);
			char *out = fold_text(clang_getCString(sp), strlen(clang_getCString(sp)));

			clang_disposeString(sp);
			clang_disposeTokens(tu, tok, 1);
			return out;
		}
	}
	if (!f || !clang_File_isEqual(f, ef) || eo <= so) {
		CXCursor m = macro_expansion_at(tu, s);

		if (clang_Cursor_isNull(m))
			return xstrdup("?");
		invocation = 1;
		r = clang_getCursorExtent(m);
		clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &so);
		clang_getExpansionLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &eo);
		if (!f || eo <= so)
			return xstrdup("?");
	}
	/* Begun by a token of a macro's body: the range is (part of) the
	 * invocation. */
	invocation |= is_in_macro(s) && !spelled_here(s, f, so);
	buf = clang_getFileContents(tu, f, &size);
	if (!buf || eo > size)
		return xstrdup("?");
	if (invocation && !quotable(buf + so, eo - so)) {
		char *p = expr_print(tu, c), *out = fold_text(p, strlen(p));

		free(p);
		return out;
	}
	return fold_text(buf + so, eo - so);
}

/* Start of line LINE (1-based) in buf, and its length; NULL past the end. */
static const char *find_line(const char *buf, size_t size, unsigned line, size_t *len)
{
	const char *p = buf, *end = buf + size, *nl;

	while (--line && p < end) {
		nl = memchr(p, '\n', end - p);
		p = nl ? nl + 1 : end;
	}
	if (p >= end && line)
		return NULL;
	nl = memchr(p, '\n', end - p);
	*len = (size_t)((nl ? nl : end) - p);
	return p;
}

/* Back to the start of a UTF-8 sequence. */
static size_t char_start(const char *p, size_t i)
{
	while (i && ((unsigned char)p[i] & 0xc0) == 0x80)
		i--;
	return i;
}

char *line_text(CXTranslationUnit tu, CXFile f, unsigned line, unsigned col)
{
	const char *buf, *p;
	size_t size, len, from, to;

	if (!f || !(buf = clang_getFileContents(tu, f, &size)) ||
	    !(p = find_line(buf, size, line, &len)))
		return xstrdup("");
	if (len <= MAX_SNIPPET)
		return xstrndup(p, len);
	/* A window around the column: one long generated line must not
	 * make every finding on it a copy of the whole line. */
	from = col > MAX_SNIPPET / 3 ? char_start(p, col - 1 - MAX_SNIPPET / 3) : 0;
	to = from + MAX_SNIPPET < len ? char_start(p, from + MAX_SNIPPET) : len;
	return xasprintf("%s%.*s%s", from ? "..." : "", (int)(to - from), p + from,
			 to < len ? "..." : "");
}

/* Byte column -> UTF-16 code units, as SARIF counts, in the parsed text. */
static unsigned utf16_of(const char *p, size_t len, unsigned col)
{
	const unsigned char *s = (const unsigned char *)p, *end = s + len;
	unsigned units = 1;

	for (unsigned b = 1; b < col && s < end;) {
		int n = utf8_seq_len(s, (size_t)(end - s));

		if (!n)
			n = 1;
		units += n == 4 ? 2 : 1;
		s += n;
		b += n;
	}
	return units + (col > len + 1 ? col - (unsigned)len - 1 : 0);
}

void utf16_columns(CXTranslationUnit tu, struct loc *l)
{
	CXFile f = l->path ? clang_getFile(tu, l->path) : NULL;
	const char *buf, *p;
	size_t size, len;

	if (!f || !(buf = clang_getFileContents(tu, f, &size)))
		return;
	if ((p = find_line(buf, size, l->line, &len)))
		l->ucol = utf16_of(p, len, l->col);
	if ((p = find_line(buf, size, l->end_line, &len)))
		l->end_ucol = utf16_of(p, len, l->end_col);
}

int in_system_header(CXCursor c)
{
	return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

CXFile cursor_file(CXCursor c)
{
	CXFile f;

	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)),
				   &f, NULL, NULL, NULL);
	return f;
}
