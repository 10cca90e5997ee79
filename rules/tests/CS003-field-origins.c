/*
 * A value read from a plain char field or global is judged by what is
 * stored there: every write the scan sees, in every TU (the writes are
 * in CS003-field-origins-writes.c).  When each stores 0..127 (a
 * constant, a masked value, a boolean, a copy of another such field, a
 * bounded step after one) the read is the same either way: a pass.  A
 * byte from a buffer, a step in a loop, the field's address handed out,
 * the struct read from raw bytes, or no write seen at all keep it.
 */
struct fo_dev {
	char level, flag, raw, copied, looped, lent, unwritten, inited, epnum, keyed;
};

struct fo_disk {
	char kind;
};

struct fo_timer {
	char running;
};

struct fo_serial {
	char io_type;
};

char fo_global_ok = 3;
char fo_global_bad;

int fo_level_ge(const struct fo_dev *d)
{
	return d->level >= 2;
}

int fo_flag(const struct fo_dev *d)
{
	return d->flag < 1;
}

int fo_copied(const struct fo_dev *d)
{
	char c = d->copied;

	return c > 5;
}

int fo_inited(const struct fo_dev *d)
{
	return d->inited > 5;
}

int fo_global_read(void)
{
	return fo_global_ok > 5;
}

int fo_raw(const struct fo_dev *d)
{
	return d->raw > 5;			/* expect: CS003 {{'d->raw > 5'}} */
}

int fo_looped(const struct fo_dev *d)
{
	return d->looped > 5;			/* expect: CS003 {{'d->looped > 5'}} */
}

int fo_lent(const struct fo_dev *d)
{
	return d->lent > 5;			/* expect: CS003 {{'d->lent > 5'}} */
}

int fo_unwritten(const struct fo_dev *d)
{
	return d->unwritten > 5;		/* expect: CS003 {{'d->unwritten > 5'}} */
}

int fo_disk_kind(const struct fo_disk *k)
{
	return k->kind > 5;			/* expect: CS003 {{'k->kind > 5'}} */
}

int fo_global_bad_read(void)
{
	return fo_global_bad > 5;		/* expect: CS003 {{'fo_global_bad > 5'}} */
}

/* igmp.c's tm_running where only kzalloc() writes it: 0. */
int fo_timer_running(const struct fo_timer *t)
{
	return t->running > 5;
}

/* serial_core.c's io_type: the struct comes from user space. */
int fo_serial_type(const struct fo_serial *s)
{
	return s->io_type > 5;			/* expect: CS003 {{'s->io_type > 5'}} */ /* confidence: high {{filled from user space at CS003-field-origins-writes.c:}} */
}

extern const unsigned char fo_tos2prio[16];
extern const unsigned char fo_marks[2];

static inline char fo_tos_priority(unsigned char tos)
{
	return fo_tos2prio[(tos & 0x1e) >> 1];
}

static inline char fo_mark(int i)
{
	return fo_marks[i & 1];
}

struct fo_cork {
	char priority;
};

int fo_priority_high(unsigned char tos)
{
	return fo_tos_priority(tos) > 5;
}

void fo_cork_set(struct fo_cork *c, unsigned char tos)
{
	c->priority = fo_tos_priority(tos);
}

int fo_cork_high(const struct fo_cork *c)
{
	return c->priority > 5;
}

int fo_mark_high(int i)
{
	return fo_mark(i) > 5;			/* expect: CS003 {{'fo_mark(i) > 5'}} */ /* confidence: high {{'fo_marks', which fo_mark() returns: written byte 0x90 at CS003-field-origins-writes.c:}} */
}

/* A union's member is written by every write of the others. */
union fo_word {
	unsigned int word;
	char low;
};

int fo_union_low(const union fo_word *u)
{
	return u->low > 5;			/* expect: CS003 {{'u->low > 5'}} */
}

/* { .a = 1, 2 }: the struct is taken as unknown. */
struct fo_mixed {
	char a, b;
};

int fo_mixed_b(const struct fo_mixed *m)
{
	return m->b > 5;			/* expect: CS003 {{'m->b > 5'}} */
}

/* Written from a helper that masks, and from an int behind a range test. */
int fo_epnum(const struct fo_dev *d)
{
	return d->epnum > 7;			/* ok: CS003 */
}

int fo_keyed(const struct fo_dev *d)
{
	return d->keyed > '5';			/* ok: CS003 */
}
