/*
 * The worker-to-parent messages.  A worker that dies mid-write leaves
 * any prefix, and a broken one any bytes: no crash, no leak, a whole
 * message or -1.  A message decoded and encoded again is the same bytes
 * (cross-TU records included: their text form is canonical once read).
 */
#include <string.h>
#include "fuzz.h"
#include "sarif/sarif.h"
#include "report/report.h"
#include "run/run.h"

/* What the parent does with a decoded message: both reports. */
static void report(const struct findings *f, const struct notices *n)
{
	struct filecache src = { 0 };
	struct sarif_run run = { "/", "both", 1, &src, NULL, NULL };
	FILE *out = fopen("/dev/null", "w");
	json_t *log = sarif_log(f, n, &run);

	write_text(out, f, "/", 0);
	fclose(out);
	json_decref(log);
	filecache_free(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf in = { (char *)data, size, size }, out = { 0 }, again = { 0 };
	struct findings f = { 0 }, g = { 0 };
	struct notices n = { 0 }, m = { 0 };
	struct xrecs x = { 0 }, y = { 0 };
	unsigned failed, failed2;

	if (wire_get(&in, &f, &n, &x, &failed) == 0) {
		report(&f, &n);
		wire_put(&out, &f, &n, &x, failed);
		fuzz_assert(wire_get(&out, &g, &m, &y, &failed2) == 0 && failed2 == failed);
		wire_put(&again, &g, &m, &y, failed2);
		fuzz_assert(again.len == out.len && !memcmp(again.p, out.p, out.len));
	} else {
		fuzz_assert(f.len == 0 && n.len == 0 && x.len == 0);
	}
	xrecs_free(&x);
	xrecs_free(&y);
	findings_free(&f);
	findings_free(&g);
	notices_free(&n);
	notices_free(&m);
	buf_free(&out);
	buf_free(&again);
	return 0;
}
