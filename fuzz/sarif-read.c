/*
 * Reading SARIF back (--baseline, merge, confirm).  Any bytes: no crash,
 * no leak, an error or findings.  What is read and written again reads
 * back and writes the same log: nothing sarif-read.c accepts is lost or
 * changed on the second trip.  The baseline matcher runs on the result.
 */
#include <string.h>
#include "report/report.h"
#include "fuzz.h"
#include "sarif/sarif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *in_log = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	struct sarif_in first, second;
	struct findings absent = { 0 };
	json_t *log1, *log2;
	char *err = NULL;

	if (!in_log)
		return 0;
	if (sarif_from_json(in_log, "input", &first, &err)) {
		fuzz_assert(err && *err);
		free(err);
		json_decref(in_log);
		return 0;
	}
	json_decref(in_log);
	log1 = sarif_in_log(&first);
	fuzz_assert(sarif_from_json(log1, "written", &second, &err) == 0);
	log2 = sarif_in_log(&second);
	fuzz_assert(json_equal(log1, log2));
	baseline_apply(&second.findings, &first.findings, &absent);
	json_decref(log1);
	json_decref(log2);
	findings_free(&absent);
	sarif_in_free(&first);
	sarif_in_free(&second);
	return 0;
}
