/*
 * The compile database reader and the command splitter.  Any bytes:
 * no crash, no leak, an error or a database.  A command string split
 * into words, each written back in single quotes, splits into the same
 * words: nothing is lost or invented by the quoting rules.
 */
#include <string.h>
#include "input/input.h"
#include "fuzz.h"
#include "core/core.h"

static void free_argv(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

static void split_twice(const char *cmd)
{
	char **argv, **again, *quoted;
	int n = split_command(cmd, &argv), m;

	if (n < 0) {
		fuzz_assert(!argv);
		return;
	}
	quoted = fuzz_quote_words(argv, '\'', "'\\''", ' ');
	m = split_command(quoted, &again);
	fuzz_assert(m == n);
	for (int i = 0; i < n; i++)
		fuzz_assert(!strcmp(argv[i], again[i]));
	free(quoted);
	free_argv(argv);
	free_argv(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compdb db = { 0 };
	struct notices notes = { 0 };
	char *err = NULL, *cmd = fuzz_string(data, size);
	const char *path = fuzz_file("compile_commands.json", data, size);

	split_twice(cmd);
	free(cmd);
	if (compdb_load(path, &db, &notes, &err) == 0) {
		for (size_t i = 0; i < db.len; i++)
			fuzz_assert(db.tu[i].file && db.tu[i].file[0] == '/' && db.tu[i].argv);
		compdb_free(&db);
	} else {
		fuzz_assert(err && *err);
	}
	free(err);
	notices_free(&notes);
	return 0;
}
