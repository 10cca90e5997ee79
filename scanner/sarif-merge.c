/*
 * SARIF logs (read by sarif-read.c) merged into one run, written
 * atomically and appended to under a lock (kbuild's C=1 runs one
 * charscan per file, make -j runs them at once).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "output.h"
#include "sarif.h"
#include "util.h"

static json_t *first_location(json_t *result)
{
	json_t *loc = json_array_get(json_object_get(result, "locations"), 0);

	return loc ? json_object_get(loc, "physicalLocation") : NULL;
}

static json_int_t region_int(json_t *result, const char *key)
{
	json_t *loc = first_location(result);

	return json_integer_value(json_object_get(json_object_get(loc, "region"), key));
}

/* Rule and place: the same finding reached from two TUs is one result. */
static char *result_key(json_t *result)
{
	json_t *loc = first_location(result);

	return xasprintf("%s\x1f%s\x1f%s\x1f%lld\x1f%lld", sarif_str(result, "ruleId"),
			 sarif_str(loc, "artifactLocation.uriBaseId"),
			 sarif_str(loc, "artifactLocation.uri"),
			 (long long)region_int(result, "startLine"),
			 (long long)region_int(result, "startColumn"));
}

static int cmp_result(const void *pa, const void *pb)
{
	json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	json_t *la = first_location(a), *lb = first_location(b);
	json_int_t x, y;
	char *da, *db;
	int c;

	if ((c = strcmp(sarif_str(la, "artifactLocation.uri"), sarif_str(lb, "artifactLocation.uri"))))
		return c;
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "startColumn" : "startLine";

		x = region_int(a, key);
		y = region_int(b, key);
		if (x != y)
			return x < y ? -1 : 1;
	}
	if ((c = strcmp(sarif_str(a, "ruleId"), sarif_str(b, "ruleId"))))
		return c;
	/* Whatever order the inputs came in, the output is the same. */
	da = json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT);
	db = json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT);
	c = strcmp(da, db);
	free(da);
	free(db);
	return c;
}

static void sort_results(json_t *run)
{
	json_t *results = json_object_get(run, "results"), *sorted = json_array();
	size_t n = json_array_size(results);
	json_t **v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(results, i);
	qsort(v, n, sizeof(*v), cmp_result);
	for (size_t i = 0; i < n; i++)
		json_array_append(sorted, v[i]);
	json_object_set_new(run, "results", sorted);
	free(v);
}

static json_t *rules_of(json_t *run)
{
	json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	json_t *rules = json_object_get(driver, "rules");

	if (!json_is_array(rules)) {
		rules = json_array();
		json_object_set_new(driver, "rules", rules);
	}
	return rules;
}

static int rule_index(json_t *rules, const char *id)
{
	for (size_t i = 0; i < json_array_size(rules); i++)
		if (!strcmp(sarif_str(json_array_get(rules, i), "id"), id))
			return (int)i;
	return -1;
}

static void merge_rules(json_t *into, json_t *from)
{
	json_t *rules = rules_of(into), *other = json_object_get(
		json_object_get(json_object_get(from, "tool"), "driver"), "rules");

	for (size_t i = 0; i < json_array_size(other); i++) {
		json_t *r = json_array_get(other, i);

		if (rule_index(rules, sarif_str(r, "id")) < 0)
			json_array_append(rules, r);
	}
}

static void merge_results(json_t *into, json_t *from, json_t *seen)
{
	json_t *results = json_object_get(into, "results"), *rules = rules_of(into);
	json_t *other = json_object_get(from, "results");

	for (size_t i = 0; i < json_array_size(other); i++) {
		json_t *r = json_deep_copy(json_array_get(other, i));
		char *key = result_key(r);
		int idx = rule_index(rules, sarif_str(r, "ruleId"));

		if (json_object_get(seen, key)) {
			json_decref(r);
		} else {
			json_object_set_new(seen, key, json_true());
			if (idx >= 0)
				json_object_set_new(r, "ruleIndex", json_integer(idx));
			else
				json_object_del(r, "ruleIndex");
			json_array_append_new(results, r);
		}
		free(key);
	}
}

/* All invocations of a run folded into into's one invocation. */
static void merge_invocations(json_t *inv, json_t *from)
{
	json_t *list = json_object_get(from, "invocations");
	json_t *notes = json_object_get(inv, "toolExecutionNotifications");

	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *x = json_array_get(list, i), *ok = json_object_get(x, "executionSuccessful");
		json_t *more = json_object_get(x, "toolExecutionNotifications");

		if (!json_is_true(ok))
			json_object_set_new(inv, "executionSuccessful", json_false());
		for (size_t k = 0; k < json_array_size(more); k++) {
			json_t *n = json_array_get(more, k);
			size_t j;

			for (j = 0; j < json_array_size(notes); j++)
				if (json_equal(json_array_get(notes, j), n))
					break;
			if (j == json_array_size(notes))
				json_array_append(notes, n);
		}
	}
}

static char *mismatch(json_t *into, json_t *from)
{
	static const char *const same[] = {
		"tool.driver.name", "originalUriBaseIds.%SRCROOT%.uri", "columnKind",
	};

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (strcmp(sarif_str(into, same[i]), sarif_str(from, same[i])))
			return xasprintf("runs differ in %s ('%s' and '%s'): they cannot be one run",
					 same[i], sarif_str(into, same[i]), sarif_str(from, same[i]));
	return NULL;
}

static json_t *empty_run(json_t *first)
{
	json_t *run = json_deep_copy(first);

	json_object_set_new(run, "results", json_array());
	json_object_set_new(run, "invocations", json_pack("[{s:b, s:[]}]",
		"executionSuccessful", 1, "toolExecutionNotifications"));
	return run;
}

json_t *sarif_merge(json_t *const *logs, size_t n, char **err)
{
	json_t *run = NULL, *seen = json_object(), *log;

	for (size_t l = 0; l < n; l++) {
		json_t *runs = json_object_get(logs[l], "runs");

		for (size_t i = 0; i < json_array_size(runs); i++) {
			json_t *r = json_array_get(runs, i);

			if (!run)
				run = empty_run(r);
			if ((*err = mismatch(run, r))) {
				json_decref(run);
				json_decref(seen);
				return NULL;
			}
			merge_rules(run, r);
			merge_results(run, r, seen);
			merge_invocations(json_array_get(json_object_get(run, "invocations"), 0), r);
		}
	}
	json_decref(seen);
	if (!run) {
		*err = xstrdup("no runs to merge");
		return NULL;
	}
	sort_results(run);
	log = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA_URI,
			"version", "2.1.0", "runs", run);
	return log;
}

int sarif_dump(json_t *log, struct output *out, char **err)
{
	if (json_dumpf(log, out->f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', out->f) == EOF) {
		*err = xasprintf("cannot write %s", out->path);
		output_abort(out);
		return -1;
	}
	return output_commit(out, err);
}

int sarif_write(const char *path, json_t *log, char **err)
{
	struct output out;

	if (output_open(&out, path, err))
		return -1;
	return sarif_dump(log, &out, err);
}

int sarif_append(const char *path, json_t *log, char **err)
{
	char *lock_path = xasprintf("%s.lock", path);
	int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644), rc = -1;
	json_t *logs[2] = { NULL, log }, *merged;

	if (fd < 0 || flock(fd, LOCK_EX)) {
		*err = xasprintf("cannot lock %s: %s", lock_path, strerror(errno));
		goto out;
	}
	if (access(path, F_OK) == 0 && !(logs[0] = sarif_read(path, err)))
		goto out;
	merged = logs[0] ? sarif_merge(logs, 2, err) : sarif_merge(logs + 1, 1, err);
	if (merged) {
		rc = sarif_write(path, merged, err);
		json_decref(merged);
	}
out:
	json_decref(logs[0]);
	if (fd >= 0)
		close(fd);	/* drops the lock */
	free(lock_path);
	return rc;
}
