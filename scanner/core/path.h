#ifndef CHARSCAN_PATH_H
#define CHARSCAN_PATH_H

/* file if absolute, else dir/file; caller frees. */
char *join_path(const char *dir, const char *file);
/* Takes path (freed): its real path, or, for a file that is gone, the
 * absolute path with "." and ".." folded lexically; caller frees. */
char *clean_path(char *path);
/* Takes absolute path (freed): "." and ".." folded lexically, symbolic
 * links left as they are; caller frees. */
char *fold_path(char *path);
/* The file name after path's last '/' ("?" for none), as messages
 * name a place: "written -1 at p4.c:84". */
const char *base_name(const char *path);
/* path relative to root when it lies below it, else path itself. */
const char *relative_path(const char *path, const char *root);

/* Is the resolved path the resolved tree itself or below it? */
int path_below(const char *path, const char *tree);
/* May a report's own %SRCROOT% (resolved) choose the tree charscan reads
 * or writes?  Only when it is the current folder or below it: a report
 * from elsewhere names whatever folder it likes (SECURITY.md). */
int root_is_here(const char *real_root);

#endif
