/*
 * A const char * parameter of a function other TUs call: when every call
 * the scan sees points it at constant ASCII text, what it reads there is
 * ASCII (CS003-xtu-text-use.c holds the other calls).  i915's
 * __i915_printk(i915, KERN_ERR, ...) reads `level[1] <= KERN_ERR[1]`,
 * a digit of a KERN_* literal at every call; drivers/pci/vpd.c compares
 * the bytes of `kw`, a two-letter keyword literal at every call.
 */
int xt_level_is_error(const char *level)
{
	return level[1] <= '3';			/* ok: CS003 {{every call of xt_level_is_error() the scan sees (in 2 TUs)}} */
}

int xt_keyword_before(const char *kw, char c)
{
	return kw[0] < 'Z' &&			/* ok: CS003 */
	       kw[1] < c;			/* expect: CS003 */ /* two parameters are not followed together */
}

/* the other char compared is any byte: the literal alone says nothing */
int xt_two_texts(const char *s, const char *t)
{
	return s[0] < t[0];			/* expect: CS003 */
}

/* one call passes a buffer's bytes */
int xt_mixed_text(const char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

/* every call passes a literal, but only this file calls it: the scan may
 * hold just it and a test of it */
int xt_own_file_text(const char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

/* not const: the function may be given text it (or its caller) changes */
int xt_writable_text(char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

/* one call's literal holds a byte >= 0x80 */
int xt_high_literal(const char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

/* drivers/pci/vpd.c: the exported pci_vpd_find_ro_info_keyword() passes
 * its kw on to the static pci_vpd_find_info_keyword(); the calls of the
 * exported one decide. */
static int xt_find_keyword(const unsigned char *buf, const char *kw)
{
	return buf[0] == kw[0];			/* ok: CS008 {{every call of xt_find_ro_keyword() the scan sees}} */
}

int xt_find_ro_keyword(const unsigned char *buf, const char *kw)
{
	return xt_find_keyword(buf, kw);
}

/* the same, but a call of the exported one passes a buffer */
static int xt_find_mixed(const unsigned char *buf, const char *kw)
{
	return buf[0] == kw[0];			/* expect: CS008 */
}

int xt_find_mixed_ro(const unsigned char *buf, const char *kw)
{
	return xt_find_mixed(buf, kw);
}

/* the same, but the static one is also given a buffer directly */
static int xt_find_direct(const unsigned char *buf, const char *kw)
{
	return buf[0] == kw[0];			/* expect: CS008 */
}

int xt_find_direct_ro(const unsigned char *buf, const char *kw)
{
	return xt_find_direct(buf, kw);
}

int xt_find_direct_any(const unsigned char *buf, const char *any)
{
	return xt_find_direct(buf, any);
}

/* literals at every call with a prototype; CS004-xtu-noproto.c calls
 * them through `int xt_kr_text();` and a non-const declaration */
int xt_kr_text(const char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

int xt_nonconst_text(const char *s)
{
	return s[0] < 'a';			/* expect: CS003 */
}

int xt_probe(void)
{
	return xt_level_is_error("\001" "3") + xt_keyword_before("SN", 'Z') + xt_two_texts("a", "b") +
	       xt_own_file_text("abc") + xt_mixed_text("x") + xt_writable_text("w") +
	       xt_high_literal("a") + xt_find_ro_keyword((const unsigned char *)"x", "SN") +
	       xt_find_mixed_ro((const unsigned char *)"x", "PN") +
	       xt_find_direct_ro((const unsigned char *)"x", "MN") + xt_kr_text("k") +
	       xt_nonconst_text("n");
}
