/*
 * The reads of CS004-xtu-fields-store.c's fields: the name copied as
 * bytes, the level compared as a number; the signature nowhere (never
 * read keeps the finding: nothing shows it bytes).
 */
#include "xtu-table.h"

void xf_copy_name(char *out, const struct xf_table *t)
{
	strcpy(out, t->name);
}

int xf_level_negative(const struct xf_table *t)
{
	return t->level < 0;		/* expect: CS002 */
}
