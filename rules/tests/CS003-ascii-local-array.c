/*
 * A local char array whose every element store is an ASCII value holds
 * ASCII: arch/x86/boot/video.c's get_entry() keeps the keys typed, an
 * int from getchar(), only under 0-9/A-Z/a-z range tests.  A guard on
 * an int is judged on sets of values (an int is not a byte: `key & 0x7f`
 * would not do), the array on every use in the function.
 */
int getchar(void);
void putchar(int);
void keep(char *p);

unsigned int get_entry(void)
{
	char entry_buf[4];
	int i, len = 0, key;
	unsigned int v = 0;

	do {
		key = getchar();
		if (key == '\b') {
			if (len > 0)
				len--;
		} else if ((key >= '0' && key <= '9') ||
			   (key >= 'A' && key <= 'Z') ||
			   (key >= 'a' && key <= 'z')) {
			if (len < (int)sizeof(entry_buf)) {
				entry_buf[len++] = key;
				putchar(key);
			}
		}
	} while (key != '\r');
	for (i = 0; i < len; i++) {
		v <<= 4;
		key = entry_buf[i] | 0x20;
		v += (key > '9') ? key - 'a' + 10 : key - '0';	/* ok: CS003 */
	}
	return v;
}

/* The range lets 128..200 through. */
int wide_range(void)
{
	char buf[4];
	int key = getchar();

	if (key >= '0' && key <= 200)
		buf[0] = key;
	return buf[0] > '9';				/* expect: CS003 */
}

/* One store is not guarded. */
int one_unguarded(void)
{
	char buf[4];
	int key = getchar();

	if (key >= '0' && key <= '9')
		buf[0] = key;
	buf[1] = getchar();
	return buf[0] > '5';				/* expect: CS003 */
}

/* The array is handed on: what else writes it is not seen. */
int handed_on(void)
{
	char buf[4];
	int key = getchar();

	if (key >= '0' && key <= '9')
		buf[0] = key;
	keep(buf);
	return buf[0] > '5';				/* expect: CS003 */
}

/* The guard negated, and a constant in the else branch. */
int negated(void)
{
	char buf[2];
	int key = getchar();

	if (!(key < '0' || key > '9'))
		buf[0] = key;
	else
		buf[0] = '0';
	return buf[0] > '5';				/* ok: CS003 */
}

/* Taken the other way round, the guard lets every other int through. */
int negated_wrong(void)
{
	char buf[2];
	int key = getchar();

	if (key < '0' || key > '9')
		buf[0] = key;
	else
		buf[0] = '0';
	return buf[0] > '5';				/* expect: CS003 */
}

/* kernel/trace/trace_events_filter.c: a kmalloc()ed char buffer of
 * 0/1 flags, tested, filled and freed in one function.  Handed to
 * another pointer, or filled with a byte from elsewhere, it can hold
 * 0x80-0xff. */
void *kmalloc_array(unsigned long n, unsigned long size, int flags);
void kfree(const void *p);

int fold_inverts(const int *ops, int n)
{
	char *inverts = kmalloc_array(n, 1, 0);
	int invert = 0, sum = 0;

	if (!inverts)
		return -1;
	for (int i = 0; i < n; i++) {
		if (ops[i] == '!')
			invert = !invert;
		inverts[i] = invert;
	}
	for (int i = 0; i < n; i++)
		sum += inverts[i] > 0;			/* ok: CS003 */
	kfree(inverts);
	return sum;
}

int shared_inverts(const int *ops, int n, char **keep_it)
{
	char *inverts = kmalloc_array(n, 1, 0);

	if (!inverts)
		return -1;
	*keep_it = inverts;
	inverts[0] = ops[0] != 0;
	return inverts[0] > 0;				/* expect: CS003 */
}

int byte_inverts(const char *src, int n)
{
	char *inverts = kmalloc_array(n, 1, 0);
	int r;

	if (!inverts)
		return -1;
	inverts[0] = src[0];
	r = inverts[0] > 0;				/* expect: CS003 */
	kfree(inverts);
	return r;
}
