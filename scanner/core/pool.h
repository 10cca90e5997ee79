/* Items 0..n-1 on N threads, with a progress line on a terminal. */
#ifndef CHARSCAN_POOL_H
#define CHARSCAN_POOL_H

#include <stddef.h>

struct pool_work {
	size_t n;			/* items */
	int jobs;			/* threads (capped at n) */
	const char *label;		/* progress line: "SCAN", or NULL for none */
	const char *unit;		/* "TUs" */
	void *ctx;
	/* Per thread: its state (may be NULL), each item, then the end. */
	void *(*start)(void *ctx);
	void (*item)(void *ctx, void *state, size_t i);
	void (*stop)(void *ctx, void *state);
};

/* Returns when every item is done and every stop() has returned, in
 * thread order (so what stop() gathers is in a fixed order). */
void pool_run(const struct pool_work *w);

/* "\r  LABEL  done/total UNIT  rate  ETA" on stderr. */
struct timespec;
void progress_line(const char *label, const char *unit, size_t done, size_t total,
		   const struct timespec *start);

#endif
