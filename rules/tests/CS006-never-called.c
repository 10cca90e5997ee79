/*
 * CS006 in static functions nothing refers to: the compiler makes no
 * code of them and nothing runs them.  kernel/trace/trace_export.c
 * defines one per trace event, __always_unused, only so that the
 * compiler checks the event's format against its arguments.
 */
extern int printk(const char *fmt, ...);

#define __always_unused __attribute__((__unused__))

struct raw_data_entry {
	unsigned int id;
	char buf[8];
};

#define FORMAT_CHECK(name, fmt, args...)				\
static void __always_unused check_##name(void)				\
{									\
	struct raw_data_entry *__entry = 0;				\
									\
	printk(fmt, args);						\
}

FORMAT_CHECK(raw_data, "id:%04x %08x",
	     __entry->id, (int)__entry->buf[0])	/* ok: CS006 {{nothing in this file calls or refers to}} */

/* Referred to from a table: it runs. */
static int hash_step(const char *s)
{
	return s[0] << 5;			/* expect: CS006 signed */
}

int (*const hashers[])(const char *) = { hash_step };

/* Called: it runs. */
static int shift_in(const char *s)
{
	return s[0] << 3;			/* expect: CS006 signed */
}

int hash_two(const char *s)
{
	return shift_in(s) ^ shift_in(s + 1);
}

/* Referred to by a pasted name (the kernel's DEVICE_ATTR_RO(io_type)
 * names io_type_show): it runs. */
struct attribute { int (*show)(const char *buf); };
#define ATTR_RO(name) const struct attribute attr_##name = { .show = name##_show }

static int level_show(const char *buf)
{
	return buf[0] << 4;			/* expect: CS006 signed */
}

ATTR_RO(level);
