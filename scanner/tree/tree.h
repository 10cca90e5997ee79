/*
 * tree/: A TU as libclang parsed it: cursors as a tree without what is never
 * evaluated, source regions, and a char's value for each byte.
 * The one header other folders include.
 */
#ifndef CHARSCAN_TREE_DOOR_H
#define CHARSCAN_TREE_DOOR_H

#include "ast.h"
#include "value.h"
#include "source.h"
#include "expansion.h"

#endif
