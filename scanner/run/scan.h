/* Parse every TU of the database in worker processes and run the engine. */
#ifndef CHARSCAN_SCAN_H
#define CHARSCAN_SCAN_H

#include "input/input.h"
#include "analysis/analysis.h"
#include "core/core.h"
#include "cache.h"

struct scan_limits {
	int jobs;			/* worker processes at a time */
	unsigned timeout;		/* seconds per TU, 0 for none */
	unsigned long memory_mb;	/* address space per worker, 0 for none */
	int progress;			/* a progress line on stderr */
	struct scan_cache *cache;	/* --cache DIR, or NULL */
};

struct scan_result {
	struct findings findings;
	struct notices notices;		/* in database order */
	struct xrecs xrecs;		/* what TUs tell each other (summary.h) */
	size_t tus_scanned, tus_failed;
	size_t tus_cached;		/* of tus_scanned, answered from the cache */
};

/* plan: a second walk of the TUs it has something to tell (NULL: the
 * first, of every TU). */
void scan(const struct compdb *db, const struct engine_opts *opts,
	  const struct scan_limits *lim, const struct xtu_plan *plan, struct scan_result *res);
/* TUs finished so far and in all, for a message when interrupted. */
void scan_progress(size_t *done, size_t *total);

#endif
