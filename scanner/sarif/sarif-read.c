/*
 * Reading SARIF logs back (--baseline, merge, confirm, kbuild's append)
 * into the structures a scan produces: only charscan's own logs, and
 * only whole.  Another tool's results would be imported as "absent"
 * findings, and a damaged result copied by merge would make its output
 * schema-invalid, so every run and result is checked for the shape
 * sarif.c writes, and turned back into a finding, here and nowhere else.
 * Reading what sarif_log() wrote and writing it again gives the same log.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sarif.h"
#include "core/core.h"

#define TOOL_NAME "charscan"

/* "a.b.c": nested objects; NULL when any is missing. */
static json_t *member(json_t *obj, const char *path)
{
	char key[64];
	const char *dot;

	while (obj && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		obj = json_object_get(obj, key);
		path = dot + 1;
	}
	return obj ? json_object_get(obj, path) : NULL;
}

const char *sarif_str(json_t *obj, const char *path)
{
	json_t *v = member(obj, path);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* A line number member, 0 when absent. */
static unsigned sarif_line(json_t *obj, const char *path)
{
	return (unsigned)json_integer_value(member(obj, path));
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

	return v ? json_is_integer(v) && json_integer_value(v) >= 1 &&
		   json_integer_value(v) <= INT_MAX : !required;
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
	if (json_object_get(run, "columnKind") &&
	    strcmp(sarif_str(run, "columnKind"), "utf16CodeUnits"))
		return xasprintf("%s: run %zu counts columns in other units than charscan",
				 path, ri);
	if ((bad = check_invocations(json_object_get(run, "invocations"))))
		return xasprintf("%s: run %zu: malformed %s", path, ri, bad);
	json_array_foreach(results, i, x)
		if ((bad = check_result(x)))
			return xasprintf("%s: run %zu, result %zu: malformed %s", path, ri, i, bad);
	return NULL;
}

/* ---- back into findings ------------------------------------------------ */

/* One value of a closed set, as the static string the scan uses. */
static const char *one_of(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, set[i]))
			return set[i];
	return NULL;
}

#define ONE_OF(s, set) one_of(s, set, sizeof(set) / sizeof(*(set)))

static const char *const levels[] = { "none", "note", "warning", "error" };
static const char *const signednesses[] = { "both", "signed", "unsigned" };
static const char *const codegens[] = { "changed", "unchanged", "none" };

/* file:///a%20b -> /a b; "%zz" stays as it is. */
static char *uri_decode(const char *uri)
{
	char *out = xmalloc(strlen(uri) + 1), *o = out;
	static const char hex[] = "0123456789abcdef0123456789ABCDEF";

	if (!strncmp(uri, "file://", 7))
		uri += 7;
	for (; *uri; uri++) {
		const char *h = uri[0] == '%' && uri[1] ? strchr(hex, uri[1]) : NULL;
		const char *l = h && uri[2] ? strchr(hex, uri[2]) : NULL;

		if (h && l) {
			*o++ = (char)(((h - hex) & 15) << 4 | ((l - hex) & 15));
			uri += 2;
		} else {
			*o++ = *uri;
		}
	}
	*o = '\0';
	return out;
}

struct reader {
	const char *root;	/* the run's %SRCROOT%, decoded */
	const char *why;	/* what is wrong with the result being read */
};

static char *artifact_path(struct reader *rd, json_t *artifact)
{
	const char *base = sarif_str(artifact, "uriBaseId");
	char *rel = uri_decode(sarif_str(artifact, "uri")), *path;

	if (!*base)
		return rel;
	if (strcmp(base, "%SRCROOT%") || !rd->root) {
		rd->why = "a uriBaseId other than %SRCROOT% of the run";
		free(rel);
		return NULL;
	}
	path = xasprintf("%s%s%s", rd->root, rd->root[strlen(rd->root) - 1] == '/' ? "" : "/",
			 rel);
	free(rel);
	return path;
}

static unsigned region_int(json_t *region, const char *key, unsigned dflt)
{
	json_t *v = json_object_get(region, key);

	return v ? (unsigned)json_integer_value(v) : dflt;
}

/* Columns come back as UTF-16 units; the byte column is not in the log,
 * and only sorting uses it, so it is the same number. */
static int read_loc(struct reader *rd, json_t *artifact, json_t *region, struct loc *l)
{
	if (!json_is_object(region) || !positive(region, "startLine", 1) ||
	    !positive(region, "startColumn", 0) || !positive(region, "endLine", 0) ||
	    !positive(region, "endColumn", 0)) {
		rd->why = "a region without positive line and column numbers";
		return -1;
	}
	if (!(l->path = artifact_path(rd, artifact)))
		return -1;
	l->line = region_int(region, "startLine", 1);
	l->col = l->ucol = region_int(region, "startColumn", 1);
	l->end_line = region_int(region, "endLine", l->line);
	l->end_col = l->end_ucol = region_int(region, "endColumn", l->col);
	return 0;
}

static int read_physical(struct reader *rd, json_t *phys, struct loc *l)
{
	return read_loc(rd, json_object_get(phys, "artifactLocation"),
			json_object_get(phys, "region"), l);
}

/* "\[" -> "[": undo sarif_message()'s escapes. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++)
		*o++ = *s == '\\' && s[1] ? *++s : *s;
	*o = '\0';
}

/*
 * message.text as sarif_message() wrote it: the message, then
 * " (see [declaration](1), [call](2))" for the related locations, the
 * link text giving each its label.  The message itself holds "](" only
 * if it was escaped.
 */
static int split_message(struct reader *rd, const char *text, struct finding *x)
{
	const char *end = text + strlen(text), *p = NULL;

	if (x->nrelated) {
		for (const char *s = text; (s = strstr(s, " (see [")); s++)
			p = s;
		if (!p) {
			rd->why = "message.text without links to its related locations";
			return -1;
		}
		end = p;
		p += 6;
		for (int i = 0; i < x->nrelated; i++) {
			char label[32], tail[16];
			int n = 0;

			snprintf(tail, sizeof(tail), "](%d)", i + 1);
			if (sscanf(p, "[%31[a-z ]%n", label, &n) != 1 || strncmp(p + n, tail, strlen(tail))) {
				rd->why = "message.text whose links do not match its related locations";
				return -1;
			}
			x->related[i].label = related_label(label);
			p += n + strlen(tail);
			p += i + 1 < x->nrelated && !strncmp(p, ", ", 2) ? 2 : 0;
		}
		if (strcmp(p, ")")) {
			rd->why = "message.text whose links do not match its related locations";
			return -1;
		}
	}
	x->message = xstrndup(text, end - text);
	if (strstr(x->message, "]("))
		unescape(x->message);
	return 0;
}

static int read_related(struct reader *rd, json_t *list, struct finding *x)
{
	size_t i;
	json_t *r;

	if (json_array_size(list) > MAX_RELATED) {
		rd->why = "more related locations than charscan writes";
		return -1;
	}
	json_array_foreach(list, i, r) {
		struct related *rel = &x->related[x->nrelated++];

		rel->message = xstrdup(sarif_str(r, "message.text"));
		rel->label = "related";
		if (read_physical(rd, json_object_get(r, "physicalLocation"), &rel->loc))
			return -1;
	}
	return 0;
}

static int read_fix(struct reader *rd, json_t *fixes, struct finding *x)
{
	json_t *fix = json_array_get(fixes, 0);
	json_t *change = json_array_get(json_object_get(fix, "artifactChanges"), 0);
	json_t *repl = json_array_get(json_object_get(change, "replacements"), 0);

	if (!fix)
		return 0;
	x->has_fix = 1;
	x->fix.description = xstrdup(sarif_str(fix, "description.text"));
	x->fix.text = xstrdup(sarif_str(repl, "insertedContent.text"));
	x->fix.deleted = xstrdup(sarif_str(repl, "deletedRegion.snippet.text"));
	if (json_array_size(fixes) != 1 || !repl) {
		rd->why = "fixes other than one replacement";
		return -1;
	}
	return read_loc(rd, json_object_get(change, "artifactLocation"),
			json_object_get(repl, "deletedRegion"), &x->fix.loc);
}

static int read_enums(struct reader *rd, json_t *r, struct finding *x)
{
	const char *breaks = sarif_str(r, "properties.breaksWhenCharIs");
	json_t *codegen = member(r, "properties.codegen");
	const char *state = sarif_str(r, "baselineState"), *conf;
	int rule = rule_lookup(sarif_str(r, "ruleId"));

	if (rule < 0 || strcmp(rules[rule].id, sarif_str(r, "ruleId"))) {
		rd->why = "a ruleId that is none of this charscan's rules";
		return -1;
	}
	x->rule = rule;
	x->level = json_object_get(r, "level") ? ONE_OF(sarif_str(r, "level"), levels) : NULL;
	x->pass = !strcmp(sarif_str(r, "kind"), "pass");
	x->breaks = BREAKS_EITHER;
	for (int b = BREAKS_SIGNED; b < BREAKS_EITHER; b++)
		if (!strcmp(breaks, breaks_names[b]))
			x->breaks = b;
	if (codegen && !(x->codegen = ONE_OF(sarif_str(r, "properties.codegen"), codegens))) {
		rd->why = "malformed properties.codegen";
		return -1;
	}
	conf = sarif_str(r, "properties.confidence");
	if (*conf && (x->confidence = confidence_of(conf)) == (enum confidence)-1) {
		rd->why = "malformed properties.confidence";
		return -1;
	}
	x->codegen_line = sarif_line(r, "properties.codegenLine");
	x->expanded_line = sarif_line(r, "properties.expandedAtLine");
	for (int i = BASELINE_NEW; *state && i < NR_BASELINE_STATES; i++)
		if (!strcmp(state, baseline_names[i]))
			x->baseline = i;
	return 0;
}

static int read_result(struct reader *rd, json_t *r, struct finding *x)
{
	json_t *loc = json_array_get(json_object_get(r, "locations"), 0);
	json_t *phys = json_object_get(loc, "physicalLocation");
	const char *function = sarif_str(json_array_get(json_object_get(loc, "logicalLocations"), 0),
					 "name");
	json_t *sup = json_array_get(json_object_get(r, "suppressions"), 0);
	json_t *snippet = json_object_get(json_object_get(json_object_get(phys, "region"),
							  "snippet"), "text");

	snprintf(x->fingerprint, sizeof(x->fingerprint), "%s",
		 sarif_str(r, "partialFingerprints.charscan/v1"));
	snprintf(x->context_fp, sizeof(x->context_fp), "%s",
		 sarif_str(r, "partialFingerprints.charscan/context/v1"));
	if (json_is_string(snippet))
		x->snippet = xstrdup(json_string_value(snippet));
	if (*function)
		x->function = xstrdup(function);
	if (*sarif_str(r, "properties.operand"))
		x->operand = xstrdup(sarif_str(r, "properties.operand"));
	if (*sarif_str(r, "properties.valueOrigin"))
		x->origin = xstrdup(sarif_str(r, "properties.valueOrigin"));
	if (sup)
		x->suppressed = xstrdup(sarif_str(sup, "justification"));
	if (read_enums(rd, r, x) || read_physical(rd, phys, &x->loc) ||
	    read_related(rd, json_object_get(r, "relatedLocations"), x) ||
	    split_message(rd, sarif_str(r, "message.text"), x) ||
	    read_fix(rd, json_object_get(r, "fixes"), x))
		return -1;
	return 0;
}

static int read_notifications(struct reader *rd, json_t *invocations, struct sarif_in *in)
{
	json_t *inv, *n;
	size_t i, k;

	json_array_foreach(invocations, i, inv) {
		in->complete &= json_is_true(json_object_get(inv, "executionSuccessful"));
		json_array_foreach(json_object_get(inv, "toolExecutionNotifications"), k, n) {
			json_t *artifact = json_object_get(json_object_get(json_array_get(
				json_object_get(n, "locations"), 0), "physicalLocation"),
				"artifactLocation");
			const char *level = ONE_OF(sarif_str(n, "level"), levels);
			char *path = artifact ? artifact_path(rd, artifact) : NULL;

			if (artifact && !path)
				return -1;
			notice_add(&in->notices, level ? level : "warning", path, "%s",
				   sarif_str(n, "message.text"));
			free(path);
		}
	}
	return 0;
}

static char *read_run(const char *name, size_t ri, json_t *run, struct sarif_in *in)
{
	json_t *results = json_object_get(run, "results"), *r;
	const char *root_uri = sarif_str(run, "originalUriBaseIds.%SRCROOT%.uri");
	char *root = *root_uri ? uri_decode(root_uri) : NULL, *err = NULL;
	struct reader rd = { root, NULL };
	size_t i, n;

	/* One run of the log: %SRCROOT% without its closing slash. */
	for (n = root ? strlen(root) : 0; n > 1 && root[n - 1] == '/'; n--)
		root[n - 1] = '\0';
	if (!in->srcroot) {
		in->srcroot = xstrdup(root ? root : "/");
		in->signedness = xstrdup(ONE_OF(sarif_str(run, "properties.charSignedness"),
						signednesses) ?: "both");
		if (*sarif_str(run, "properties.summaryKey"))
			in->store_key = xstrdup(sarif_str(run, "properties.summaryKey"));
	} else if (strcmp(in->srcroot, root ? root : "/")) {
		err = xasprintf("%s: run %zu has another %%SRCROOT%% (%s, not %s)", name, ri,
				root ? root : "none", in->srcroot);
	}
	json_array_foreach(results, i, r)
		if (!err && read_result(&rd, r, findings_add(&in->findings)))
			err = xasprintf("%s: run %zu, result %zu: %s", name, ri, i, rd.why);
	if (!err && read_notifications(&rd, json_object_get(run, "invocations"), in))
		err = xasprintf("%s: run %zu, a notification: %s", name, ri, rd.why);
	free(root);
	return err;
}

int sarif_from_json(json_t *log, const char *name, struct sarif_in *in, char **err)
{
	json_t *version = json_object_get(log, "version"), *runs = json_object_get(log, "runs"), *run;
	size_t i;

	memset(in, 0, sizeof(*in));
	in->complete = 1;
	if (!json_is_string(version) || strcmp(json_string_value(version), "2.1.0") ||
	    !json_is_array(runs)) {
		*err = xasprintf("%s: not a SARIF 2.1.0 log", name);
		return -1;
	}
	json_array_foreach(runs, i, run)
		if ((*err = check_run(name, i, run)) || (*err = read_run(name, i, run, in))) {
			sarif_in_free(in);
			return -1;
		}
	if (!in->srcroot) {
		*err = xasprintf("%s: no runs", name);
		return -1;
	}
	return 0;
}

int sarif_load(const char *path, struct sarif_in *in, char **err)
{
	json_error_t e;
	const char *why;
	size_t len;
	char *text = read_input(path, LIMIT_REPORT, &len, &why);
	json_t *log = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &e) : NULL;
	int rc;

	free(text);
	memset(in, 0, sizeof(*in));
	if (!text) {
		*err = xasprintf("cannot read %s: %s", path, why);
		return -1;
	}
	if (!log) {
		*err = xasprintf("%s:%d:%d: not JSON: %s", path, e.line, e.column, e.text);
		return -1;
	}
	rc = sarif_from_json(log, path, in, err);
	json_decref(log);
	return rc;
}

void sarif_in_free(struct sarif_in *in)
{
	findings_free(&in->findings);
	notices_free(&in->notices);
	free(in->srcroot);
	free(in->signedness);
	free(in->store_key);
	memset(in, 0, sizeof(*in));
}
