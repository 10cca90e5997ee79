/* Running a program by argv (never a shell) and reading what it prints. */
#ifndef CHARSCAN_SPAWN_H
#define CHARSCAN_SPAWN_H

#include <stddef.h>

/*
 * Run argv[0] (looked up in PATH), in folder cwd unless NULL, and return its standard output, whole,
 * in *out (caller frees).  With errtext, its standard error is kept too
 * (caller frees; else it goes to ours).  Returns 0 when it exited 0;
 * otherwise -1 with *err saying why (and *out NULL).  Safe to call from
 * several threads at once: no descriptor leaks into another's child.
 */
int spawn_capture(char *const argv[], const char *cwd, char **out, size_t *len, char **errtext,
		  char **err);

/* What a child may take: seconds of wall time (0: no limit), then it
 * and its process group are killed; megabytes of address space (0: no
 * limit). */
struct spawn_limits {
	unsigned timeout;
	unsigned long memory_mb;
};

#define SPAWN_LATE (-2)	/* killed at its deadline */

/* spawn_capture() within lim (NULL: none); SPAWN_LATE when the child
 * was killed at the deadline (*err says so). */
int spawn_limited(char *const argv[], const char *cwd, const struct spawn_limits *lim,
		  char **out, size_t *len, char **errtext, char **err);

#endif
