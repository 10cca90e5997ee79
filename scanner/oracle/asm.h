/*
 * Compiler assembly (clang -S -gline-tables-only, x86-64 AT&T syntax) read
 * as functions of normalised instructions, each with its source line.
 */
#ifndef CHARSCAN_ASM_H
#define CHARSCAN_ASM_H

#include <stddef.h>
#include <stdint.h>

struct insn {
	uint64_t hash;		/* of text: what the diff compares */
	char *text;		/* normalised: labels renumbered, registers by width */
	unsigned file;		/* index into asm_unit.files, or NO_FILE */
	unsigned line;		/* 0: no line (compiler-made code) */
};

#define NO_FILE ((unsigned)-1)

struct asm_func {
	char *name;
	struct insn *v;
	size_t len, cap;
};

struct asm_unit {
	char **files;		/* by .file number; absolute, cleaned; may be NULL */
	size_t nfiles;
	struct asm_func *fn;
	size_t nfn, capfn;
};

/* Parse buf; relative .file names are relative to dir (the compile's). */
void asm_parse(const char *buf, const char *dir, struct asm_unit *u);
/* The function named name, or NULL. */
const struct asm_func *asm_find(const struct asm_unit *u, const char *name);
void asm_free(struct asm_unit *u);

#endif
