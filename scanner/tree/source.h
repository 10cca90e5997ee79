/* Where a cursor is, and what its source says, for reporting. */
#ifndef CHARSCAN_SOURCE_H
#define CHARSCAN_SOURCE_H

#include <clang-c/Index.h>
#include "core/core.h"

/* Real path of a file; caller frees. */
char *file_path(CXFile f);
/*
 * The region to report for a cursor: where it is written (in a macro's
 * arguments too), or, inside a macro's body, the whole macro invocation.
 * *macro is set to the MacroExpansion cursor then (else a null cursor).
 * Returns -1 for a cursor with no file location.
 */
int cursor_region(CXTranslationUnit tu, CXCursor c, struct loc *l, CXCursor *macro);
/* The line of the macro invocation whose argument c is written in (in
 * the same file), or 0. */
unsigned expansion_line(CXCursor c);
/* Source text of a cursor, white space folded, shortened; caller frees. */
char *cursor_text(CXTranslationUnit tu, CXCursor c);
/* Line LINE of file f, without its newline, or of a long line the part
 * around byte column COL, marked "..."; caller frees. */
char *line_text(CXTranslationUnit tu, CXFile f, unsigned line, unsigned col);
/* l->ucol, l->end_ucol from the text libclang parsed (not the file as it
 * may be now). */
void utf16_columns(CXTranslationUnit tu, struct loc *l);
/* The file a cursor's report region is in (its expansion location). */
CXFile cursor_file(CXCursor c);
int in_system_header(CXCursor c);
/* Does cursor c start in a macro's expansion (body or argument)? */
int in_macro(CXCursor c);
/* Is the text from a's end to b's start one sep and white space only,
 * both written outside any macro?  (`i < 10; i++`: the test is the part
 * right before the step.) */
int only_between(CXTranslationUnit tu, CXCursor a, CXCursor b, char sep);
/* The file location (spelling) of a cursor, with its line and column. */
int cursor_file_loc(CXCursor c, struct loc *l);

#endif
