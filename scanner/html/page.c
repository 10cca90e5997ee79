/*
 * The pages of charscan report: each written to a temporary file beside
 * it and renamed over it when complete (core/output.c), so that a reader
 * never opens half a page; none over the report it is made from.
 *
 * Everything a page shows of a report or of the source (paths, messages,
 * source lines, a rule's help) goes through html_textn(): a "<script>"
 * in a file name or a source line is text on the page, never markup.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "page.h"

#define TMP_MARK ".charscan-"	/* NAME.charscan-PID-XXXXXX: a temporary */

static void page_free(struct page *p)
{
	free(p->path);
	free(p->tmp);
	p->path = p->tmp = NULL;
}

/* One style for every page, inline: the pages open from file:// with
 * nothing beside them. */
static const char style[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}"
"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
"tr.finding:nth-child(even){background:#f4f4f4}"
".bar{background:#4a7fb5;height:12px;min-width:1px}.chart td.n{text-align:right}"
".level-error{color:#b00}.level-warning{color:#a60}.level-note{color:#06a}"
"pre,code,.src{font:13px/1.35 ui-monospace,monospace}"
".src{border:1px solid #ccc;background:#fafafa;padding:4px 0;overflow-x:auto}"
".src div{display:flex;padding:0 8px}.src .hit{background:#fff3c0}"
".src .code{white-space:pre;tab-size:8}"
".src .ln{color:#888;flex:none;width:6ch;text-align:right;margin-right:2ch}"
"mark{background:#ffd54a}.missing{color:#b00}"
".diff .del{background:#fdd}.diff .add{background:#dfd}"
"ol.steps>li{margin-bottom:.6em}.help{white-space:pre-wrap;background:#f6f6f6;padding:8px}"
"nav a{margin-right:.6em}";

void html_textn(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\r': break;	/* the parser would make it a line break */
		default:
			if (c < 0x20 && c != '\t' && c != '\n')
				fputs("&#xfffd;", f);
			else
				fputc(c, f);
		}
	}
}

void html_text(FILE *f, const char *s)
{
	html_textn(f, s, strlen(s));
}

static void head(FILE *f, const char *title)
{
	fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<meta name=\"generator\" content=\"charscan " CHARSCAN_VERSION "\"><title>", f);
	html_text(f, title);
	fprintf(f, "</title><style>%s</style></head>\n<body>\n", style);
}

static int quick_open(struct page *p, char *path, char **err)
{
	int fd;

	p->path = path;
	p->tmp = xasprintf("%s" TMP_MARK "%ld-XXXXXX", path, (long)getpid());
	fd = mkstemp(p->tmp);
	if (fd < 0 || !(p->f = fdopen(fd, "w"))) {
		*err = xasprintf("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(p->tmp);
		}
		return -1;
	}
	fchmod(fd, 0644 & ~umask(umask(0)));
	return 0;
}

int page_open(struct page *p, const char *dir, const char *name, const char *input,
	      const char *title, int quick, char **err)
{
	char *path = join_path(dir, name);
	int rc;

	memset(p, 0, sizeof(*p));
	if (output_names(path, input)) {
		*err = xasprintf("%s is the report read: not written over", path);
		rc = -1;
	} else if (quick) {
		rc = quick_open(p, path, err);
		path = NULL;
	} else if ((rc = output_open(&p->out, path, err)) == 0) {
		p->f = p->out.f;
	}
	free(path);
	if (rc == 0)
		head(p->f, title);
	else
		page_free(p);
	return rc;
}

int page_close(struct page *p, char **err)
{
	int bad, saved;

	fputs("</body></html>\n", p->f);
	if (!p->tmp)
		return output_commit(&p->out, err);
	bad = fflush(p->f) || ferror(p->f);
	saved = errno;
	if (fclose(p->f) && !bad) {
		bad = 1;
		saved = errno;
	}
	if (!bad && rename(p->tmp, p->path)) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		*err = xasprintf("cannot write %s: %s", p->path, strerror(saved));
		unlink(p->tmp);
	}
	page_free(p);
	return bad ? -1 : 0;
}

int pages_sync(const char *dir, char **err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), bad;

	bad = fd < 0 || syncfs(fd);
	if (bad)
		*err = xasprintf("cannot write %s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return bad ? -1 : 0;
}

int page_is_stale_tmp(const char *name)
{
	const char *mark = strstr(name, TMP_MARK);
	char *end;
	long pid;

	if (!mark)
		return 0;
	pid = strtol(mark + strlen(TMP_MARK), &end, 10);
	return pid > 0 && *end == '-' && strlen(end) == 7 && kill((pid_t)pid, 0) && errno == ESRCH;
}
