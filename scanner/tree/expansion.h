/* The macro invocation a location is expanded from, indexed per TU. */
#ifndef CHARSCAN_EXPANSION_H
#define CHARSCAN_EXPANSION_H

#include <clang-c/Index.h>

/*
 * The MacroExpansion cursor of the outermost invocation location l is
 * expanded from, or a null cursor: what clang_getCursor() finds at l's
 * expansion location.  Between expansions_begin(tu) and
 * expansions_end() the TU's invocations are indexed once, at the first
 * question, instead of searching the AST for each.
 */
CXCursor macro_expansion_at(CXTranslationUnit tu, CXSourceLocation l);
void expansions_begin(CXTranslationUnit tu);
void expansions_end(void);

#endif
