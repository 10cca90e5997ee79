/*
 * The one place where compiler flags are changed before libclang sees
 * them.  Each entry says why; docs/flags.md lists the same table.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "compdb.h"
#include "core/core.h"


static const struct dropped_flag {
	const char *flag;
	int prefix;		/* match flag as a prefix */
	int takes_value;	/* the next argv word goes too */
	const char *why;
} dropped[] = {
	/* What a compile writes: dropped by compile_argv() too. */
	{ "-o",			0, 1, "a scan writes no object file" },
	{ "-Wp,-MD,",		1, 0, "a scan must not write dependency files (kbuild)" },
	{ "-Wp,-MMD,",		1, 0, "a scan must not write dependency files (kbuild)" },
	{ "-MD",		0, 0, "a scan must not write dependency files" },
	{ "-MMD",		0, 0, "a scan must not write dependency files" },
	{ "-MF",		0, 1, "dependency file name" },
	{ "-MT",		0, 1, "dependency target name" },
	{ "-MQ",		0, 1, "dependency target name" },
#define NR_OUTPUT_FLAGS 8
	/* What libclang (a newer clang than the build's) cannot take. */
	{ "-Werror",		1, 0, "a warning must not turn into a failed TU" },
	{ "-pedantic-errors",	0, 0, "a warning must not turn into a failed TU" },
	{ "-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang",
				0, 0, "clang <= 15 needs it, later clang rejects it" },
	{ "-fplugin=",		1, 0, "gcc plugins (gcc-built databases)" },
	{ "-fplugin-arg-",	1, 0, "gcc plugin arguments" },
	{ "-fconserve-stack",	0, 0, "gcc-only flag, rejected by clang" },
	{ "-fno-allow-store-data-races", 0, 0, "gcc-only flag, rejected by clang" },
	{ "-mindirect-branch=",	1, 0, "gcc-only spelling of -mretpoline" },
	{ "-mindirect-branch-register", 0, 0, "gcc-only flag" },
	{ "-mrecord-mcount",	0, 0, "gcc-only flag" },
	{ "-fno-var-tracking-assignments", 0, 0, "gcc-only flag" },
	{ "-fmin-function-alignment=", 1, 0, "gcc-only flag" },
};

/*
 * kbuild calls $(CHECK) with sparse's flags (CHECKFLAGS) before the
 * compiler's: these are sparse's own or, on x86, rejected by clang.
 * The target is already in the compiler's flags.
 */
static const struct dropped_flag sparse_only[] = {
	{ "--arch=",		1, 0, "sparse's target option" },
	{ "-mlittle-endian",	0, 0, "sparse's; clang rejects it on x86" },
	{ "-mbig-endian",	0, 0, "sparse's; clang rejects it on x86" },
	{ "-Wbitwise",		0, 0, "sparse's warning" },
	{ "-Wno-return-void",	0, 0, "sparse's warning" },
	{ "-Wno-unknown-attribute", 0, 0, "sparse's warning" },
	{ "-Wsparse-",		1, 0, "sparse's warnings" },
	{ "-Wno-sparse-",	1, 0, "sparse's warnings" },
};

/* Added after argv[0]: diagnostics other than errors are not read. */
static const char *const added[] = { "-w" };

static const struct dropped_flag *lookup(const struct dropped_flag *table, size_t n,
					 const char *arg)
{
	for (size_t i = 0; i < n; i++) {
		const struct dropped_flag *d = &table[i];

		if (d->prefix ? !strncmp(arg, d->flag, strlen(d->flag))
			      : !strcmp(arg, d->flag))
			return d;
	}
	return NULL;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Of the dropped flags, the object and dependency file names are kept:
 * where --diff finds what a TU includes. */
static const struct kept_flag {
	const char *flag;
	size_t slot;		/* offsetof(struct tu, ...) */
	int after_comma;	/* -Wp,-MD,FILE */
} kept[] = {
	{ "-o",		offsetof(struct tu, output), 0 },
	{ "-MF",	offsetof(struct tu, depfile), 0 },
	{ "-Wp,-MD,",	offsetof(struct tu, depfile), 1 },
	{ "-Wp,-MMD,",	offsetof(struct tu, depfile), 1 },
};

static void keep(struct tu *tu, const struct dropped_flag *d, const char *value)
{
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		char **slot = (char **)((char *)tu + kept[i].slot);

		if (strcmp(d->flag, kept[i].flag))
			continue;
		if (kept[i].after_comma)
			value = strrchr(value, ',') + 1;
		free(*slot);
		*slot = join_path(tu->directory, value);
	}
}

char **compile_argv(const struct tu *tu, int room)
{
	int n = 0, len = 0;
	char **out;

	while (tu->cc_argv[len])
		len++;
	out = xcalloc(len + room + 1, sizeof(*out));
	for (int i = 0; tu->cc_argv[i]; i++) {
		const struct dropped_flag *d = i ? lookup(dropped, NR_OUTPUT_FLAGS, tu->cc_argv[i])
						 : NULL;

		if (d)
			i += d->takes_value && tu->cc_argv[i + 1];
		else if (strcmp(tu->cc_argv[i], "-c"))
			out[n++] = tu->cc_argv[i];
	}
	return out;
}

void filter_args(struct tu *tu)
{
	size_t nadd = sizeof(added) / sizeof(added[0]);
	char **out = xcalloc(tu->argc + nadd + 3, sizeof(*out));
	int n = 0;

	tu->cc_argv = xcalloc(tu->argc + 1, sizeof(*tu->cc_argv));
	for (int i = 0; i < tu->argc; i++)
		tu->cc_argv[i] = xstrdup(tu->argv[i]);

	for (int i = 0; i < tu->argc; i++) {
		const struct dropped_flag *d = i ? lookup(dropped, N(dropped), tu->argv[i]) : NULL;

		if (!d) {
			out[n++] = tu->argv[i];
			if (i == 0) {
				for (size_t j = 0; j < nadd; j++)
					out[n++] = xstrdup(added[j]);
				/* Relative paths in the entry are relative to
				 * its directory; workers never chdir. */
				out[n++] = xstrdup("-working-directory");
				out[n++] = xstrdup(tu->directory);
			}
			continue;
		}
		keep(tu, d, d->takes_value && i + 1 < tu->argc ? tu->argv[i + 1] :
		     tu->argv[i]);
		free(tu->argv[i]);
		if (d->takes_value && i + 1 < tu->argc)
			free(tu->argv[++i]);
	}
	out[n] = NULL;
	free(tu->argv);
	tu->argv = out;
	tu->argc = n;
}

void filter_checkflags(struct tu *tu)
{
	int n = 0;

	for (int i = 0; i < tu->argc; i++) {
		if (i && lookup(sparse_only, N(sparse_only), tu->argv[i]))
			free(tu->argv[i]);
		else
			tu->argv[n++] = tu->argv[i];
	}
	tu->argv[n] = NULL;
	tu->argc = n;
}
