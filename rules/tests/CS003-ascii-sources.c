/*
 * A char read from a table of ASCII constants holds bytes 0x00-0x7f
 * only: whatever observes it is the same either way.  The shape of
 * drivers/tty/tty_io.c's pty_line_name(): the table's byte is an
 * argument on the third line of a call, and --explain says so there,
 * where the compiler widens it, not where the call starts.
 */
int sprintf(char *buf, const char *fmt, ...);

static const char ptychar[] = "pqrstuvwxyzabcde";
static const char signs[] = { '+', '-', 0xff };	/* expect: CS004 */

void pty_line_name(char *p, int index, int slave, const char *name)
{
	sprintf(p, "%s%c%x",
		slave ? "tty" : name,
		ptychar[index >> 4 & 0xf],	/* ok: CS003 {{ASCII constants}} */
		index & 0xf);
}

/* One byte of the table is not ASCII: the comparison is judged. */
int sign_of(int k)
{
	return signs[k & 1] < 0;	/* expect: CS002 */
}
