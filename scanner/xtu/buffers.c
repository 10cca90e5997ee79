/*
 * The join of the buffer records (analysis/xbuffers.c): a constant
 * outside 0..127 stored into the memory a char * parameter of a
 * function with external linkage points at (CS004) is read back by
 * that function's callers.  The store goes when every TU that kept it
 * rests it on such a parameter, the scan sees the function called, every
 * call gives that argument memory read only as bytes (unsigned char, or
 * an array its TU reads only as bytes), and no TU takes the function's
 * address.  ndisc_mc_map()'s callers give it `unsigned char ha[]` or a
 * `char buf[]` handed on to dev_mc_add(): the 0xff bytes of an IB
 * multicast address that if_inet6.h stores there are only moved.  A
 * caller outside the database is not seen: the pass says how many calls
 * it rests on.
 */
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "core/core.h"

static int by_call(const void *a, const void *b)
{
	const struct xrec *x = *(const struct xrec *const *)a, *y = *(const struct xrec *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->arg > y->arg) - (x->arg < y->arg);
}

static int by_loc(const void *a, const void *b)
{
	const struct loc *x = &(*(const struct xrec *const *)a)->loc;
	const struct loc *y = &(*(const struct xrec *const *)b)->loc;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

static const struct xrec **collect(const struct xrecs *r, char kind, size_t *n)
{
	const struct xrec **v = xcalloc(r->len + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < r->len; i++)
		if (r->v[i].kind == kind && r->v[i].name && r->v[i].text && r->v[i].loc.path)
			v[(*n)++] = &r->v[i];
	return v;
}

/* The first of g's records (sorted) under name. */
static size_t first_of(const struct xrec **g, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(g[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A value parameter's records are "v:name": the address is name's. */
static int address_taken(const struct xrec **g, size_t n, const char *name)
{
	if (!strncmp(name, "v:", 2))
		name += 2;
	for (size_t i = first_of(g, n, name); i < n && !strcmp(g[i]->name, name); i++)
		if (!strcmp(g[i]->text, "address"))
			return 1;
	return 0;
}

/* The calls of name() giving argument k memory read as bytes (a value
 * in 0..127), or 0 when one gives anything else or the address is
 * taken.  A value parameter's (tu: the TU that defines the function)
 * needs a call from another TU too: then the scan holds the program
 * around the function, not only the function and a test of it (a
 * main() that calls it with a letter). */
static unsigned byte_calls(const struct xrec **g, size_t n, const char *name, unsigned k,
			   const char *tu)
{
	unsigned calls = 0;
	int elsewhere = strncmp(name, "v:", 2) != 0;

	if (address_taken(g, n, name))
		return 0;
	for (size_t i = first_of(g, n, name); i < n && !strcmp(g[i]->name, name); i++) {
		if (g[i]->arg != k || !strcmp(g[i]->text, "address"))
			continue;
		if (strcmp(g[i]->text, "bytes"))
			return 0;
		calls++;
		elsewhere |= !tu || !g[i]->tu || strcmp(g[i]->tu, tu);
	}
	return elsewhere ? calls : 0;
}

/* The rule of the finding a P record keeps: CS004 for stores; a value
 * parameter's says it ("CS003 d"). */
static int record_rule(const struct xrec *x)
{
	char id[8];

	if (strncmp(x->name, "v:", 2))
		return CS004;
	snprintf(id, sizeof(id), "%.5s", x->text);
	return rule_lookup(id);
}

void xtu_plan_buffers(struct xtu_plan *p, const struct xrecs *r)
{
	size_t ng, ns, i = 0;
	const struct xrec **g = collect(r, X_PARG, &ng), **s = collect(r, X_PSTORE, &ns);

	p->bytes = xcalloc(ns + 1, sizeof(*p->bytes));
	p->nbytes = 0;
	if (ng)
		qsort(g, ng, sizeof(*g), by_call);
	if (ns)
		qsort(s, ns, sizeof(*s), by_loc);
	while (i < ns) {
		size_t j = i;
		int gone = 1;

		for (; j < ns && !by_loc(&s[i], &s[j]); j++)
			if (!strcmp(s[j]->name, "-") ||
			    !byte_calls(g, ng, s[j]->name, s[j]->arg, s[j]->tu))
				gone = 0;
		for (; gone && i < j; i++)
			p->bytes[p->nbytes++] = s[i];
		i = j;
	}
	/* the records' names are looked up again when the findings go */
	p->bytes_calls = g;
	p->nbytes_calls = ng;
	free(s);
}

/* The record, at f's place and of f's rule, that lets f go; or NULL. */
static const struct xrec *store_at(const struct xtu_plan *p, const struct finding *f)
{
	struct xrec key = { .loc = f->loc };
	const struct xrec *k = &key, **hit;
	size_t at;

	key.loc.path = f->loc.path ? f->loc.path : "";
	hit = bsearch(&k, p->bytes, p->nbytes, sizeof(*p->bytes), by_loc);
	if (!hit)
		return NULL;
	for (at = (size_t)(hit - p->bytes); at > 0 && !by_loc(&k, &p->bytes[at - 1]); at--)
		;
	for (; at < p->nbytes && !by_loc(&k, &p->bytes[at]); at++)
		if (record_rule(p->bytes[at]) == (int)f->rule)
			return p->bytes[at];
	return NULL;
}

/* A field's key is its USR (c:@S@mpc_table@FI@checksum), a function's
 * its name. */
static char *pass_text(const struct xtu_plan *p, const struct xrec *s)
{
	unsigned n = byte_calls(p->bytes_calls, p->nbytes_calls, s->name, s->arg, s->tu);
	const char *expr = *s->text ? s->text : "value";
	char *what, *r;

	if (!strncmp(s->name, "v:", 2))
		return xasprintf("'%s': every call of %s() the scan sees (in %u TU%s) passes "
				 "argument %u ASCII only (a value in 0..127, or constant ASCII text)", strlen(expr) > 6 ? expr + 6 : "value",
				 s->name + 2, n, n == 1 ? "" : "s", s->arg + 1);
	if (strncmp(s->name, "c:", 2))
		return xasprintf("'%s': stored into the memory argument %u of %s() points at; "
				 "every call of it the scan sees (in %u TU%s) gives memory read "
				 "only as bytes", expr, s->arg + 1, s->name, n, n == 1 ? "" : "s");
	what = usr_words(s->name);
	r = xasprintf("'%s': stored into %s; every read of it the scan sees (in %u TU%s) "
		      "reads it as bytes", expr, what, n, n == 1 ? "" : "s");
	free(what);
	return r;
}

void xtu_drop_buffers(struct findings *f, const struct xtu_plan *p)
{
	unsigned char *drop;
	int any = 0;

	if (!p->nbytes)
		return;
	drop = xcalloc(f->len + 1, 1);
	for (size_t i = 0; i < f->len; i++) {
		struct finding *x = &f->v[i];
		const struct xrec *s = !x->pass ? store_at(p, x) : NULL;

		if (!s)
			continue;
		if (!p->explain) {
			drop[i] = any = 1;
			continue;
		}
		finding_make_pass(x, pass_text(p, s));
	}
	if (any)
		findings_drop(f, drop);
	free(drop);
}
