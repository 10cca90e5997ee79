/*
 * The .charscan config file.  Any bytes: no crash, no leak; an error
 * names file:line, and a config that loads answers exclusion queries.
 */
#include <string.h>
#include "input/input.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "a.c", "drivers/tty/vt.c", "x/y/", "" };
	struct config c;
	char *err = NULL;
	const char *path = fuzz_file("charscan.conf", data, size);

	memset(&c, 0, sizeof(c));
	if (config_load(path, 1, &c, &err) == 0) {
		for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
			config_excludes(&c, paths[i]);
	} else {
		fuzz_assert(err && !strncmp(err, path, strlen(path)) && err[strlen(path)] == ':');
	}
	free(err);
	config_free(&c);
	return 0;
}
