/*
 * Response files (@FILE in a compile command, as CMake, Ninja and Meson
 * write on long command lines), expanded as clang's and gcc's drivers
 * do: llvm::cl::TokenizeGNUCommandLine's rules, and every name, nested
 * or not, relative to the compile's working directory (clang-19 and
 * gcc 12 resolve a nested @FILE there, not beside the file naming it).
 * Unlike the drivers, a file that cannot be read is an error, never a
 * word left as it is: flags silently lost change what is compiled.
 * Bounded: depth, cycles, bytes per file and in all, regular files only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compdb.h"
#include "core/core.h"

#define RSP_MAX_DEPTH 16		/* files open inside each other */
#define RSP_MAX_FILE (4u << 20)	/* bytes in one response file */
#define RSP_MAX_TOTAL (64u << 20)	/* bytes read for one entry */

struct expansion {
	const char *dir;		/* relative names start here */
	struct stat open[RSP_MAX_DEPTH];	/* the files being expanded */
	int depth;
	size_t total;
	char **out;
	size_t len, cap;
	char *err;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void push(char ***v, size_t *len, size_t *cap, char *word)
{
	grow(v, cap, *len + 2, sizeof(**v));
	(*v)[(*len)++] = word;
	(*v)[*len] = NULL;
}

int rsp_tokenize(const char *s, size_t len, char ***argvp)
{
	char *word = xmalloc(len + 1), **argv = NULL;
	size_t n = 0, argc = 0, cap = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < len) {		/* escapes the next byte */
			word[n++] = s[++i];
		} else if (c == '\'' || c == '"') {	/* to the same quote or the end */
			for (i++; i < len && s[i] != c; i++) {
				if (s[i] == '\\' && i + 1 < len)
					i++;
				word[n++] = s[i];
			}
		} else if (!is_space(c)) {
			word[n++] = c;
		} else if (n) {
			push(&argv, &argc, &cap, xstrndup(word, n));
			n = 0;
		}
	}
	/* An empty quoted word ("") is no word, as in clang. */
	if (n)
		push(&argv, &argc, &cap, xstrndup(word, n));
	free(word);
	if (!argv)
		argv = xcalloc(1, sizeof(*argv));
	*argvp = argv;
	return (int)argc;
}

static int fail(struct expansion *x, const char *path, const char *why)
{
	x->err = xasprintf("response file %s: %s", path, why);
	return -1;
}

/* The open file's text; NULL with x->err.  O_NONBLOCK: a FIFO or a
 * terminal must not stop the scan before fstat() says what it is. */
static char *read_rsp(struct expansion *x, const char *path, int fd, struct stat *st,
		      size_t *len)
{
	char *buf;
	ssize_t r;

	if (fstat(fd, st) < 0)
		return fail(x, path, strerror(errno)), NULL;
	if (!S_ISREG(st->st_mode))
		return fail(x, path, "not a regular file"), NULL;
	for (int d = 0; d < x->depth; d++)
		if (x->open[d].st_dev == st->st_dev && x->open[d].st_ino == st->st_ino)
			return fail(x, path, "includes itself (a cycle of @files)"), NULL;
	if (st->st_size > RSP_MAX_FILE || x->total + st->st_size > RSP_MAX_TOTAL)
		return fail(x, path, "too large"), NULL;
	buf = xmalloc((size_t)st->st_size + 1);
	*len = 0;
	/* One byte more than its size: a file that grows is seen growing. */
	while ((r = read(fd, buf + *len, (size_t)st->st_size + 1 - *len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || *len + (size_t)r > (size_t)st->st_size) {
			free(buf);
			return fail(x, path, r < 0 ? strerror(errno) : "changed while read"), NULL;
		}
		*len += (size_t)r;
	}
	if (memchr(buf, '\0', *len)) {
		free(buf);
		return fail(x, path, "holds a NUL byte (not a text file)"), NULL;
	}
	x->total += *len;
	return buf;
}

static int expand_words(struct expansion *x, char **words, int first);

static int expand_file(struct expansion *x, const char *name)
{
	char *path = join_path(x->dir, name), *text, **words;
	size_t len;
	int fd, rc = -1;

	/* Checked before x->open[x->depth] is filled: it has no room past. */
	if (x->depth == RSP_MAX_DEPTH) {
		fail(x, path, "response files nested too deep");
		free(path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		fail(x, path, strerror(errno));
		free(path);
		return -1;
	}
	text = read_rsp(x, path, fd, &x->open[x->depth], &len);
	close(fd);
	if (text) {
		rsp_tokenize(text, len, &words);
		free(text);
		x->depth++;
		rc = expand_words(x, words, 0);
		x->depth--;
		for (char **w = words; *w; w++)
			free(*w);
		free(words);
	}
	free(path);
	return rc;
}

/* words[first..] copied into x->out, each @FILE replaced by its words. */
static int expand_words(struct expansion *x, char **words, int first)
{
	for (int i = first; words[i]; i++) {
		if (words[i][0] != '@' || !words[i][1])
			push(&x->out, &x->len, &x->cap, xstrdup(words[i]));
		else if (expand_file(x, words[i] + 1))
			return -1;
	}
	return 0;
}

int rsp_expand(int *argc, char ***argv, const char *dir, char **err)
{
	struct expansion x = { .dir = dir };
	int i;

	for (i = 1; i < *argc && ((*argv)[i][0] != '@' || !(*argv)[i][1]); i++)
		;
	if (i == *argc)
		return 0;			/* none: argv as it was */
	push(&x.out, &x.len, &x.cap, xstrdup((*argv)[0]));
	if (expand_words(&x, *argv, 1)) {
		for (size_t k = 0; k < x.len; k++)
			free(x.out[k]);
		free(x.out);
		*err = x.err;
		return -1;
	}
	for (i = 0; i < *argc; i++)
		free((*argv)[i]);
	free(*argv);
	*argv = x.out;
	*argc = (int)x.len;
	return 0;
}
