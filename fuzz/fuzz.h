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

/* argv's words joined, each in quote q and followed by sep, to be split
 * again.  A q inside a word is written as in_q when given (a shell's
 * '\''), else as a backslash and q; a backslash is doubled then too. */
char *fuzz_quote_words(char **argv, char q, const char *in_q, char sep);

#endif
