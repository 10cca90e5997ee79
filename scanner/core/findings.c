#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "filecache.h"
#include "findings.h"
#include "path.h"
#include "util.h"

static const char *const related_labels[] = {
	"declaration", "assignment", "call", "return", "parameter", "macro definition",
	"store", "related",
};

const char *const baseline_names[NR_BASELINE_STATES] = {
	[BASELINE_NEW] = "new", [BASELINE_UNCHANGED] = "unchanged",
	[BASELINE_UPDATED] = "updated", [BASELINE_ABSENT] = "absent",
};

const char *const breaks_names[BREAKS_EITHER + 1] = {
	[BREAKS_SIGNED] = "signed", [BREAKS_UNSIGNED] = "unsigned", [BREAKS_EITHER] = "either",
};

const char *const confidence_names[NR_CONFIDENCES] = { "", "low", "medium", "high" };
const int confidence_ranks[NR_CONFIDENCES] = { 0, 20, 50, 90 };
const char *const confidence_levels[NR_CONFIDENCES] = { NULL, "note", "warning", "error" };

int confidence_of(const char *s)
{
	for (int i = CONF_LOW; s && i < NR_CONFIDENCES; i++)
		if (!strcmp(s, confidence_names[i]))
			return i;
	return -1;
}

const char *related_label(const char *s)
{
	for (size_t i = 0; i < sizeof(related_labels) / sizeof(*related_labels); i++)
		if (s && !strcmp(s, related_labels[i]))
			return related_labels[i];
	return "related";
}

struct finding *findings_add(struct findings *f)
{
	grow(&f->v, &f->cap, f->len + 1, sizeof(*f->v));
	memset(&f->v[f->len], 0, sizeof(f->v[0]));
	return &f->v[f->len++];
}

/* Append *srcv (n elements) to *dstv and free it: the merge of one
 * worker's or one TU's list into the scan's. */
static void move_array(void *dstv, size_t *dlen, size_t *dcap, void *srcv,
		       size_t n, size_t size)
{
	char **d = dstv, **s = srcv;

	grow(d, dcap, *dlen + n, size);
	if (n)
		memcpy(*d + *dlen * size, *s, n * size);
	*dlen += n;
	free(*s);
	*s = NULL;
}

void findings_move(struct findings *dst, struct findings *src)
{
	move_array(&dst->v, &dst->len, &dst->cap, &src->v, src->len, sizeof(*src->v));
	src->len = src->cap = 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_uint(unsigned a, unsigned b)
{
	return (a > b) - (a < b);
}

/* Total order on everything a writer prints, so output never depends on
 * which worker found what first. */
int finding_cmp(const struct finding *a, const struct finding *b)
{
	int c;

	if ((c = cmp_str(a->loc.path, b->loc.path)) ||
	    (c = cmp_uint(a->loc.line, b->loc.line)) ||
	    (c = cmp_uint(a->loc.col, b->loc.col)) ||
	    (c = cmp_uint(a->rule, b->rule)) ||
	    (c = cmp_uint(a->pass, b->pass)) ||
	    (c = cmp_uint(a->loc.end_line, b->loc.end_line)) ||
	    (c = cmp_uint(a->loc.end_col, b->loc.end_col)) ||
	    (c = cmp_str(a->message, b->message)))
		return c;
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	return finding_cmp(a, b);
}

static void free_loc(struct loc *l)
{
	free(l->path);
}

static void free_finding(struct finding *f)
{
	free_loc(&f->loc);
	free(f->message);
	free(f->function);
	free(f->snippet);
	free(f->operand);
	free(f->origin);
	free(f->suppressed);
	for (int i = 0; i < f->nrelated; i++) {
		free_loc(&f->related[i].loc);
		free(f->related[i].message);
	}
	if (f->has_fix) {
		free_loc(&f->fix.loc);
		free(f->fix.text);
		free(f->fix.deleted);
		free(f->fix.description);
	}
}

void finding_make_pass(struct finding *f, char *message)
{
	for (int i = 0; i < f->nrelated; i++) {
		free_loc(&f->related[i].loc);
		free(f->related[i].message);
	}
	f->nrelated = 0;
	if (f->has_fix) {
		free_loc(&f->fix.loc);
		free(f->fix.text);
		free(f->fix.deleted);
		free(f->fix.description);
		f->has_fix = 0;
	}
	free(f->message);
	free(f->origin);
	f->origin = NULL;
	f->confidence = CONF_NONE;
	f->message = message;
	f->pass = 1;
	f->level = "none";
}

/* Text without any white space: survives re-indentation. */
static size_t squeeze(const char *s, size_t len, char *out, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; s && i < len && n + 1 < size; i++)
		if (!isspace((unsigned char)s[i]))
			out[n++] = s[i];
	out[n] = '\0';
	return n;
}

static void digest(const char *key, char out[33])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen;

	EVP_Digest(key, strlen(key), md, &mdlen, EVP_sha256(), NULL);
	for (unsigned j = 0; j < 16; j++)
		sprintf(out + 2 * j, "%02x", md[j]);
}

/* Squeezed text of the lines before and after the finding's. */
static void neighbourhood(struct filecache *src, const struct finding *x, char *out,
			  size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < 2; i++) {
		size_t len = 0;
		const char *p = filecache_line(src, x->loc.path, x->loc.line + (i ? 1 : -1), &len);

		n += squeeze(p, p ? len : 0, out + n, size - n);
		if (n + 2 < size) {
			out[n++] = '|';
			out[n] = '\0';
		}
	}
}

/*
 * Fingerprints that survive lines moving: no line numbers, no tool
 * version.  The first holds the rule, file, enclosing function, the
 * flagged line's text and which occurrence of that text in the function
 * it is; the second the rule, function and the lines just before and
 * after the finding's, so that a file rename or an edit of the line
 * itself can still be matched to the baseline (as "updated").
 */
static void fingerprint(struct findings *f, const char *srcroot, struct filecache *src)
{
	/* Findings and passes counted apart: a finding's fingerprint must
	 * not depend on whether --explain was on. */
	char text[512], around[1600], prev_key[2][2048] = { "", "" }, key[2048];
	unsigned nth[2] = { 0, 0 }, p;

	for (size_t i = 0; i < f->len; i++) {
		struct finding *x = &f->v[i];

		squeeze(x->snippet, x->snippet ? strlen(x->snippet) : 0, text, sizeof(text));
		snprintf(key, sizeof(key), "%s|%s|%s|%s", rules[x->rule].id,
			 relative_path(x->loc.path, srcroot),
			 x->function ? x->function : "", text);
		/* Sorted by path and line, so equal keys in one file are
		 * counted in order of appearance. */
		p = !!x->pass;
		nth[p] = strcmp(key, prev_key[p]) ? 0 : nth[p] + 1;
		snprintf(prev_key[p], sizeof(prev_key[0]), "%s", key);
		if (x->fingerprint[0])
			continue;	/* read back from a report */
		snprintf(key + strlen(key), sizeof(key) - strlen(key), "|%u", nth[p]);
		digest(key, x->fingerprint);
		neighbourhood(src, x, around, sizeof(around));
		snprintf(key, sizeof(key), "%s|%s|%s", rules[x->rule].id,
			 x->function ? x->function : "", around);
		digest(key, x->context_fp);
	}
}

/* One finding per rule and place: macros and headers can reach the same
 * spot by several paths with differently worded messages.  A finding
 * sorts before a pass of its rule there, and wins. */
static int same_place(const struct finding *a, const struct finding *b)
{
	return a->rule == b->rule && a->loc.line == b->loc.line &&
	       a->loc.col == b->loc.col && !cmp_str(a->loc.path, b->loc.path);
}

void findings_finish(struct findings *f, const char *srcroot, struct filecache *src)
{
	size_t out = 0;

	if (f->len)
		qsort(f->v, f->len, sizeof(*f->v), cmp_finding);
	for (size_t i = 0; i < f->len; i++) {
		if (out && same_place(&f->v[out - 1], &f->v[i])) {
			free_finding(&f->v[i]);
			continue;
		}
		f->v[out++] = f->v[i];
	}
	f->len = out;
	for (size_t i = 0; i < f->len; i++)
		if (!f->v[i].level)
			f->v[i].level = f->v[i].pass ? "none" :
					confidence_levels[f->v[i].confidence] ?
					confidence_levels[f->v[i].confidence] : rules[f->v[i].rule].level;
	fingerprint(f, srcroot, src);
}

void findings_filter(struct findings *f, int (*keep)(const struct finding *, void *),
		     void *arg)
{
	size_t out = 0;

	for (size_t i = 0; i < f->len; i++) {
		if (keep(&f->v[i], arg))
			f->v[out++] = f->v[i];
		else
			free_finding(&f->v[i]);
	}
	f->len = out;
}

struct dropping {
	const struct finding *base;
	const unsigned char *drop;
};

static int not_dropped(const struct finding *x, void *arg)
{
	const struct dropping *d = arg;

	return !d->drop[x - d->base];
}

void findings_drop(struct findings *f, const unsigned char *drop)
{
	struct dropping d = { f->v, drop };

	findings_filter(f, not_dropped, &d);
}

void findings_free(struct findings *f)
{
	for (size_t i = 0; i < f->len; i++)
		free_finding(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void notice_add(struct notices *n, const char *level, const char *path,
		const char *fmt, ...)
{
	struct notice *x;
	va_list ap;

	grow(&n->v, &n->cap, n->len + 1, sizeof(*n->v));
	x = &n->v[n->len++];
	x->level = xstrdup(level);
	x->path = path ? xstrdup(path) : NULL;
	va_start(ap, fmt);
	if (vasprintf(&x->message, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
}

void notices_move(struct notices *dst, struct notices *src)
{
	move_array(&dst->v, &dst->len, &dst->cap, &src->v, src->len, sizeof(*src->v));
	src->len = src->cap = 0;
}

static int cmp_notice(const void *pa, const void *pb)
{
	const struct notice *a = pa, *b = pb;
	int c = strcmp(a->path ? a->path : "", b->path ? b->path : "");

	if (!c)
		c = strcmp(a->message, b->message);
	return c ? c : strcmp(a->level, b->level);
}

static void free_notice(struct notice *x)
{
	free(x->level);
	free(x->path);
	free(x->message);
}

void notices_finish(struct notices *n)
{
	size_t out = 0;

	if (n->len)
		qsort(n->v, n->len, sizeof(*n->v), cmp_notice);
	for (size_t i = 0; i < n->len; i++) {
		if (out && !cmp_notice(&n->v[out - 1], &n->v[i]))
			free_notice(&n->v[i]);
		else
			n->v[out++] = n->v[i];
	}
	n->len = out;
}

void notices_free(struct notices *n)
{
	for (size_t i = 0; i < n->len; i++)
		free_notice(&n->v[i]);
	free(n->v);
	memset(n, 0, sizeof(*n));
}
