/*
 * What the harnesses share: the input as a C string or a file, and a
 * check that aborts (so libFuzzer keeps the input) when a property the
 * code promises does not hold.  Each harness defines
 * LLVMFuzzerTestOneInput(); libFuzzer or replay.c calls it.
 */
#ifndef CHARSCAN_FUZZ_H
#define CHARSCAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_assert(cond)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: property does not hold: %s\n",	\
				__FILE__, __LINE__, #cond);			\
			abort();						\
		}								\
	} while (0)

/* data as a NUL-terminated string (cut at its first NUL); caller frees. */
char *fuzz_string(const uint8_t *data, size_t size);
/* data written to NAME in this process's scratch folder; its path. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);

#endif
