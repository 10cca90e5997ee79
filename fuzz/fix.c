/*
 * charscan fix on any report.  A tree of one file (p4.c, a declaration
 * charscan fixes) and, beside it, a file no report may touch; the report
 * is the input, --srcroot the tree.  Whatever the report says: no crash,
 * no leak, the file beside the tree is never changed, nothing new
 * appears beside the tree, and the tree's file either stays as it was
 * or differs only by charscan's own change ("char" -> "signed char" or
 * "unsigned char").
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fix/fix.h"
#include "fuzz.h"
#include "core/core.h"

static const char p4[] = "struct bind {\n\tchar cntr[3];\n};\n"
			 "int next(struct bind *b) { return b->cntr[0] == -1; }\n";
static const char victim[] = "char secret;\n";
static char tree[64], file[96];

static void remove_tree(void)
{
	unlink(file);
	rmdir(tree);
}

static void make_tree(void)
{
	snprintf(tree, sizeof(tree), "/tmp/charscan-fuzz-tree.XXXXXX");
	if (!mkdtemp(tree))
		die("cannot make a scratch tree");
	snprintf(file, sizeof(file), "%s/p4.c", tree);
	atexit(remove_tree);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = f ? read_all(f, NULL) : NULL;

	if (f)
		fclose(f);
	return text;
}

/* new is old with some "char" tokens made "signed char"/"unsigned char". */
static int only_charscans_change(const char *old, const char *new)
{
	while (*old && *new) {
		if (*old == *new) {
			old++, new++;
			continue;
		}
		if (!strncmp(new, "signed ", 7))
			new += 7;
		else if (!strncmp(new, "unsigned ", 9))
			new += 9;
		else
			return 0;
		if (strncmp(new, "char", 4))
			return 0;
	}
	return !*old && !*new;
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *beside = xstrdup(fuzz_file("victim.c", (const uint8_t *)victim, sizeof(victim) - 1));
	char *report = xstrdup(fuzz_file("report.sarif", data, size)), *after;
	char *files[] = { report, NULL };
	struct options o = { .fix = 1, .files = files, .nfiles = 1 };
	size_t around;
	FILE *f;

	if (!tree[0])
		make_tree();
	o.srcroot = tree;
	memset(o.engine.enabled, 1, sizeof(o.engine.enabled));
	if (!(f = fopen(file, "w")) || fputs(p4, f) < 0 || fclose(f))
		die("cannot write %s", file);
	around = entries(tree);
	fix_command(&o);
	after = slurp(beside);
	fuzz_assert(after && !strcmp(after, victim));
	free(after);
	after = slurp(file);
	fuzz_assert(after && only_charscans_change(p4, after));
	fuzz_assert(entries(tree) == around);
	free(after);
	free(report);
	free(beside);
	return 0;
}
