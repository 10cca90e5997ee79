/* What guard.c shares with rewrites.c, the writes that undo a guard. */
#ifndef CHARSCAN_GUARD_H
#define CHARSCAN_GUARD_H

#include "walk.h"

/* A guard test: does cond, taken as want, let the keyed value through? */
typedef int (*guard_test)(struct walk *w, int cond, const char *key, int want);

/* Text of node i as written, without ++, -- and parentheses: the value
 * it reads, the key guards are matched by. */
char *value_key(struct walk *w, int i);
/* Does statement i (or a block's last statement) leave by a jump? */
int is_jump(const struct tree *t, int i);
/* Is a variable the key reads written in nodes [from, use)? */
int written_between(struct walk *w, int from, int use, const char *key);
/* Does a loop between the guard (from) and the use write what the key
 * reads, reaching the use again, without testing again each round? */
int loop_rewrites(struct walk *w, int from, int use, const char *key, guard_test test);

#endif
