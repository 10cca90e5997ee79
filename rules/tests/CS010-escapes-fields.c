/*
 * CS010 and after: a widened plain char stored into a field or a global
 * variable is followed to where this TU reads it, and judged there.
 */
typedef int s32;
struct insn { s32 rel32; int len; int kind; };
struct regs { unsigned long ip; };
int last_byte;

/* x86 kprobes' shape: a one-byte jump displacement kept in an s32,
 * added to the instruction pointer by another function. */
void prepare(struct insn *p, const void *bytes)
{
	p->rel32 = *(const char *)bytes;	/* expect: CS010 {{stored into 'p->rel32'}} */
}

void emulate_jmp(const struct insn *p, struct regs *r)
{
	r->ip += p->rel32;			/* expect: CS006 {{field 'rel32' is assigned plain char}} */
}

void remember(const char *s)
{
	last_byte = s[0];			/* expect: CS010 */
}

int at_end(void)
{
	int c = last_byte;

	return c == -1;				/* expect: CS001 unsigned {{variable 'last_byte'}} */
}

/* Read in parentheses: the load sits above them. */
unsigned long jump_target(const struct insn *p, unsigned long ip)
{
	return ip + (p->rel32);			/* expect: CS006 {{field 'rel32' is assigned plain char}} */
}

/* Compared with an ASCII constant: the same for every byte. */
int is_short_jump(const struct insn *p)
{
	return p->rel32 == 'j';			/* ok: CS001 */
}

/* Masked on the way in: the field holds 0..255 either way. */
void store_masked(struct insn *p, const char *s)
{
	p->len = s[0] & 0xff;			/* ok: CS010 */
}

int len_unknown(const struct insn *p)
{
	return p->len == -1;			/* ok: CS001 */
}

/* Another field of the same struct is not the one stored. */
int kind_negative(const struct insn *p)
{
	return p->kind < 0;			/* ok: CS002 */
}

/* kprobes' real shape: rel32 is set from an s8 on one path and from an
 * s32 on another, so a read of it holds no char of its own: the
 * store's CS010 note stays, the reads are not the char. */
struct insn_any { s32 rel32; };

void prepare_any(struct insn_any *p, const void *bytes, int size)
{
	if (size == 1)
		p->rel32 = *(const char *)bytes;	/* expect: CS010 {{stored into 'p->rel32'}} */
	else
		p->rel32 = *(const s32 *)bytes;
}

void emulate_any(const struct insn_any *p, struct regs *r)
{
	r->ip += p->rel32;			/* ok: CS006 */
}
