/*
 * What a report may ask of charscan fix.  A report is data that travels
 * (a CI artifact, an attachment to a bug), so it is trusted with nothing:
 *
 * - the tree: --srcroot when given (the report's %SRCROOT% is then only
 *   the base its paths are rebased from), else the report's own
 *   %SRCROOT%, which must be the current directory or below it;
 * - every file a fix reads or writes, and every finding it quotes, must
 *   resolve (symbolic links followed, after the URI's percent-decoding)
 *   to a regular file below that tree;
 * - a fix must be the one change charscan makes: one line's "char" made
 *   "signed char" or "unsigned char", with the finding's line quoted.
 *
 * A fix that breaks a rule is refused with a message naming its result,
 * and then nothing at all is written (fix.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixguard.h"
#include "core/core.h"

static char *real_dir(const char *dir, char **err)
{
	char *real = realpath(dir, NULL);
	struct stat st;

	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		*err = xasprintf("fix: the source tree %s is not a folder: %s", dir,
				 real ? "not a directory" : strerror(errno));
		free(real);
		return NULL;
	}
	return real;
}

int fix_tree_open(struct fix_tree *t, const char *given, const char *report_root, char **err)
{
	memset(t, 0, sizeof(*t));
	t->report_root = xstrdup(report_root);
	if (given) {
		t->real = real_dir(given, err);
		return t->real ? 0 : -1;
	}
	if (!(t->real = real_dir(report_root, err)))
		return -1;
	if (!root_is_here(t->real)) {
		*err = xasprintf("fix: the report's %%SRCROOT%% (%s) is not the current folder "
				 "or below it; give --srcroot DIR, the tree to fix", report_root);
		return -1;
	}
	return 0;
}

void fix_tree_free(struct fix_tree *t)
{
	free(t->real);
	free(t->report_root);
	memset(t, 0, sizeof(*t));
}

/*
 * The file a report names, as fix reads and writes it: its path below
 * the report's %SRCROOT% moved below the tree, links resolved.  NULL with
 * *why when it is gone (*gone set: the tree moved on since the scan) or
 * is not a regular file below the tree (a hostile or foreign report).
 */
char *fix_tree_resolve(const struct fix_tree *t, const char *path, const char **why, int *gone)
{
	const char *rel = relative_path(path, t->report_root);
	char *moved = rel != path ? join_path(t->real, rel) : xstrdup(path);
	char *real = realpath(moved, NULL), *lexical;
	struct stat st;

	*gone = 0;
	if (!real) {
		/* Gone, or a link to nothing: refused as changed when the
		 * name itself is below the tree, as hostile otherwise. */
		lexical = clean_path(xstrdup(moved));
		*gone = errno == ENOENT && path_below(lexical, t->real);
		*why = *gone ? "it is gone since the scan" : "it is outside the source tree";
		free(lexical);
		free(moved);
		return NULL;
	}
	free(moved);
	if (!path_below(real, t->real) || !strcmp(real, t->real))
		*why = "it is outside the source tree";
	else if (stat(real, &st) || !S_ISREG(st.st_mode))
		*why = "it is not a regular file";
	else
		return real;
	free(real);
	return NULL;
}

/* The one change charscan's fixes make. */
static const char *const replacements[] = { "signed char", "unsigned char" };

const char *fix_shape(const struct finding *x)
{
	int known = 0;

	for (size_t i = 0; i < sizeof(replacements) / sizeof(*replacements); i++)
		known |= x->fix.text && !strcmp(x->fix.text, replacements[i]);
	if (!known)
		return "its fix inserts something other than \"signed char\" or \"unsigned char\"";
	if (!x->fix.deleted || strcmp(x->fix.deleted, "char"))
		return "its fix replaces something other than \"char\"";
	if (!x->fix.loc.line || x->fix.loc.end_line != x->fix.loc.line ||
	    x->fix.loc.end_ucol != x->fix.loc.ucol + 4)
		return "its fix is not four columns of one line";
	if (!x->snippet || !*x->snippet)
		return "it does not quote the line it was found on";
	return NULL;
}

/* Is byte c part of a name: ASCII letters, digits, _ and $, and any
 * byte of a UTF-8 sequence (an identifier may hold one)? */
static int name_byte(unsigned char c)
{
	static const char ident[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_$";

	return c >= 0x80 || (c && memchr(ident, c, sizeof(ident) - 1));
}

/* Is offset at of the line inside a comment or a literal that opened on
 * the line before it? */
static int quoted_at(const char *line, size_t at)
{
	char quote = 0;

	for (size_t i = 0; i < at; i++) {
		if (quote == '*') {
			if (line[i] == '*' && line[i + 1] == '/')
				quote = 0, i++;
		} else if (quote) {
			if (line[i] == '\\')
				i++;
			else if (line[i] == quote)
				quote = 0;
		} else if (line[i] == '/' && line[i + 1] == '/') {
			return 1;
		} else if (line[i] == '/' && line[i + 1] == '*') {
			quote = '*', i++;
		} else if (line[i] == '"' || line[i] == '\'') {
			quote = line[i];
		}
	}
	return quote != 0;
}

/* The word that ends at offset end of the line, white space skipped. */
static int word_before(const char *line, size_t end, const char *word)
{
	size_t n = strlen(word);

	while (end && (line[end - 1] == ' ' || line[end - 1] == '\t'))
		end--;
	return end >= n && !memcmp(line + end - n, word, n) &&
	       (end == n || !name_byte((unsigned char)line[end - n - 1]));
}

/*
 * Bytes [start, end) of a line (len bytes) are the type keyword "char"
 * that charscan's fix changes: a whole token, not part of a name, not in
 * a comment or literal, and not already given a signedness.
 */
int fix_whole_token(const char *line, size_t len, size_t start, size_t end)
{
	return end <= len && (!start || !name_byte((unsigned char)line[start - 1])) &&
	       (end == len || !name_byte((unsigned char)line[end])) &&
	       !quoted_at(line, start) && !word_before(line, start, "signed") &&
	       !word_before(line, start, "unsigned");
}
