/*
 * Command strings in compile_commands.json ("command": "...") are split
 * with POSIX-shell quoting rules, as clang's JSONCompilationDatabase
 * does: no expansion of any kind, nothing is ever run.
 */
#include <stdlib.h>
#include <string.h>
#include "compdb.h"
#include "core/core.h"

int split_command(const char *cmd, char ***argvp)
{
	size_t len = strlen(cmd), argc = 0, cap = 0;
	char **argv = NULL, *word = xmalloc(len + 1);
	const char *s = cmd;
	int open_quote = 0;

	for (;;) {
		size_t n = 0;
		int have = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			have = 1;
			if (*s == '\\' && s[1]) {
				word[n++] = s[1];
				s += 2;
			} else if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					word[n++] = *s;
				open_quote |= !*s;
				if (*s)
					s++;
			} else if (*s == '"') {
				for (s++; *s && *s != '"'; s++) {
					if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
						s++;
					word[n++] = *s;
				}
				open_quote |= !*s;
				if (*s)
					s++;
			} else {
				word[n++] = *s++;
			}
		}
		if (have) {
			grow(&argv, &cap, argc + 2, sizeof(*argv));
			argv[argc++] = xstrndup(word, n);
		}
	}
	free(word);
	/* A shell would refuse it; guessing where the word ends would
	 * compile something the build never did. */
	if (open_quote) {
		for (size_t i = 0; i < argc; i++)
			free(argv[i]);
		free(argv);
		*argvp = NULL;
		return -1;
	}
	grow(&argv, &cap, argc + 1, sizeof(*argv));
	argv[argc] = NULL;
	*argvp = argv;
	return (int)argc;
}
