/* The rule engine: one walk per top-level declaration of a TU. */
#ifndef CHARSCAN_ENGINE_H
#define CHARSCAN_ENGINE_H

#include <clang-c/Index.h>
#include "findings.h"

struct engine_opts {
	unsigned char enabled[NR_RULES];
	unsigned breaks_mask;		/* BREAKS_SIGNED | BREAKS_UNSIGNED */
	int explain;			/* also the harmless widenings, as passes */
};

/* Analyse every declaration of tu outside system headers. */
void engine_run(CXTranslationUnit tu, const struct engine_opts *opts,
		struct findings *out);

#endif
