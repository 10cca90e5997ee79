/*
 * Myers, "An O(ND) Difference Algorithm and Its Variations" (1986): the
 * greedy forward search, keeping the furthest x of every diagonal after
 * each edit so that the path can be walked back.  The common prefix and
 * suffix are taken off first: two compiles of one function mostly agree
 * except in a few places, so D stays small and the trace (O(D^2)) too.
 */
#include <stdlib.h>
#include <string.h>
#include "seqdiff.h"
#include "util.h"

static void mark_all(unsigned char *a_del, size_t n, unsigned char *b_ins, size_t m)
{
	memset(a_del, 1, n);
	memset(b_ins, 1, m);
}

/* V after edit d lives in trace[d], indexed k + d for k in -d..d. */
static long search(const uint64_t *a, long n, const uint64_t *b, long m,
		   long max_d, long **trace)
{
	for (long d = 0; d <= max_d; d++) {
		long *v = trace[d] = xmalloc((2 * d + 1) * sizeof(long));
		const long *p = d ? trace[d - 1] : NULL;	/* p[k + d - 1] */

		for (long k = -d; k <= d; k += 2) {
			long x, y;

			if (d == 0)
				x = 0;
			else if (k == -d || (k != d && p[k - 1 + d - 1] < p[k + 1 + d - 1]))
				x = p[k + 1 + d - 1];		/* down: b[y] inserted */
			else
				x = p[k - 1 + d - 1] + 1;	/* right: a[x] deleted */
			y = x - k;
			while (x < n && y < m && a[x] == b[y])
				x++, y++;
			v[k + d] = x;
			if (x >= n && y >= m)
				return d;
		}
	}
	return -1;
}

static void walk_back(long **trace, long d, long x, long y,
		      unsigned char *a_del, unsigned char *b_ins)
{
	for (; d > 0; d--) {
		const long *p = trace[d - 1];
		long k = x - y, pk, px;

		if (k == -d || (k != d && p[k - 1 + d - 1] < p[k + 1 + d - 1]))
			pk = k + 1;
		else
			pk = k - 1;
		px = p[pk + d - 1];
		if (pk == k + 1)
			b_ins[px - pk] = 1;
		else
			a_del[px] = 1;
		x = px;
		y = px - pk;
	}
}

long seqdiff(const uint64_t *a, size_t n, const uint64_t *b, size_t m,
	     unsigned char *a_del, unsigned char *b_ins, size_t max_edits)
{
	size_t pre = 0, suf = 0;
	long **trace, d;

	memset(a_del, 0, n);
	memset(b_ins, 0, m);
	while (pre < n && pre < m && a[pre] == b[pre])
		pre++;
	while (suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf])
		suf++;
	a += pre, b += pre, a_del += pre, b_ins += pre;
	n -= pre + suf, m -= pre + suf;
	if (!n || !m) {
		mark_all(a_del, n, b_ins, m);
		return (long)(n + m);
	}
	if (max_edits > n + m)
		max_edits = n + m;
	trace = xcalloc(max_edits + 1, sizeof(*trace));
	d = search(a, (long)n, b, (long)m, (long)max_edits, trace);
	if (d < 0)
		mark_all(a_del, n, b_ins, m);
	else
		walk_back(trace, d, (long)n, (long)m, a_del, b_ins);
	for (size_t i = 0; i <= max_edits && trace[i]; i++)
		free(trace[i]);
	free(trace);
	return d;
}
