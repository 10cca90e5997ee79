/*
 * A plain char only tested against zero is the same test either way:
 * !c, c && d, c ? a : b, if (c).  C promotes the operands of && and ||
 * and the condition of ?: to int (a widening the oracle sees as movsbl
 * against movzbl), but not the operand of ! or an if's condition (the
 * oracle sees testb against testl).  With --explain each is a pass
 * where the char is, not where its expression starts.
 */
struct arg {
	char separator;
};

void set_separator(struct arg *arg, char separator)
{
	if (!separator)			/* ok: CS001 {{tested against zero only}} */
		separator = ' ';
	arg->separator = separator;
}

int mode_key(char mode)
{
	return mode ? 'O' : '[';	/* ok: CS001 {{tested against zero only}} */
}

int both(char a, char b)
{
	return a &&			/* ok: CS001 {{tested against zero only}} */
	       !b;			/* ok: CS001 {{tested against zero only}} */
}

int until_nul(const char *s)
{
	int n = 0;

	while (*s++)			/* ok: CS001 {{tested against zero only}} */
		n++;
	return n;
}

/* Still a finding: the test is against -1, not zero. */
int not_a_zero_test(char c)
{
	return c ? c == -1 : 0;		/* expect: CS001 unsigned {{always false}} */
}
