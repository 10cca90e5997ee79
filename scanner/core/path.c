/* Paths as the scanner compares them: absolute and clean. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "path.h"
#include "util.h"

char *join_path(const char *dir, const char *file)
{
	if (file[0] == '/')
		return xstrdup(file);
	return xasprintf("%s/%s", dir, file);
}

/* Lexically clean a path ("a/./b/../c" -> "a/c"); the file may be gone,
 * so realpath() alone will not do. */
char *clean_path(char *path)
{
	char real[PATH_MAX];

	if (path[0] != '/' && getcwd(real, sizeof(real))) {
		char *abs = xasprintf("%s/%s", real, path);

		free(path);
		path = abs;
	}
	if (realpath(path, real)) {
		free(path);
		return xstrdup(real);
	}
	return fold_path(path);
}

char *fold_path(char *path)
{
	char *out, **parts, *save = NULL;
	size_t n = 0, len;

	parts = xcalloc(strlen(path) + 1, sizeof(*parts));
	for (char *p = strtok_r(path, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (!strcmp(p, "."))
			continue;
		if (!strcmp(p, "..")) {
			if (n)
				n--;
			continue;
		}
		parts[n++] = p;
	}
	len = 2;
	for (size_t i = 0; i < n; i++)
		len += strlen(parts[i]) + 1;
	out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(out, "/");
		strcat(out, parts[i]);
	}
	if (!n)
		strcpy(out, "/");
	free(parts);
	free(path);
	return out;
}

const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "?";
}

const char *relative_path(const char *path, const char *root)
{
	size_t n = strlen(root);
	const char *rel;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) || path[n] != '/')
		return path;
	/* Below the root, never the root itself: "" is no file's URI. */
	for (rel = path + n; *rel == '/'; rel++)
		;
	return *rel ? rel : path;
}

int path_below(const char *path, const char *tree)
{
	size_t n = strlen(tree);

	if (!strcmp(tree, "/"))
		return path[0] == '/';
	return !strncmp(path, tree, n) && (path[n] == '/' || !path[n]);
}

int root_is_here(const char *real_root)
{
	char *cwd = getcwd(NULL, 0);
	int here = cwd && path_below(real_root, cwd);

	free(cwd);
	return here;
}
