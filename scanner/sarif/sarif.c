/*
 * SARIF 2.1.0 with jansson: rules[] from the catalogue, CWE and CERT
 * taxonomies, results with related locations, fixes and fingerprints,
 * and the scan's own problems as toolExecutionNotifications.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/core.h"
#include "sarif.h"

static const struct taxon { const char *taxonomy, *id, *name; } taxa[] = {
	{ "CWE", "129", "Improper Validation of Array Index" },
	{ "CWE", "194", "Unexpected Sign Extension" },
	{ "CWE", "197", "Numeric Truncation Error" },
	{ "CWE", "686", "Function Call With Incorrect Argument Type" },
	{ "CERT C", "INT07-C", "Use only explicitly signed or unsigned char type for numeric values" },
	{ "CERT C", "STR34-C", "Cast characters to unsigned char before converting to larger integer sizes" },
	{ "CERT C", "STR37-C", "Arguments to character-handling functions must be representable as an unsigned char" },
};

static const struct taxonomy { const char *name, *organization, *uri; } taxonomies[] = {
	{ "CWE", "MITRE", "https://cwe.mitre.org/" },
	{ "CERT C", "Software Engineering Institute, Carnegie Mellon University",
	  "https://wiki.sei.cmu.edu/confluence/display/c/" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

json_t *json_text(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *buf = xmalloc(len * 3 + 1);
	json_t *j;

	for (size_t i = 0; i < len;) {
		int n = utf8_seq_len((const unsigned char *)s + i, len - i);

		if (n) {
			memcpy(buf + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
			i++;
		}
	}
	j = json_stringn(buf, o);
	free(buf);
	return j;
}

static json_t *text_obj(const char *s)
{
	return json_pack("{s:o}", "text", json_text(s));
}

static char *uri_encode(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = xmalloc(strlen(path) * 3 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

/* ---- columns: SARIF counts UTF-16 code units, libclang bytes -------- */

static unsigned utf16_col(struct filecache *c, const char *path, unsigned line,
			  unsigned col)
{
	size_t len;
	const unsigned char *p = (const unsigned char *)filecache_line(c, path, line, &len), *end;
	unsigned units = 1;

	if (!p)
		return col;
	end = p + len;
	for (unsigned b = 1; b < col && p < end;) {
		int n = utf8_seq_len(p, end - p);

		if (!n)
			n = 1;
		units += n == 4 ? 2 : 1;
		p += n;
		b += n;
	}
	return units;
}

/* ---- locations -------------------------------------------------------- */

struct ctx {
	const struct sarif_run *run;
	struct filecache *cache;
};

static json_t *artifact(const char *path, const char *root)
{
	const char *rel = relative_path(path, root);
	char *uri;
	json_t *a;

	if (rel != path) {
		uri = uri_encode(rel);
		a = json_pack("{s:s, s:s}", "uri", uri, "uriBaseId", "%SRCROOT%");
	} else {
		char *enc = uri_encode(path);

		uri = xasprintf("file://%s", enc);
		free(enc);
		a = json_pack("{s:s}", "uri", uri);
	}
	free(uri);
	return a;
}

static json_t *region(struct ctx *c, const struct loc *l, const char *snippet)
{
	json_t *r = json_pack("{s:I, s:I, s:I, s:I}",
		"startLine", (json_int_t)l->line,
		"startColumn", (json_int_t)(l->ucol ? l->ucol :
					      utf16_col(c->cache, l->path, l->line, l->col)),
		"endLine", (json_int_t)l->end_line,
		"endColumn", (json_int_t)(l->end_ucol ? l->end_ucol :
					    utf16_col(c->cache, l->path, l->end_line, l->end_col)));

	if (snippet)
		json_object_set_new(r, "snippet", text_obj(snippet));
	return r;
}

static json_t *physical(struct ctx *c, const struct loc *l, const char *snippet)
{
	return json_pack("{s:o, s:o}", "artifactLocation", artifact(l->path, c->run->srcroot),
			 "region", region(c, l, snippet));
}

/* ---- tool.driver ---------------------------------------------------- */

static int taxon_index(const char *taxonomy, const char *id)
{
	int k = 0;

	for (size_t i = 0; i < N(taxa); i++) {
		if (strcmp(taxa[i].taxonomy, taxonomy))
			continue;
		if (!strcmp(taxa[i].id, id))
			return k;
		k++;
	}
	return -1;
}

static json_t *relationship(const char *taxonomy, int tindex, const char *id)
{
	return json_pack("{s:{s:s, s:i, s:{s:s, s:i}}, s:[s]}",
		"target", "id", id, "index", taxon_index(taxonomy, id),
		"toolComponent", "name", taxonomy, "index", tindex,
		"kinds", "superset");
}

static json_t *rule_json(const struct rule *r)
{
	char *cwe_tag = xasprintf("external/cwe/cwe-%s", r->cwe);
	char *cert_tag = xasprintf("external/cert/%s", r->cert);
	char *help_uri = xasprintf("%s%s.md", CHARSCAN_RULES_URI, r->id);
	json_t *j = json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:{s:s}, s:{s:[s,s,s,s], s:s, s:s, s:s, s:s}, s:[o,o]}",
		"id", r->id, "name", r->name,
		"shortDescription", text_obj(r->short_desc),
		"fullDescription", text_obj(r->full_desc),
		"help", json_pack("{s:s, s:s}", "text", r->help_md, "markdown", r->help_md),
		"helpUri", help_uri,
		"defaultConfiguration", "level", r->level,
		"properties", "tags", "correctness", "char-signedness", cwe_tag, cert_tag,
			"precision", r->precision,
			"problem.severity", r->level,
			"security-severity", r->security_severity,
			"charscan/judges", r->judges == DATA ? "data" : "code",
		"relationships", relationship("CWE", 0, r->cwe),
			relationship("CERT C", 1, r->cert));

	free(cwe_tag);
	free(cert_tag);
	free(help_uri);
	return j;
}

static json_t *driver(void)
{
	json_t *rs = json_array();

	for (int i = 0; i < NR_RULES; i++)
		json_array_append_new(rs, rule_json(&rules[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:[{s:s, s:i}, {s:s, s:i}]}",
		"name", "charscan", "version", CHARSCAN_VERSION,
		"semanticVersion", CHARSCAN_VERSION,
		"informationUri", CHARSCAN_INFO_URI,
		"rules", rs,
		"supportedTaxonomies", "name", "CWE", "index", 0, "name", "CERT C", "index", 1);
}

static json_t *taxonomies_json(void)
{
	json_t *all = json_array();

	for (size_t t = 0; t < N(taxonomies); t++) {
		json_t *list = json_array();

		for (size_t i = 0; i < N(taxa); i++)
			if (!strcmp(taxa[i].taxonomy, taxonomies[t].name))
				json_array_append_new(list, json_pack("{s:s, s:s}",
					"id", taxa[i].id, "name", taxa[i].name));
		json_array_append_new(all, json_pack("{s:s, s:s, s:s, s:o}",
			"name", taxonomies[t].name, "organization", taxonomies[t].organization,
			"informationUri", taxonomies[t].uri, "taxa", list));
	}
	return all;
}

/* ---- results -------------------------------------------------------- */

static json_t *fix_json(struct ctx *c, const struct finding *x)
{
	/* The replaced bytes: charscan fix refuses a file that changed. */
	const char *deleted = x->fix.deleted && *x->fix.deleted ? x->fix.deleted : NULL;

	return json_pack("[{s:o, s:[{s:o, s:[{s:o, s:o}]}]}]",
		"description", text_obj(x->fix.description),
		"artifactChanges", "artifactLocation", artifact(x->fix.loc.path, c->run->srcroot),
		"replacements", "deletedRegion", region(c, &x->fix.loc, deleted),
		"insertedContent", text_obj(x->fix.text));
}

/*
 * The message with a link to each related location, "... (see
 * [declaration](1))": GitHub shows related locations only through links
 * in the message.  Brackets and backslashes of the message itself are
 * escaped when it could read as a link (it holds "]("), so that
 * sarif-read.c can tell the message from the links.
 */
char *sarif_message(const struct finding *x)
{
	size_t n = strlen(x->message), o = 0, cap = n * 2 + 64 * (x->nrelated + 1);
	char *out = xmalloc(cap);
	int escape = strstr(x->message, "](") != NULL;

	for (size_t i = 0; i < n; i++) {
		if (escape && strchr("[]\\", x->message[i]))
			out[o++] = '\\';
		out[o++] = x->message[i];
	}
	for (int i = 0; i < x->nrelated; i++)
		o += snprintf(out + o, cap - o, "%s[%s](%d)", i ? ", " : " (see ",
			      x->related[i].label, i + 1);
	snprintf(out + o, cap - o, "%s", x->nrelated ? ")" : "");
	return out;
}

static json_t *flow_step(struct ctx *c, const struct loc *l, const char *message)
{
	return json_pack("{s:{s:o, s:o}}", "location", "physicalLocation", physical(c, l, NULL),
			 "message", text_obj(message));
}

int sarif_flow(const struct finding *x, const struct related **steps)
{
	static const char *const kinds[] = { "store", "return", "call", "assignment" };
	int n = 0;

	for (size_t s = 0; s < sizeof(kinds) / sizeof(kinds[0]); s++)
		for (int i = 0; i < x->nrelated; i++)
			if (!strcmp(x->related[i].label, kinds[s]))
				steps[n++] = &x->related[i];
	return n;
}

/*
 * A finding that needed flow (a carrier variable, a call into the
 * callee) gets one threadFlow: sarif_flow()'s steps, then where the
 * char is observed.  GitHub and the VS Code viewer step through it.
 */
static void code_flow(struct ctx *c, const struct finding *x, json_t *res)
{
	const struct related *steps[MAX_RELATED];
	int n = sarif_flow(x, steps);
	json_t *locs;

	if (!n)
		return;
	locs = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(locs, flow_step(c, &steps[i]->loc, steps[i]->message));
	json_array_append_new(locs, flow_step(c, &x->loc, x->message));
	json_object_set_new(res, "codeFlows", json_pack("[{s:[{s:o}]}]", "threadFlows",
							"locations", locs));
}

/* Optional members: left out when NULL or 0. */
static void set_text(json_t *obj, const char *key, const char *value)
{
	if (value)
		json_object_set_new(obj, key, json_string(value));
}

static void set_line(json_t *obj, const char *key, unsigned line)
{
	if (line)
		json_object_set_new(obj, key, json_integer(line));
}

static json_t *result_json(struct ctx *c, const struct finding *x)
{
	const struct rule *r = &rules[x->rule];
	char *message = sarif_message(x);
	json_t *res = json_pack("{s:s, s:i, s:s, s:o, s:[{s:o}], s:{s:s, s:s}, s:{s:s}}",
		"ruleId", r->id, "ruleIndex", (int)x->rule, "level", x->level,
		"message", text_obj(message),
		"locations", "physicalLocation", physical(c, &x->loc, x->snippet),
		"partialFingerprints", "charscan/v1", x->fingerprint,
			"charscan/context/v1", x->context_fp,
		"properties", "breaksWhenCharIs", breaks_names[x->breaks]);

	free(message);
	if (x->function)
		json_object_set_new(json_array_get(json_object_get(res, "locations"), 0),
				    "logicalLocations", json_pack("[{s:s}]", "name", x->function));
	if (x->pass) {
		json_object_set_new(res, "kind", json_string("pass"));
		json_object_del(json_object_get(res, "properties"), "breaksWhenCharIs");
	}
	if (x->baseline)
		json_object_set_new(res, "baselineState", json_string(baseline_names[x->baseline]));
	if (x->confidence && !x->pass) {
		json_object_set_new(res, "rank", json_real(confidence_ranks[x->confidence]));
		set_text(json_object_get(res, "properties"), "confidence",
			 confidence_names[x->confidence]);
	}
	set_text(json_object_get(res, "properties"), "valueOrigin", x->origin);
	set_text(json_object_get(res, "properties"), "operand", x->operand);
	set_line(json_object_get(res, "properties"), "expandedAtLine", x->expanded_line);
	set_text(json_object_get(res, "properties"), "codegen", x->codegen);
	set_line(json_object_get(res, "properties"), "codegenLine", x->codegen_line);
	if (x->suppressed)
		json_object_set_new(res, "suppressions", json_pack("[{s:s, s:s, s:o}]",
			"kind", "inSource", "status", "accepted",
			"justification", json_text(x->suppressed)));

	if (x->nrelated) {
		json_t *rel = json_array();

		for (int i = 0; i < x->nrelated; i++)
			json_array_append_new(rel, json_pack("{s:i, s:o, s:o}", "id", i + 1,
				"physicalLocation", physical(c, &x->related[i].loc, NULL),
				"message", text_obj(x->related[i].message)));
		json_object_set_new(res, "relatedLocations", rel);
	}
	if (x->has_fix)
		json_object_set_new(res, "fixes", fix_json(c, x));
	code_flow(c, x, res);
	return res;
}

static json_t *notification(struct ctx *c, const struct notice *n)
{
	json_t *j = json_pack("{s:s, s:o, s:{s:s}}", "level", n->level,
			      "message", text_obj(n->message),
			      "descriptor", "id", "charscan/input");

	if (n->path)
		json_object_set_new(j, "locations", json_pack("[{s:{s:o}}]",
			"physicalLocation", "artifactLocation",
			artifact(n->path, c->run->srcroot)));
	return j;
}

json_t *sarif_log(const struct findings *fs, const struct notices *ns,
		  const struct sarif_run *run)
{
	struct ctx c = { run, run->src };
	json_t *results = json_array(), *notes = json_array(), *log;
	char *root_enc = uri_encode(run->srcroot), *root_uri;

	/* Both sorted: one order, as a merge of the log would give. */
	for (size_t i = 0, k = 0, nk = run->absent ? run->absent->len : 0; i < fs->len || k < nk;) {
		const struct finding *x = k < nk && (i == fs->len ||
			finding_cmp(&run->absent->v[k], &fs->v[i]) < 0) ?
			&run->absent->v[k++] : &fs->v[i++];

		json_array_append_new(results, result_json(&c, x));
	}
	for (size_t i = 0; i < ns->len; i++)
		json_array_append_new(notes, notification(&c, &ns->v[i]));
	root_uri = xasprintf("file://%s%s", root_enc,
			     *root_enc && root_enc[strlen(root_enc) - 1] == '/' ? "" : "/");
	log = json_pack("{s:s, s:s, s:[{s:{s:o}, s:o, s:{s:{s:s}}, s:s, s:[{s:b, s:o}], s:{s:s}, s:o}]}",
		"$schema", SARIF_SCHEMA_URI,
		"version", "2.1.0",
		"runs", "tool", "driver", driver(),
			"taxonomies", taxonomies_json(),
			"originalUriBaseIds", "%SRCROOT%", "uri", root_uri,
			"columnKind", "utf16CodeUnits",
			"invocations", "executionSuccessful", run->complete,
				"toolExecutionNotifications", notes,
			"properties", "charSignedness", run->signedness,
			"results", results);
	if (!log)
		die("internal error: SARIF template");
	if (run->store_key)
		json_object_set_new(json_object_get(json_array_get(json_object_get(log, "runs"), 0),
						    "properties"), "summaryKey", json_string(run->store_key));
	free(root_enc);
	free(root_uri);
	return log;
}
