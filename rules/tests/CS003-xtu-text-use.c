/*
 * The calls of CS003-xtu-text-def.c's functions from another TU: ASCII
 * literals and a constant ASCII table for xt_level_is_error() and
 * xt_keyword_before(); a buffer for xt_mixed_text(); a literal with a
 * byte >= 0x80 for xt_high_literal().
 */
int xt_level_is_error(const char *level);
int xt_keyword_before(const char *kw, char c);
int xt_mixed_text(const char *s);
int xt_writable_text(char *s);
int xt_high_literal(const char *s);

static const char xt_warning[] = "\001" "4";

int xt_use(const char *buf)
{
	return xt_level_is_error(xt_warning) + xt_keyword_before("PN", 'A') +
	       xt_mixed_text(buf) + xt_writable_text("v") + xt_high_literal("\xe9t\xe9");
}
