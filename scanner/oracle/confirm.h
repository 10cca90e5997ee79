/* charscan confirm: the codegen oracle (codegen.c) on a scan report. */
#ifndef CHARSCAN_CONFIRM_H
#define CHARSCAN_CONFIRM_H

#include "core/core.h"

/* -p DB [FILE...] -o OUT REPORT: returns the exit status. */
int confirm_command(const struct options *o);

#endif
