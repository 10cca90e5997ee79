/* The rule engine: one walk per top-level declaration of a TU. */
#ifndef CHARSCAN_ENGINE_H
#define CHARSCAN_ENGINE_H

#include <clang-c/Index.h>
#include "core/core.h"
#include "xtu/xtu.h"

/* Analyse every declaration of tu outside system headers: findings into
 * out, what other TUs may need into xout; xin: what they told this one
 * (a second walk, summary.h), or NULL. */
void engine_run(CXTranslationUnit tu, const struct engine_opts *opts,
		const struct xtu_ctx *xin, struct findings *out, struct xrecs *xout);

#endif
