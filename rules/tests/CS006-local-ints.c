/*
 * A char written from a local int holds what every write of that int
 * can hold: kernel/trace/trace_events_filter.c fills its `inverts[]`
 * from `invert`, which is only ever 0, `!invert` or `*top & INVERT`.
 * An int that counts up, is changed through its address or as an asm
 * output, starts as a parameter or is only passed around between locals
 * can hold 0x80-0xff, and its char is still reported.
 */
extern int printk(const char *fmt, ...);
extern void take(int *p);

struct pred {
	char invert, counted, aliased, param, circular, chained, from_asm;
};

void pred_fill(struct pred *p, const int *top, int n, int a)
{
	int invert = 0, count = 0, seen = 1, x = 0, y = 0, one = 1, two, arg = a;

	if (n > 1)
		invert = !invert;
	if (n > 2)
		invert = *top & 1;
	p->invert = invert;
	for (int i = 0; i < n; i++)
		count++;
	p->counted = count;
	take(&seen);
	p->aliased = seen;
	p->param = arg;
	if (n)
		x = y;
	else
		y = x;
	p->circular = x;
	two = one;
	p->chained = two;
	{
		int v = 0;

		asm("movl $0xff, %0" : "=r"(v));
		p->from_asm = v;
	}
}

void pred_print(const struct pred *p)
{
	printk("%d %d", p->invert, p->chained);	/* ok: CS006 */
	printk("%d", p->counted);	/* expect: CS006 {{plain char 'p->counted'}} */
	printk("%d", p->aliased);	/* expect: CS006 {{plain char 'p->aliased'}} */
	printk("%d", p->param);		/* expect: CS006 {{plain char 'p->param'}} */
	printk("%d", p->from_asm);	/* expect: CS006 {{plain char 'p->from_asm'}} */
}
