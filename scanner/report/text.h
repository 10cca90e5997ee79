#ifndef CHARSCAN_TEXT_H
#define CHARSCAN_TEXT_H

#include <stdio.h>
#include "core/core.h"

/*
 * gcc-style "path:line:col: warning: message [CS001]", one note line per
 * related location and fix: what vim's quickfix and emacs's
 * compilation-mode read.  Columns count bytes, as clang's do.  Suppressed
 * findings are left out, and with only_new all but the new ones.
 */
void write_text(FILE *f, const struct findings *fs, const char *base, int only_new);

#endif
