/*
 * Response files: any bytes as a file named by @a.rsp (which may name
 * itself, or other files that are not there): no crash, no leak, no
 * hang; an error naming the file (by its full path), or words.  Words written back in
 * double quotes with '"' and '\' escaped tokenize into the same words.
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

static void tokenize_twice(const uint8_t *data, size_t size)
{
	char **argv, **again, *quoted;
	int n = rsp_tokenize((const char *)data, size, &argv), m;

	quoted = fuzz_quote_words(argv, '"', NULL, '\n');
	m = rsp_tokenize(quoted, strlen(quoted), &again);
	fuzz_assert(m == n);
	for (int i = 0; i < n; i++)
		fuzz_assert(argv[i][0] && !strcmp(argv[i], again[i]));
	free(quoted);
	free_argv(argv);
	free_argv(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("a.rsp", data, size);
	char *dir = xstrdup(path), *err = NULL;
	char **argv = xcalloc(4, sizeof(*argv));
	int argc = 3;

	*strrchr(dir, '/') = '\0';
	argv[0] = xstrdup("cc");
	argv[1] = xstrdup("@a.rsp");
	argv[2] = xstrdup("-c");
	/* rsp_expand() refuses a file with a NUL byte before splitting it */
	if (!memchr(data, '\0', size))
		tokenize_twice(data, size);
	if (rsp_expand(&argc, &argv, dir, &err) == 0) {
		fuzz_assert(argc >= 2 && !argv[argc] && !strcmp(argv[argc - 1], "-c"));
	} else {
		fuzz_assert(err && !strncmp(err, "response file /", 15) && argc == 3);
		free(err);
	}
	free_argv(argv);
	free(dir);
	return 0;
}
