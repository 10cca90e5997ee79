#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "compdb.h"
#include "core/core.h"

static char *read_file(const char *path, size_t *len, char **err)
{
	const char *why;
	char *buf = read_input(path, LIMIT_REPORT, len, &why);

	if (!buf)
		*err = xasprintf("cannot open compile database %s: %s", path, why);
	return buf;
}

/*
 * Paths are bytes, JSON is UTF-8.  A database that holds a Latin-1 file
 * name is still the user's build: carry each byte that is not valid
 * UTF-8 through the JSON parser as a private-use code point U+F700+byte
 * (3 bytes EF 9E/9F xx) and turn it back afterwards, as Python's
 * surrogateescape does.
 */
static char *escape_bytes(const char *in, size_t len, size_t *outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	unsigned char *out = xmalloc(len * 3 + 1), *o = out;

	for (size_t i = 0; i < len;) {
		int n = utf8_seq_len(s + i, len - i);

		if (n) {
			memcpy(o, s + i, n);
			o += n;
			i += n;
			continue;
		}
		*o++ = 0xef;				/* U+F700 + byte */
		*o++ = 0x9c | (s[i] >> 6);
		*o++ = 0x80 | (s[i] & 0x3f);
		i++;
	}
	*outlen = o - out;
	return (char *)out;
}

static char *unescape_bytes(const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	char *out = xmalloc(strlen(in) + 1), *o = out;

	while (*s) {
		if (s[0] == 0xef && (s[1] == 0x9e || s[1] == 0x9f) && (s[2] & 0xc0) == 0x80) {
			*o++ = (char)(((s[1] & 1) << 6) | (s[2] & 0x3f) | 0x80);
			s += 3;
		} else {
			*o++ = (char)*s++;
		}
	}
	*o = '\0';
	return out;
}

static const char *str_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int load_arguments(json_t *args, struct tu *tu)
{
	size_t i, n = json_array_size(args);

	tu->argv = xcalloc(n + 1, sizeof(*tu->argv));
	for (i = 0; i < n; i++) {
		json_t *a = json_array_get(args, i);

		if (!json_is_string(a))
			return -1;
		tu->argv[i] = unescape_bytes(json_string_value(a));
	}
	tu->argc = (int)n;
	return n ? 0 : -1;
}

static void free_tu(struct tu *tu)
{
	for (int i = 0; i < tu->argc; i++)
		free(tu->argv[i]);
	free(tu->argv);
	for (int i = 0; tu->cc_argv && tu->cc_argv[i]; i++)
		free(tu->cc_argv[i]);
	free(tu->cc_argv);
	free(tu->file);
	free(tu->directory);
	free(tu->output);
	free(tu->depfile);
}

/* One entry: 0 to scan, 1 to skip silently, -1 (with a notice) when it
 * cannot be used. */
static int load_entry(json_t *e, size_t index, const char *dbdir,
		      struct tu *tu, struct notices *notes, const char *dbpath)
{
	const char *dir = str_member(e, "directory");
	const char *file = str_member(e, "file");
	const char *cmd = str_member(e, "command");
	json_t *args = json_object_get(e, "arguments");
	char *d, *f, *err;

	memset(tu, 0, sizeof(*tu));
	if (!json_is_object(e) || !dir || !file || (!cmd && !json_is_array(args))) {
		notice_add(notes, "error", dbpath,
			   "entry %zu: needs \"directory\", \"file\" and \"arguments\" or \"command\"; skipped",
			   index);
		return -1;
	}
	d = unescape_bytes(dir);
	tu->directory = clean_path(join_path(dbdir, d));
	free(d);
	f = unescape_bytes(file);
	tu->file = clean_path(join_path(tu->directory, f));
	free(f);
	if (json_is_array(args)) {
		if (load_arguments(args, tu) < 0) {
			notice_add(notes, "error", dbpath,
				   "entry %zu (%s): \"arguments\" must be a non-empty array of strings; skipped",
				   index, tu->file);
			free_tu(tu);
			return -1;
		}
	} else {
		char *c = unescape_bytes(cmd);

		tu->argc = split_command(c, &tu->argv);
		free(c);
		if (tu->argc <= 0) {
			notice_add(notes, "error", dbpath, tu->argc ?
				   "entry %zu (%s): a quote in \"command\" is never closed; skipped" :
				   "entry %zu (%s): empty \"command\"; skipped", index, tu->file);
			free_tu(tu);
			return -1;
		}
	}
	/* bear records clang's re-execution of itself ("clang -cc1 ...")
	 * beside the driver command for the same file: not a compiler
	 * command line, and the driver entry is there. */
	if (tu->argc > 1 && !strcmp(tu->argv[1], "-cc1")) {
		free_tu(tu);
		return 1;
	}
	if (rsp_expand(&tu->argc, &tu->argv, tu->directory, &err)) {
		notice_add(notes, "error", dbpath, "entry %zu (%s): %s; skipped", index,
			   tu->file, err);
		free(err);
		free_tu(tu);
		return -1;
	}
	filter_args(tu);
	return 0;
}

static char *db_file(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return xasprintf("%s/compile_commands.json", path);
	return xstrdup(path);
}

int compdb_load(const char *path, struct compdb *db, struct notices *notes,
		char **err)
{
	json_error_t jerr;
	json_t *root;
	size_t len, elen;
	char *buf, *ebuf, *slash;

	memset(db, 0, sizeof(*db));
	/* absolute, so the report's file:// URIs are well-formed */
	db->path = clean_path(db_file(path));
	buf = read_file(db->path, &len, err);
	if (!buf)
		goto fail;
	ebuf = escape_bytes(buf, len, &elen);
	free(buf);
	root = json_loadb(ebuf, elen, JSON_REJECT_DUPLICATES, &jerr);
	free(ebuf);
	if (!root) {
		*err = xasprintf("%s:%d:%d: malformed compile database: %s",
				 db->path, jerr.line, jerr.column, jerr.text);
		goto fail;
	}
	if (!json_is_array(root)) {
		*err = xasprintf("%s: compile database must be a JSON array", db->path);
		json_decref(root);
		goto fail;
	}
	db->dir = clean_path(xstrdup(db->path));
	slash = strrchr(db->dir, '/');
	if (slash)
		*(slash == db->dir ? slash + 1 : slash) = '\0';
	db->tu = xcalloc(json_array_size(root), sizeof(*db->tu));
	for (size_t i = 0; i < json_array_size(root); i++)
		if (!load_entry(json_array_get(root, i), i, db->dir,
				&db->tu[db->len], notes, db->path))
			db->len++;
	json_decref(root);
	if (!db->len && !notes->len) {
		*err = xasprintf("%s: compile database has no entries", db->path);
		goto fail;
	}
	return 0;
fail:
	compdb_free(db);	/* nothing of a failed load is left to free */
	return -1;
}

struct wanted {
	char **files;		/* as given */
	char **paths;		/* resolved once */
	int *used, n;
};

static int is_wanted(const struct tu *tu, void *arg)
{
	struct wanted *w = arg;
	int keep = 0;

	for (int j = 0; j < w->n; j++)
		if (!strcmp(w->paths[j], tu->file) || !strcmp(w->files[j], tu->file))
			keep = w->used[j] = 1;
	return keep;
}

int compdb_select(struct compdb *db, char **files, int nfiles, char **err)
{
	struct wanted w = { files, xcalloc(nfiles, sizeof(char *)),
			    xcalloc(nfiles, sizeof(int)), nfiles };
	int rc = 0;

	for (int j = 0; j < nfiles; j++)
		w.paths[j] = clean_path(xstrdup(files[j]));
	compdb_filter(db, is_wanted, &w);
	for (int j = 0; j < nfiles; j++) {
		if (!w.used[j] && !rc) {
			*err = xasprintf("%s: not in the compile database", files[j]);
			rc = -1;
		}
		free(w.paths[j]);
	}
	free(w.paths);
	free(w.used);
	return rc;
}

void compdb_filter(struct compdb *db, int (*keep)(const struct tu *, void *), void *arg)
{
	size_t out = 0;

	for (size_t i = 0; i < db->len; i++) {
		if (keep(&db->tu[i], arg))
			db->tu[out++] = db->tu[i];
		else
			free_tu(&db->tu[i]);
	}
	db->len = out;
}

void compdb_from_argv(struct compdb *db, const char *dir, int argc, char **argv,
		      const char *file)
{
	struct tu *tu;

	memset(db, 0, sizeof(*db));
	db->path = xstrdup("(command line)");
	db->dir = clean_path(xstrdup(dir));
	db->tu = tu = xcalloc(1, sizeof(*tu));
	db->len = 1;
	tu->directory = xstrdup(db->dir);
	tu->file = clean_path(join_path(tu->directory, file));
	tu->argv = xcalloc(argc + 1, sizeof(*tu->argv));
	for (int i = 0; i < argc; i++)
		tu->argv[i] = xstrdup(argv[i]);
	tu->argc = argc;
	filter_checkflags(tu);
	filter_args(tu);
}

void compdb_free(struct compdb *db)
{
	for (size_t i = 0; i < db->len; i++)
		free_tu(&db->tu[i]);
	free(db->tu);
	free(db->path);
	free(db->dir);
	memset(db, 0, sizeof(*db));
}
