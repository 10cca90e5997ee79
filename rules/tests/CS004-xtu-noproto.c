/*
 * Calls through a declaration without a prototype (`void f();`, legal
 * before C23): the arguments' types are not known here, so each may be
 * anything.  The stores and reads the other files' calls alone would
 * let go stay findings (CS004-xtu-buffers-fill.c's xb_fill_kr(),
 * CS003-xtu-text-def.c's xt_kr_text()).
 */
void xb_fill_kr();
int xt_kr_text();
int xt_nonconst_text(char *s);	/* the definition's is const */

int xb_kr_caller(char *buf)
{
	xb_fill_kr(buf);
	return xt_kr_text(buf) + xt_nonconst_text(buf);
}
