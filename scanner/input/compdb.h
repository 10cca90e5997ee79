/* compile_commands.json: read, validated, argv-split (never a shell). */
#ifndef CHARSCAN_COMPDB_H
#define CHARSCAN_COMPDB_H

#include "core/core.h"

struct tu {
	char *file;		/* absolute path of the source file */
	char *directory;	/* the entry's working directory */
	int argc;
	char **argv;		/* compiler argv, filtered for libclang */
	char **cc_argv;		/* the compiler argv as the database has it */
	char *output;		/* -o, absolute, or NULL */
	char *depfile;		/* -MF or -Wp,-MD,FILE, absolute, or NULL */
};

struct compdb {
	char *path;		/* the compile_commands.json read */
	char *dir;		/* its directory: the default --srcroot */
	struct tu *tu;
	size_t len;
};

/*
 * Load PATH (a compile_commands.json, or a directory holding one).
 * Returns 0, or -1 with *err set to a one-line message.  Entries that
 * are malformed are skipped with a notice.
 */
int compdb_load(const char *path, struct compdb *db, struct notices *notes,
		char **err);
/* Keep only the entries whose file is one of files[]; -1 if one is not
 * in the database (named in *err). */
int compdb_select(struct compdb *db, char **files, int nfiles, char **err);
/* Keep the entries for which keep() is true. */
void compdb_filter(struct compdb *db, int (*keep)(const struct tu *, void *), void *arg);
/* A one-entry database from a compiler command line (kbuild's CHECK). */
void compdb_from_argv(struct compdb *db, const char *dir, int argc, char **argv,
		      const char *file);
void compdb_free(struct compdb *db);

/* Split a shell-quoted command line the way clang tooling does, without
 * running a shell.  Returns argc (*argv NULL-terminated), or -1 when a
 * quote is never closed. */
int split_command(const char *cmd, char ***argv);
/* Split response-file text with the GNU rules clang uses (blanks
 * separate, '' and "" quote, backslash escapes).  Returns argc (*argv
 * NULL-terminated, words malloc'd). */
int rsp_tokenize(const char *text, size_t len, char ***argv);
/* Replace each @FILE after argv[0] by the words of FILE, recursively,
 * every name relative to dir (rspfile.c says why).  0, or -1 with *err
 * naming the file and why (argv unchanged). */
int rsp_expand(int *argc, char ***argv, const char *dir, char **err);
/* Drop the flags listed in argfilter.c, add the ones libclang needs
 * (tu->cc_argv keeps the original). */
void filter_args(struct tu *tu);
/* tu's own compile (cc_argv) without -c and without its output and
 * dependency files, NULL-terminated, room for `room` more; caller frees
 * the array only: the words are cc_argv's.  Run it in tu->directory. */
char **compile_argv(const struct tu *tu, int room);
/* Drop sparse's flags that kbuild puts before the compiler's. */
void filter_checkflags(struct tu *tu);

#endif
