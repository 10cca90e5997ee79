/*
 * The configuration file, .charscan or --config FILE (syntax in
 * config.h): read line by line, each error named by file:line.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "core/core.h"

#define UTF8_BOM "\xef\xbb\xbf"

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static const char *set_string(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
	return NULL;
}

static const char *set_level(struct config *c, const char *key, const char *v)
{
	static const char *const levels[] = { "note", "warning", "error" };
	int r = rule_lookup(key);

	if (r < 0)
		return "unknown rule";
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, levels[i])) {
			c->level[r] = levels[i];
			return NULL;
		}
	return "a level is note, warning or error";
}

/* "CS001,-CS003,name": every entry a rule, at least one.  The reason
 * names the entry (a static buffer: the config is read once). */
static const char *check_rules(const char *v)
{
	static char why[128];
	const size_t size = sizeof(why);
	char *copy = xstrdup(v), *save = NULL;
	const char *bad = NULL;

	snprintf(why, size, "rules names no rule");
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		bad = rule_lookup(tok + (tok[0] == '-')) < 0 ? tok : NULL;
		if (bad) {
			snprintf(why, size, "rules: '%.64s' is no rule (see charscan --list-rules)", bad);
			break;
		}
		why[0] = '\0';
	}
	free(copy);
	return why[0] ? why : NULL;
}

/* A folder/ or glob below the source root: excludes are matched against
 * relative paths, so an absolute or ".." pattern would never match. */
static const char *check_exclude(const char *v)
{
	if (!*v)
		return "exclude needs a folder/ or a glob";
	if (v[0] == '/' || !strcmp(v, "..") || !strncmp(v, "../", 3) || strstr(v, "/../") ||
	    (strlen(v) >= 3 && !strcmp(v + strlen(v) - 3, "/..")))
		return "exclude is relative to the source root: no leading '/', no '..'";
	return NULL;
}

/* One "key = value" line; NULL or why it is wrong. */
static const char *setting(struct config *c, const char *key, const char *v, unsigned lineno)
{
	if (!strcmp(key, "rules"))
		return check_rules(v) ?: set_string(&c->rules, v);
	if (!strcmp(key, "fail-on")) {
		if (level_rank(v) < 0)
			return "fail-on is error, warning, note or none";
		return set_string(&c->fail_on, v);
	}
	if (!strcmp(key, "signedness"))
		return strcmp(v, "both") && strcmp(v, "signed") && strcmp(v, "unsigned") ?
		       "signedness is both, signed or unsigned" : set_string(&c->signedness, v);
	if (!strncmp(key, "level.", 6))
		return set_level(c, key + 6, v);
	if (!strcmp(key, "exclude")) {
		if (check_exclude(v))
			return check_exclude(v);
		grow(&c->exclude, &c->cap, c->nexclude + 1, sizeof(*c->exclude));
		grow(&c->exclude_line, &c->line_cap, c->nexclude + 1, sizeof(*c->exclude_line));
		c->exclude_line[c->nexclude] = lineno;
		c->exclude[c->nexclude++] = xstrdup(v);
		return NULL;
	}
	return "unknown setting (rules, level.RULE, exclude, fail-on, signedness)";
}

int config_load(const char *path, int must_exist, struct config *c, char **err)
{
	const char *why;
	size_t len;
	/* A pull request's .charscan may be a link to /dev/zero or a FIFO. */
	char *text = read_input(path, LIMIT_CONFIG, &len, &why);
	FILE *f = text && len ? fmemopen(text, len, "r") : NULL;
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int rc = 0;

	if (!text) {
		if (!must_exist && errno == ENOENT)
			return 0;
		*err = xasprintf("cannot read %s: %s", path, why);
		return -1;
	}
	c->path = xstrdup(path);
	if (!f) {
		free(text);
		if (!len)
			return 0;
		*err = xasprintf("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc && getline(&line, &cap, f) > 0) {
		char *hash = strchr(line, '#'), *eq, *key;
		const char *why;

		lineno++;
		if (hash)
			*hash = '\0';
		/* Editors on Windows start a UTF-8 file with a byte order mark. */
		key = trim(line + (lineno == 1 && !strncmp(line, UTF8_BOM, 3) ? 3 : 0));
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			why = "expected key = value";
		} else {
			*eq = '\0';
			why = setting(c, trim(key), trim(eq + 1), lineno);
		}
		if (why) {
			*err = xasprintf("%s:%u: %s", path, lineno, why);
			rc = -1;
		}
	}
	if (!rc && ferror(f)) {
		*err = xasprintf("cannot read %s", path);
		rc = -1;
	}
	free(line);
	fclose(f);
	free(text);
	return rc;
}

unsigned config_excludes(const struct config *c, const char *relpath)
{
	for (size_t i = 0; i < c->nexclude; i++) {
		const char *pat = c->exclude[i];
		size_t n = strlen(pat);

		/* "dir/" is everything below dir. */
		if ((n && pat[n - 1] == '/' && !strncmp(relpath, pat, n)) ||
		    !fnmatch(pat, relpath, 0))
			return c->exclude_line[i];
	}
	return 0;
}

void config_free(struct config *c)
{
	free(c->path);
	free(c->rules);
	free(c->fail_on);
	free(c->signedness);
	for (size_t i = 0; i < c->nexclude; i++)
		free(c->exclude[i]);
	free(c->exclude);
	free(c->exclude_line);
	memset(c, 0, sizeof(*c));
}
