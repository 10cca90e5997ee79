/*
 * The writes of CS003-field-origins.c's fields and globals, in another
 * TU: what they store decides the reads there.
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

extern void *kzalloc(unsigned long size, unsigned flags);
extern unsigned long copy_from_user(void *to, const void *from, unsigned long n);

extern char fo_global_ok, fo_global_bad;
extern void fo_lend(char *p);

static struct fo_dev fo_default = { .level = 4, .flag = 1 };
static struct fo_dev fo_other = { 1, 0, 0, 2, 0, 0 };
struct fo_dev fo_designated = { .inited = 'a' };

/* usb_endpoint_num(): a helper of this TU that returns 0..15. */
static inline int fo_endpoint_num(const unsigned char *desc)
{
	return desc[2] & 0x0f;
}

/* scsi_scan.c's scsi_level: masked to 0..7, then one step up. */
void fo_probe(struct fo_dev *d, const unsigned char *inq, const char *buf, int a, int b)
{
	d->epnum = fo_endpoint_num(inq);
	if (a >= '0' && a <= '9')
		d->keyed = a;
	d->level = inq[2] & 0x07;
	if (d->level >= 2 || d->level == 1)
		d->level++;
	d->flag = a || b;
	d->raw = buf[3];
	d->copied = d->level;
	d->looped = 0;
	for (int i = 0; i < a; i++)
		d->looped++;
	fo_lend(&d->lent);
	fo_global_ok = 'x';
	fo_global_bad = buf[0];
}

/* An on-disk record: its bytes are the disk's. */
struct fo_disk *fo_block(char *block)
{
	return (struct fo_disk *)(block + 16);
}

struct fo_dev *fo_defaults(int which)
{
	return which ? &fo_default : &fo_other;
}

struct fo_timer *fo_timer_new(void)
{
	struct fo_timer *t = kzalloc(sizeof(*t), 0);

	return t;
}

int fo_serial_set(const void *user)
{
	struct fo_serial s;

	return copy_from_user(&s, user, sizeof(s)) ? -1 : 0;
}

/* Const tables: their initializer is every write (route.c's
 * ip_tos2prio[], 0..6, read through rt_tos2priority() elsewhere). */
const unsigned char fo_tos2prio[16] = { 0, 1, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4 };
const unsigned char fo_marks[2] = { 1, 0x90 };
/* EXPORT_SYMBOL(ip_tos2prio) takes the table's address for the module
 * linker: nothing may write const memory through it. */
const void *const fo_export_tos2prio = &fo_tos2prio;

union fo_word {
	unsigned int word;
	char low;
};

struct fo_mixed {
	char a, b;
};

void fo_union_set(union fo_word *u, unsigned int w)
{
	u->low = 1;
	u->word = w;
}

/* 0x90 goes to b, the field after a: counted from the list's start it
 * would go nowhere, and b would look written 1 only. */
struct fo_mixed fo_mixed_one = { .b = 1, .a = 2, 0x90 };	/* expect: CS004 */
