/*
 * Workers take items from a shared counter; each keeps its own state
 * (a CXIndex, a findings list) and hands it back in stop(), called in
 * thread order after all have finished, so nothing the caller gathers
 * depends on which thread ran what.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "pool.h"
#include "util.h"

struct pool {
	const struct pool_work *w;
	atomic_size_t next, done;
	struct timespec start;
	pthread_mutex_t progress_lock;
};

struct thread {
	pthread_t id;
	struct pool *p;
	void *state;
};

void progress_line(const char *label, const char *unit, size_t done, size_t total,
		   const struct timespec *start)
{
	struct timespec now;
	double secs, rate;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
	rate = secs > 0 ? done / secs : 0;
	fprintf(stderr, "\r  %s  %zu/%zu %s  %.1f/s  ETA %.0f s  ", label, done, total, unit,
		rate, rate > 0 ? (total - done) / rate : 0.0);
}

static void show_progress(struct pool *p)
{
	pthread_mutex_lock(&p->progress_lock);
	progress_line(p->w->label, p->w->unit, atomic_load(&p->done), p->w->n, &p->start);
	pthread_mutex_unlock(&p->progress_lock);
}

static void *run(void *arg)
{
	struct thread *t = arg;
	struct pool *p = t->p;
	const struct pool_work *w = p->w;
	size_t i;

	t->state = w->start ? w->start(w->ctx) : NULL;
	while ((i = atomic_fetch_add(&p->next, 1)) < w->n) {
		w->item(w->ctx, t->state, i);
		atomic_fetch_add(&p->done, 1);
		if (w->label)
			show_progress(p);
	}
	return NULL;
}

void pool_run(const struct pool_work *w)
{
	struct pool p = { .w = w };
	int jobs = w->jobs < 1 ? 1 : w->jobs;
	struct thread *t;

	if ((size_t)jobs > w->n)
		jobs = w->n ? (int)w->n : 1;
	pthread_mutex_init(&p.progress_lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	t = xcalloc(jobs, sizeof(*t));
	for (int j = 0; j < jobs; j++) {
		t[j].p = &p;
		if (pthread_create(&t[j].id, NULL, run, &t[j]))
			die("cannot start a worker thread");
	}
	for (int j = 0; j < jobs; j++)
		pthread_join(t[j].id, NULL);
	for (int j = 0; j < jobs; j++)
		if (w->stop)
			w->stop(w->ctx, t[j].state);
	if (w->label)
		fputs("\n", stderr);
	free(t);
	pthread_mutex_destroy(&p.progress_lock);
}
