#ifndef CHARSCAN_TEXT_H
#define CHARSCAN_TEXT_H

#include <stdio.h>
#include "findings.h"

/* gcc-style "path:line:col: warning: message [CS001]", one note line per
 * related location: what vim's quickfix and emacs's compilation-mode read. */
void write_text(FILE *f, const struct findings *fs, const char *base);

#endif
