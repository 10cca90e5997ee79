/*
 * Reading SARIF logs back (--baseline, merge, confirm, kbuild's append):
 * only charscan's own, and only whole.  Another tool's results would be
 * imported as "absent" findings, and a damaged result copied by merge
 * would make its output schema-invalid, so every run and result is
 * checked here for the shape sarif.c writes before anyone reads it.
 */
#include <string.h>
#include "sarif.h"
#include "util.h"

#define TOOL_NAME "charscan"

const char *sarif_str(json_t *obj, const char *path)
{
	char key[64];
	const char *dot;

	/* "a.b.c": nested objects; NULL anywhere gives "". */
	while (obj && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		obj = json_object_get(obj, key);
		path = dot + 1;
	}
	obj = obj ? json_object_get(obj, path) : NULL;
	return json_is_string(obj) ? json_string_value(obj) : "";
}

/* A member that must be absent or one of the listed strings. */
struct enum_member {
	const char *key;
	const char *values[7];
};

static const struct enum_member result_enums[] = {
	{ "level", { "none", "note", "warning", "error" } },
	{ "kind", { "pass", "fail", "open", "review", "informational", "notApplicable" } },
	{ "baselineState", { "new", "unchanged", "updated", "absent" } },
};

/* Members that must be arrays of objects when present. */
static const char *const result_arrays[] = {
	"relatedLocations", "codeFlows", "fixes", "suppressions",
};

static const char *check_enum(json_t *obj, const struct enum_member *e)
{
	json_t *v = json_object_get(obj, e->key);

	if (!v)
		return NULL;
	for (size_t i = 0; i < sizeof(e->values) / sizeof(*e->values) && e->values[i]; i++)
		if (json_is_string(v) && !strcmp(json_string_value(v), e->values[i]))
			return NULL;
	return e->key;
}

static int objects(json_t *v)
{
	size_t i;
	json_t *x;

	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, x)
		if (!json_is_object(x))
			return 0;
	return 1;
}

static int positive(json_t *obj, const char *key, int required)
{
	json_t *v = json_object_get(obj, key);

	return v ? json_is_integer(v) && json_integer_value(v) >= 1 : !required;
}

static const char *check_location(json_t *loc)
{
	json_t *phys = json_object_get(loc, "physicalLocation");
	json_t *region = json_object_get(phys, "region");

	if (!json_is_object(phys) || !*sarif_str(phys, "artifactLocation.uri"))
		return "a location without physicalLocation.artifactLocation.uri";
	if (!json_is_object(region) || !positive(region, "startLine", 1) ||
	    !positive(region, "startColumn", 0) || !positive(region, "endLine", 0) ||
	    !positive(region, "endColumn", 0))
		return "a location without a region of positive line and column numbers";
	return NULL;
}

static const char *check_result(json_t *r)
{
	json_t *fps = json_object_get(r, "partialFingerprints"), *v, *locs;
	const char *key, *bad;
	size_t i;

	if (!json_is_object(r))
		return "a result that is not an object";
	if (!*sarif_str(r, "ruleId"))
		return "a result without ruleId";
	if (!json_is_string(json_object_get(json_object_get(r, "message"), "text")))
		return "a result without message.text";
	for (i = 0; i < sizeof(result_enums) / sizeof(*result_enums); i++)
		if ((bad = check_enum(r, &result_enums[i])))
			return bad;
	for (i = 0; i < sizeof(result_arrays) / sizeof(*result_arrays); i++)
		if ((v = json_object_get(r, result_arrays[i])) && !objects(v))
			return result_arrays[i];
	if (fps) {
		if (!json_is_object(fps))
			return "partialFingerprints";
		json_object_foreach(fps, key, v)
			if (!json_is_string(v))
				return "partialFingerprints";
	}
	if ((v = json_object_get(r, "properties")) && !json_is_object(v))
		return "properties";
	locs = json_object_get(r, "locations");
	if (!objects(locs) || !json_array_size(locs))
		return "a result without locations";
	json_array_foreach(locs, i, v)
		if ((bad = check_location(v)))
			return bad;
	return NULL;
}

static const char *check_invocations(json_t *inv)
{
	size_t i, k;
	json_t *x, *n;

	if (!inv)
		return NULL;
	if (!objects(inv))
		return "invocations";
	json_array_foreach(inv, i, x) {
		json_t *notes = json_object_get(x, "toolExecutionNotifications");

		if (!json_is_boolean(json_object_get(x, "executionSuccessful")) ||
		    (notes && !objects(notes)))
			return "invocations";
		json_array_foreach(notes, k, n)
			if (!json_is_string(json_object_get(json_object_get(n, "message"), "text")))
				return "a notification without message.text";
	}
	return NULL;
}

/* NULL, or why run r of path is not a charscan run (caller frees). */
static char *check_run(const char *path, size_t ri, json_t *run)
{
	const char *tool = sarif_str(run, "tool.driver.name"), *bad;
	json_t *results = json_object_get(run, "results"), *x;
	size_t i;

	if (!json_is_object(run))
		return xasprintf("%s: run %zu is not an object", path, ri);
	if (strcmp(tool, TOOL_NAME))
		return xasprintf("%s: run %zu was written by %s%s%s, not by charscan", path, ri,
				 *tool ? "'" : "an unnamed tool", tool, *tool ? "'" : "");
	if (!json_is_array(results))
		return xasprintf("%s: run %zu has no results array", path, ri);
	if ((bad = check_invocations(json_object_get(run, "invocations"))))
		return xasprintf("%s: run %zu: malformed %s", path, ri, bad);
	json_array_foreach(results, i, x)
		if ((bad = check_result(x)))
			return xasprintf("%s: run %zu, result %zu: malformed %s", path, ri, i, bad);
	return NULL;
}

json_t *sarif_read(const char *path, char **err)
{
	json_error_t e;
	json_t *log = json_load_file(path, JSON_REJECT_DUPLICATES, &e), *version, *runs;

	if (!log) {
		*err = e.line > 0 ? xasprintf("%s:%d:%d: not JSON: %s", path, e.line, e.column, e.text)
				  : xasprintf("cannot read %s: %s", path, e.text);
		return NULL;
	}
	version = json_object_get(log, "version");
	runs = json_object_get(log, "runs");
	if (!json_is_string(version) || strcmp(json_string_value(version), "2.1.0") ||
	    !json_is_array(runs)) {
		*err = xasprintf("%s: not a SARIF 2.1.0 log", path);
		json_decref(log);
		return NULL;
	}
	if (sarif_check(log, path, err)) {
		json_decref(log);
		return NULL;
	}
	return log;
}

int sarif_check(json_t *log, const char *name, char **err)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(log, "runs"), i, run)
		if ((*err = check_run(name, i, run)))
			return -1;
	return 0;
}
