/* The rule engine: one walk per top-level declaration of a TU. */
#ifndef CHARSCAN_ENGINE_H
#define CHARSCAN_ENGINE_H

#include <clang-c/Index.h>
#include "findings.h"
#include "summary.h"

struct engine_opts {
	unsigned char enabled[NR_RULES];
	unsigned breaks_mask;		/* BREAKS_SIGNED | BREAKS_UNSIGNED */
	int explain;			/* also the harmless widenings, as passes */
};

/* Analyse every declaration of tu outside system headers: findings into
 * out, what other TUs may need into xout; xin: what they told this one
 * (a second walk, summary.h), or NULL. */
void engine_run(CXTranslationUnit tu, const struct engine_opts *opts,
		const struct xtu_ctx *xin, struct findings *out, struct xrecs *xout);

#endif
