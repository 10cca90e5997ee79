/*
 * The corpora replayed without libFuzzer: make check runs every input of
 * fuzz/corpus/NAME through the harness, built with the scanner's own
 * objects (and its sanitizers under SANITIZE=1).
 */
#include <stdlib.h>
#include "fuzz.h"
#include "core/core.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t len;
		char *data;

		if (!f)
			die("cannot read %s", argv[i]);
		data = read_all(f, &len);
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
	}
	printf("%d inputs replayed\n", argc - 1);
	return 0;
}
