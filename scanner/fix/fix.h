/* charscan fix: a report's fixes applied, shown or written as patches. */
#ifndef CHARSCAN_FIX_H
#define CHARSCAN_FIX_H

#include "core/core.h"

/* EXIT_CLEAN, EXIT_INCOMPLETE (a file changed since the scan: its fixes
 * were refused) or EXIT_USAGE (the report or a file could not be read
 * or written). */
int fix_command(const struct options *o);

#endif
