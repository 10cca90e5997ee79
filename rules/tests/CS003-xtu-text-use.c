/*
 * The calls of CS003-xtu-text-def.c's functions from another TU: ASCII
 * literals and a constant ASCII table for xt_level_is_error() and
 * xt_keyword_before(); a buffer for xt_mixed_text(); a literal with a
 * byte >= 0x80 for xt_high_literal().
 */
int xt_level_is_error(const char *level);
int xt_keyword_before(const char *kw, char c);
int xt_two_texts(const char *s, const char *t);
int xt_kr_text(const char *s);
int xt_nonconst_text(const char *s);
int xt_mixed_text(const char *s);
int xt_writable_text(char *s);
int xt_high_literal(const char *s);
int xt_find_ro_keyword(const unsigned char *buf, const char *kw);
int xt_find_mixed_ro(const unsigned char *buf, const char *kw);
int xt_find_direct_ro(const unsigned char *buf, const char *kw);

static const char xt_warning[] = "\001" "4";

/* i915_probe_error(): a macro whose constant condition picks one level;
 * the other arm is never compiled (and would be ASCII too). */
#define XT_INJECTED() 0
#define XT_LEVEL(i) ((i) ? "\001" "7" : "\001" "3")
#define xt_probe_error() xt_level_is_error(XT_INJECTED() ? "\001" "7" : "\001" "3")

int xt_use(const char *buf)
{
	return xt_level_is_error(xt_warning) + xt_probe_error() + xt_level_is_error(XT_LEVEL(*buf)) + xt_keyword_before("PN", 'A') +
	       xt_find_ro_keyword((const unsigned char *)buf, "V0") +
	       xt_find_mixed_ro((const unsigned char *)buf, buf) +
	       xt_find_direct_ro((const unsigned char *)buf, "RV") +
	       xt_two_texts("c", buf) + xt_kr_text("k") + xt_nonconst_text("n") + xt_mixed_text(buf) + xt_writable_text("v") + xt_high_literal("\xe9t\xe9");
}
