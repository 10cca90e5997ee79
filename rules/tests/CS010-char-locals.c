/*
 * A plain char kept in a char variable is the same byte either way; the
 * compiler still loads it extended (movsbl or movzbl) when the variable
 * has wider uses, so --explain accounts the load's line, and each use
 * is judged where it widens the variable.  The shape of
 * fs/binfmt_misc.c's delimiter.
 */
int printf(const char *fmt, ...);
void *memset(void *s, int c, unsigned long n);

char last;

int delimiter(const char *p, char *buf)
{
	char del, first = *p;		/* ok: CS010 {{kept in a local variable}} */

	del = *p++;			/* ok: CS010 {{kept in a local variable}} */
	last = *p;			/* a global: no pass, no finding */
	printf("%#x\n", del);		/* expect: CS006 {{printed by printf()}} */
	memset(buf, del, 8);		/* ok: CS010 {{takes it back as a char}} */
	return first == 'x';		/* ok: CS001 {{same result for every byte}} */
}

/* A char parameter: the callee relies on the caller's extension, so its
 * entry's code differs (tty_insert_flip_string_fixed_flag's flag). */
int fill(char *buf, char flag, int n)
{					/* ok: CS010 {{a char parameter}} */
	int i;

	for (i = 0; i < n; i++)
		buf[i] = flag ? flag : ' ';	/* ok: CS001 {{tested against zero only}} */
	return i;
}
