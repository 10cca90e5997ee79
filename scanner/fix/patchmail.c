/*
 * Fixes as mails a maintainer can apply: the git format-patch layout
 * (mbox "From " line, From:, Date:, Subject: [PATCH], the message, the
 * Signed-off-by of whoever git config names, "---", a diffstat, the
 * diff), one mail per subsystem.  In a kernel tree the tree's own
 * scripts/get_maintainer.pl groups the files by MAINTAINERS entry and
 * addresses each mail, as kernel contributors do: maintainers in To:,
 * reviewers and lists in Cc:.  Programs run by argv, never a shell.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "mailhead.h"
#include "core/core.h"
#include "patchmail.h"
#include "udiff.h"

struct mail {
	char *subsystem;		/* MAINTAINERS entry or directory */
	const struct fixed_file **files;
	size_t n;
};

struct mailer {
	const char *srcroot;
	int kernel;			/* get_maintainer.pl is there */
	char *name, *email;		/* cleaned as git cleans an ident */
};

/* The first line a program prints, or NULL. */
static char *first_line(char *const argv[], const char *cwd)
{
	char *out = NULL, *err = NULL, *errtext = NULL, *nl;
	size_t len;

	if (spawn_capture(argv, cwd, &out, &len, &errtext, &err)) {
		free(err);
		free(errtext);
		return NULL;
	}
	free(errtext);
	if ((nl = strchr(out, '\n')))
		*nl = '\0';
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

static char *git_config(const char *key, const char *cwd)
{
	char *argv[] = { "git", "config", "--get", (char *)key, NULL };

	return first_line(argv, cwd);
}

/* What git would make of a config value, or NULL. */
static char *ident_part(const char *key, const char *srcroot)
{
	char *value = git_config(key, srcroot), *part = value ? ident_clean(value) : NULL;

	free(value);
	if (part && !*part) {
		free(part);
		return NULL;
	}
	return part;
}

static void identity(struct mailer *m)
{
	m->name = ident_part("user.name", m->srcroot);
	m->email = ident_part("user.email", m->srcroot);
	if (m->name && m->email && is_clean_address(m->email))
		return;
	fprintf(stderr, "charscan: fix: git config user.name/user.email unset or not a name and "
		"address; the mails are signed off by charscan <charscan@invalid>: set them and "
		"run again\n");
	free(m->name);
	free(m->email);
	m->name = xstrdup("charscan");
	m->email = xstrdup("charscan@invalid");
}

/* The MAINTAINERS entry of a file, or its directory outside a kernel. */
static char *subsystem_of(const struct mailer *m, const char *rel)
{
	/* "./": a file named "--foo" is no option of the script's. */
	char *path = xasprintf("./%s", rel);
	char *argv[] = { "perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
			 "--subsystem", "--no-email", "--no-l", "-f", path, NULL };
	char *s = m->kernel ? first_line(argv, m->srcroot) : NULL, *slash;

	free(path);
	if (s)
		return s;
	s = xstrdup(rel);
	slash = strrchr(s, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(s, ".");
	return s;
}

/* The subject's prefix, as kernel subjects name the code: the file's
 * directory without arch/, drivers/, fs/, include/ and at most two deep
 * ("x86/events", "ext4", "lib"). */
static char *prefix_of(const char *rel)
{
	static const char *const drop[] = { "arch/", "drivers/", "fs/", "sound/", "include/" };
	const char *p = rel, *end;
	int depth = 0;

	for (size_t i = 0; i < sizeof(drop) / sizeof(*drop); i++)
		if (!strncmp(p, drop[i], strlen(drop[i])))
			p += strlen(drop[i]);
	for (end = p; *end && depth < 2; end++)
		if (*end == '/' && strchr(end + 1, '/'))
			depth++;
		else if (*end == '/')
			break;
	if (!strchr(p, '/'))
		return xstrdup(p);
	while (end > p && *end != '/')
		end--;
	return xstrndup(p, end - p);
}

/* Is x's fix the same as one of an earlier finding of the mail? */
static int fix_seen(const struct mail *mail, size_t file, size_t k)
{
	const struct finding *x = mail->files[file]->findings[k];

	for (size_t i = 0; i <= file; i++)
		for (size_t j = 0; j < (i == file ? k : mail->files[i]->nfindings); j++) {
			const struct finding *y = mail->files[i]->findings[j];

			if (y->fix.loc.line == x->fix.loc.line && !strcmp(y->fix.loc.path, x->fix.loc.path) &&
			    !strcmp(y->fix.description, x->fix.description))
				return 1;
		}
	return 0;
}

/* The subject after "[PATCH] ": "-funsigned-char, ext4: declare 'name'
 * with unsigned char", or how many places a mail of several fixes says
 * the signedness of. */
static char *subject(const struct mail *mail, const char *srcroot)
{
	const struct finding *x = mail->files[0]->findings[0];
	char *prefix = prefix_of(relative_path(mail->files[0]->path, srcroot)), *s;
	size_t fixes = 0;

	for (size_t i = 0; i < mail->n; i++)
		for (size_t k = 0; k < mail->files[i]->nfindings; k++)
			fixes += !fix_seen(mail, i, k);
	if (fixes == 1) {
		const char *d = x->fix.description;
		char first = *d >= 'A' && *d <= 'Z' ? *d | 0x20 : *d;

		s = xasprintf("-funsigned-char, %s: %c%s", prefix, first, *d ? d + 1 : "");
	} else
		s = xasprintf("-funsigned-char, %s: say which char signedness %zu declarations mean",
			      prefix, fixes);
	free(prefix);
	return s;
}

/* The message: what git am makes the commit's.  Its lines come from
 * file names and the report, so no control byte is written raw: a line
 * "---" or "diff --git" would end the message or start a diff. */
static void body(FILE *f, const struct mail *mail, const struct mailer *m)
{
	const char *srcroot = m->srcroot;

	fputs("Plain char is signed on x86 and unsigned on arm64, and on x86 too since\n"
	      "Linux 6.2 builds with -funsigned-char.  This code reads a char whose\n"
	      "meaning depends on that:\n\n", f);
	for (size_t i = 0; i < mail->n; i++)
		for (size_t k = 0; k < mail->files[i]->nfindings; k++) {
			const struct finding *x = mail->files[i]->findings[k];

			fputs("  ", f);
			fput_clean(f, relative_path(x->loc.path, srcroot));
			fprintf(f, ":%u: ", x->loc.line);
			fput_clean(f, x->message);
			fprintf(f, " [%s %s]\n", rules[x->rule].id, rules[x->rule].name);
		}
	fputs("\nSay which signedness the code means, so that it behaves the same either\n"
	      "way:\n\n", f);
	for (size_t i = 0; i < mail->n; i++)
		for (size_t k = 0; k < mail->files[i]->nfindings; k++) {
			const struct finding *x = mail->files[i]->findings[k];

			if (fix_seen(mail, i, k))
				continue;
			fputs("  ", f);
			fput_clean(f, relative_path(x->fix.loc.path, srcroot));
			fprintf(f, ":%u: ", x->fix.loc.line);
			fput_clean(f, x->fix.description);
			fputc('\n', f);
		}
	fprintf(f, "\nFound by charscan %s.\n\nSigned-off-by: ", CHARSCAN_VERSION);
	fput_clean(f, m->name);
	fprintf(f, " <%s>\n---\n", m->email);
}

static void diffstat_line(FILE *f, const char *rel, const struct diffstat *st, int w)
{
	unsigned n = st->added + st->removed;

	fprintf(f, " %-*s | %u ", w, rel, n);
	for (unsigned i = 0; i < st->added; i++)
		fputc('+', f);
	for (unsigned i = 0; i < st->removed; i++)
		fputc('-', f);
	fputc('\n', f);
}

/* Everything after "---": diffstat, then the diffs; names quoted as
 * git quotes them, so that git am and quilt find the files. */
static void diffs(FILE *f, const struct mail *mail, const char *srcroot)
{
	struct diffstat total = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *d = open_memstream(&text, &len);
	int w = 0;

	char **names = xcalloc(mail->n + 1, sizeof(*names));

	for (size_t i = 0; i < mail->n; i++) {
		int n;

		names[i] = git_path("", relative_path(mail->files[i]->path, srcroot));
		n = (int)strlen(names[i]);
		w = n > w ? n : w;
	}
	for (size_t i = 0; i < mail->n; i++) {
		const struct fixed_file *ff = mail->files[i];
		const char *rel = relative_path(ff->path, srcroot);
		char *a = git_path("a/", rel), *b = git_path("b/", rel);
		struct diffstat st = { 0 };

		fprintf(d, "diff --git %s %s\n", a, b);
		udiff(d, rel, ff->old, ff->old_len, ff->new, ff->new_len, &st);
		diffstat_line(f, names[i], &st, w);
		total.added += st.added;
		total.removed += st.removed;
		free(a);
		free(b);
		free(names[i]);
	}
	free(names);
	fclose(d);
	fprintf(f, " %zu file%s changed, %u insertion%s(+), %u deletion%s(-)\n\n%s-- \ncharscan %s\n\n",
		mail->n, mail->n == 1 ? "" : "s", total.added, total.added == 1 ? "" : "s",
		total.removed, total.removed == 1 ? "" : "s", text, CHARSCAN_VERSION);
	free(text);
}

static int has_control(const char *s, const char *end)
{
	for (; s < end; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* "To: a, b" and "Cc: ..." from get_maintainer.pl's roles; an address
 * with a control byte (a CR in MAINTAINERS) is left out. */
static void addresses(FILE *f, const struct mailer *m, const char *patch)
{
	char *argv[] = { "perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
			 (char *)patch, NULL };
	char *out = NULL, *err = NULL, *errtext = NULL;
	size_t len;

	if (!m->kernel)
		return;
	if (spawn_capture(argv, m->srcroot, &out, &len, &errtext, &err)) {
		complain("fix: get_maintainer.pl: %s", err);
		goto out;
	}
	for (int to = 1; to >= 0; to--) {
		int first = 1;

		for (char *line = out, *nl; line && *line; line = nl ? nl + 1 : NULL) {
			char *role = strstr(line, " (");
			int is_to;

			nl = strchr(line, '\n');
			if (!role || (nl && role > nl) || has_control(line, role))
				continue;
			is_to = !strncmp(role, " (maintainer:", 13) || !strncmp(role, " (supporter:", 12) ||
				!strncmp(role, " (odd fixer:", 12);
			if (is_to != to)
				continue;
			fprintf(f, "%s %.*s", first ? (to ? "To:" : "Cc:") : ",\n   ",
				(int)(role - line), line);
			first = 0;
		}
		if (!first)
			fputc('\n', f);
	}
out:
	free(out);
	free(err);
	free(errtext);
}

static int has_non_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 1;
	return 0;
}

/* The body after the headers, with git's MIME headers first when the
 * subject or body holds non-ASCII text. */
static void message(FILE *f, const struct mail *mail, const struct mailer *m, const char *subj)
{
	char *text = NULL;
	size_t len = 0;
	FILE *b = open_memstream(&text, &len);

	body(b, mail, m);
	fclose(b);
	if (has_non_ascii(subj) || has_non_ascii(text))
		fputs("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n", f);
	fprintf(f, "\n%s", text);
	free(text);
}

/* The file name git format-patch would give: 0001-the-subject.patch. */
static char *file_name(const char *dir, int k, const char *subj)
{
	char slug[53];
	size_t o = 0;

	for (const char *s = subj; *s && o < sizeof(slug) - 1; s++) {
		int ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || *s == '.' || *s == '_';

		if (ok)
			slug[o++] = *s;
		else if (o && slug[o - 1] != '-')
			slug[o++] = '-';
	}
	while (o && (slug[o - 1] == '-' || slug[o - 1] == '.'))
		o--;
	slug[o] = '\0';
	return xasprintf("%s/%04d-%s.patch", dir, k, slug);
}

static int write_mail(const struct mailer *m, const char *dir, int k, const struct mail *mail)
{
	char *subj = subject(mail, m->srcroot), *path = file_name(dir, k, subj), *err = NULL;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	struct output out;
	int rc = -1;

	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z", localtime_r(&now, &tm));
	if (output_open(&out, path, &err) == 0) {
		fputs("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n", out.f);
		mail_from(out.f, m->name, m->email);
		fprintf(out.f, "Date: %s\n", date);
		mail_subject(out.f, subj);
		message(out.f, mail, m, subj);
		diffs(out.f, mail, m->srcroot);
		rc = output_commit(&out, &err);
	}
	if (rc == 0 && m->kernel) {
		/* The headers go in once the patch is there to ask about. */
		rc = -1;
		if (output_open(&out, path, &err) == 0) {
			FILE *in = fopen(path, "r");
			size_t len;
			char *text = in ? read_all(in, &len) : NULL, *blank;

			if (in)
				fclose(in);
			blank = text ? strstr(text, "\n\n") : NULL;
			if (blank) {
				fwrite(text, 1, blank + 1 - text, out.f);
				addresses(out.f, m, path);
				fputs(blank + 1, out.f);
				rc = output_commit(&out, &err);
			} else {
				output_abort(&out);
				err = xasprintf("cannot read back %s", path);
			}
			free(text);
		}
	}
	if (rc)
		complain("fix: %s", err ? err : path);
	else
		printf("%s\n", path);
	free(err);
	free(subj);
	free(path);
	return rc;
}

/* Files grouped by subsystem, in the order of their first file. */
static size_t group(const struct mailer *m, const struct fixed_file *files, size_t n,
		    struct mail *mails)
{
	size_t nm = 0;

	for (size_t i = 0; i < n; i++) {
		char *s = subsystem_of(m, relative_path(files[i].path, m->srcroot));
		size_t k;

		for (k = 0; k < nm && strcmp(mails[k].subsystem, s); k++)
			;
		if (k == nm) {
			mails[nm].subsystem = s;
			mails[nm].files = xcalloc(n, sizeof(*mails[nm].files));
			mails[nm++].n = 0;
		} else {
			free(s);
		}
		mails[k].files[mails[k].n++] = &files[i];
	}
	return nm;
}

int patchmail_write(const char *dir, const char *srcroot, const struct fixed_file *files,
		    size_t n)
{
	struct mailer m = { .srcroot = srcroot };
	struct mail *mails = xcalloc(n + 1, sizeof(*mails));
	char *script = join_path(srcroot, "scripts/get_maintainer.pl");
	char *maint = join_path(srcroot, "MAINTAINERS"), *abs = NULL;
	struct stat st;
	size_t nm;
	int rc = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		complain("fix: cannot create %s: %s", dir, strerror(errno));
		rc = -1;
		goto out;
	}
	/* get_maintainer.pl runs in srcroot: the mails' paths are absolute. */
	if (!(abs = realpath(dir, NULL))) {
		complain("fix: %s: %s", dir, strerror(errno));
		rc = -1;
		goto out;
	}
	m.kernel = !stat(script, &st) && !stat(maint, &st);
	identity(&m);
	nm = group(&m, files, n, mails);
	for (size_t k = 0; k < nm; k++)
		rc |= write_mail(&m, abs, (int)k + 1, &mails[k]);
	for (size_t k = 0; k < nm; k++) {
		free(mails[k].subsystem);
		free(mails[k].files);
	}
	free(m.name);
	free(m.email);
out:
	free(abs);
	free(mails);
	free(script);
	free(maint);
	return rc;
}
