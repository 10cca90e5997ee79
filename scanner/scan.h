/* Parse every TU of the database on N threads and run the engine. */
#ifndef CHARSCAN_SCAN_H
#define CHARSCAN_SCAN_H

#include "compdb.h"
#include "engine.h"
#include "findings.h"

struct scan_result {
	struct findings findings;
	struct notices notices;		/* in database order */
	size_t tus_scanned, tus_failed;
};

void scan(const struct compdb *db, const struct engine_opts *opts, int jobs,
	  int progress, struct scan_result *res);

#endif
