/*
 * The codegen oracle of one TU: compiled with -fsigned-char and with
 * -funsigned-char, which source lines have instructions, and which of
 * them have instructions that differ.
 */
#ifndef CHARSCAN_CODEGEN_H
#define CHARSCAN_CODEGEN_H

#include <stddef.h>
#include "input/input.h"
#include "core/core.h"

struct cg_line {
	const char *path;	/* interned (cg_intern): compare by pointer */
	unsigned line;
	unsigned changed;	/* instructions differ */
	char *function;		/* changed lines: where */
	char *detail;		/* changed lines: "-insn | +insn ..." */
};

struct cg_lines {
	struct cg_line *v;
	size_t len, cap;
};

struct cg_opts {
	const char *compiler;	/* NULL: the database's when it is clang */
	const char *cache_dir;	/* NULL: no cache */
	struct spawn_limits lim;	/* each compile's: --tu-timeout, --tu-memory */
};

/*
 * Compile tu both ways and add its lines to out (unsorted; one entry per
 * line of each file).  0, or -1 with *err (the compiler's first error),
 * or SPAWN_LATE when a compile was killed at o->lim's timeout.
 */
int codegen_tu(const struct tu *tu, const struct cg_opts *o, struct cg_lines *out,
	       char **err);
/* Sort by path and line and fold duplicates (headers seen by many TUs):
 * a line is changed if it changed in any TU. */
void cg_lines_finish(struct cg_lines *l);
/* The entry for path:line in a finished list, or NULL. */
const struct cg_line *cg_lines_find(const struct cg_lines *l, const char *path,
				    unsigned line);
void cg_lines_move(struct cg_lines *dst, struct cg_lines *src);
void cg_lines_free(struct cg_lines *l);

/* The one copy of path (thread-safe); freed by cg_intern_free(). */
const char *cg_intern(const char *path);
void cg_intern_free(void);

#endif
