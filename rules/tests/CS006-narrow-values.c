/*
 * A char field written only values that an operator or a type keeps in
 * 0..127 holds no byte 0x80-0xff, whatever went in: the kernel's trace
 * events copy 1-bit bit-fields (writeback.h's `unsigned for_kupdate:1`,
 * jbd2's `t_synchronous_commit:1`), truth values and ext4_es_status()'s
 * `es_pblk >> ES_SHIFT` (5 bits of 64) into char fields that TP_printk
 * prints with %d; drivers/pci/vc.c's `1 << ((cap1 & 0xc00) >> 10)` is
 * 1, 2, 4 or 8.  A signed bit-field, an 8-bit one, a shift that leaves
 * 8 bits or works on a signed value can hold 0x80-0xff, as can a value
 * cast to a signed type first ((signed char)(a & 0xff) >> 4 is -8..7)
 * or shifted by the whole width (undefined; x86 masks the count): still
 * reported.
 */
typedef unsigned long long u64;

extern int printk(const char *fmt, ...);

struct wbc {
	unsigned for_kupdate:1;
	unsigned range_cyclic:1;
	unsigned sync_mode:7;
	unsigned wide:8;
	int tristate:2;
	_Bool done;
};

struct extent {
	u64 pblk;
	long long spblk;
};

/* ext4_es_status(): the top 5 bits of a u64 */
static inline unsigned int es_status(const struct extent *es)
{
	return es->pblk >> 59;
}

static inline unsigned int es_status8(const struct extent *es)
{
	return es->pblk >> 56;
}

struct trace_entry {
	char for_kupdate, range_cyclic, sync_mode, done, not_equal, negated, status;
	char wide, tristate, status8, sstatus, arb, arb_wide, nibble, nibble_u, huge;
};

void trace_assign(struct trace_entry *e, const struct wbc *wbc, const struct extent *es, int a, int b)
{
	e->arb = 1 << ((a & 0xc00) >> 10);
	e->nibble = (signed char)(a & 0xff) >> 4;
	e->nibble_u = (unsigned char)(a & 0x1ff) >> 4;
	e->huge = es->pblk >> 64;
	e->arb_wide = 1 << ((a & 0x7000) >> 12);
	e->for_kupdate = wbc->for_kupdate;
	e->range_cyclic = wbc->range_cyclic;
	e->sync_mode = wbc->sync_mode;
	e->done = wbc->done;
	e->not_equal = a != b;
	e->negated = !a;
	e->status = es_status(es);
	e->wide = wbc->wide;
	e->tristate = wbc->tristate;
	e->status8 = es_status8(es);
	e->sstatus = es->spblk >> 59;
}

void trace_print(const struct trace_entry *e)
{
	printk("%d %d %d", e->for_kupdate, e->range_cyclic, e->sync_mode);	/* ok: CS006 */
	printk("%d %d %d", e->done, e->not_equal, e->negated);			/* ok: CS006 */
	printk("%d", e->status);						/* ok: CS006 */
	printk("%d", e->wide);			/* expect: CS006 {{plain char 'e->wide'}} */
	printk("%d", e->tristate);		/* expect: CS006 {{plain char 'e->tristate'}} */
	printk("%d", e->status8);		/* expect: CS006 {{plain char 'e->status8'}} */
	printk("%d", e->sstatus);		/* expect: CS006 {{plain char 'e->sstatus'}} */
	printk("%d", e->arb);							/* ok: CS006 */
	printk("%d", e->nibble_u);						/* ok: CS006 */
	printk("%d", e->nibble);		/* expect: CS006 {{plain char 'e->nibble'}} */
	printk("%d", e->huge);			/* expect: CS006 {{plain char 'e->huge'}} */
	printk("%d", e->arb_wide);		/* expect: CS006 {{plain char 'e->arb_wide'}} */
}
