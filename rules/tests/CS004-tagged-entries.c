/*
 * CS004 at the reads of a tagged table: drm panels keep init tables whose
 * entries say by another member what their bytes are.  A store is read
 * back as a number only by the reads that can see its entry: under
 * `case DELAY:` of `switch (cmd->type)`, or `if (cmd->type == DELAY)`, on
 * the same pointer.  Command bytes only sent as bytes are passes; the
 * delay read by msleep() stays (150 ms is -106 when char is signed).
 */
enum kind { DCS, DELAY, NOP };

struct cmd {
	enum kind type;
	unsigned long len;
	const char *data;
};

#define DCS_CMD(...) { .type = DCS, .len = sizeof((char[]){ __VA_ARGS__ }), \
		       .data = (char[]){ __VA_ARGS__ } }
#define DELAY_CMD(...) { .type = DELAY, .len = sizeof((char[]){ __VA_ARGS__ }), \
			 .data = (char[]){ __VA_ARGS__ } }

void msleep(unsigned int ms);
int dsi_write(unsigned char c, const void *d, unsigned long n);

static const struct cmd panel_init[] = {
	DCS_CMD(0xB0, 0x05),				/* ok: CS004 {{the same bytes either way}} */
	DELAY_CMD(0x96),				/* expect: CS004 signed */
	{ .type = DCS, .len = 1, .data = (char[]){ 0xFF } },	/* ok: CS004 */
	{ 0 },
};

int panel_send(void)
{
	int err = 0;

	for (int i = 0; panel_init[i].len; i++) {
		const struct cmd *cmd = &panel_init[i];

		switch (cmd->type) {
		case NOP:
			break;
		case DELAY:
			msleep(cmd->data[0]);		/* expect: CS006 signed */
			break;
		case DCS:
			/* the rest handed on through ?: as the driver does */
			err = dsi_write(cmd->data[0], cmd->len <= 1 ? 0 : &cmd->data[1],
					cmd->len - 1);
			break;
		default:
			err = -1;
		}
	}
	return err;
}

/* The same table read by an if on the tag, positional entries. */
struct seq {
	int op;
	const char *bytes;
};

#define OP_SEND 1
#define OP_WAIT 2

static const struct seq seqs[] = {
	{ OP_SEND, (char[]){ 0x81, 0x00 } },		/* ok: CS004 */
	{ OP_WAIT, (char[]){ 0xC8 } },			/* expect: CS004 signed */
	{ 0, 0 },
};

void seq_run(void)
{
	for (const struct seq *s = seqs; s->op; s++) {
		if (s->op == OP_WAIT)
			msleep(s->bytes[0]);		/* expect: CS006 signed */
		else
			dsi_write(s->bytes[0], s->bytes + 1, 1);
	}
}

/* A case that falls through into the number read: its entries are
 * read as numbers too.  (The reads are the field's, whatever table the
 * pointer walks: each shape has its own struct here.) */
struct fcmd {
	enum kind type;
	unsigned long len;
	const char *data;
};

static const struct fcmd falls[] = {
	{ .type = DCS, .len = 1, .data = (char[]){ 0xE0 } },	/* expect: CS004 signed */
	{ .type = DELAY, .len = 1, .data = (char[]){ 0xF0 } },	/* expect: CS004 signed */
	{ 0 },
};

void falls_run(void)
{
	for (const struct fcmd *c = falls; c->len; c++) {
		switch (c->type) {
		case DCS:
			dsi_write(0, 0, 0);
			/* fall through */
		case DELAY:
			msleep(c->data[0]);		/* expect: CS006 signed */
			break;
		default:
			break;
		}
	}
}

/* Read as a number under default: every entry. */
struct dcmd {
	enum kind type;
	unsigned long len;
	const char *data;
};

static const struct dcmd deflt[] = {
	{ .type = DCS, .len = 1, .data = (char[]){ 0xD0 } },	/* expect: CS004 signed */
	{ 0 },
};

void deflt_run(void)
{
	for (const struct dcmd *c = deflt; c->len; c++) {
		switch (c->type) {
		case DELAY:
			break;
		default:
			msleep(c->data[0]);		/* expect: CS006 signed */
		}
	}
}

/* An entry no read can see, and no byte read anywhere: storage never
 * read keeps its finding, as any does. */
struct ncmd {
	int op;
	const char *data;
};

static const struct ncmd nops[] = {
	{ 1, (char[]){ 0x90 } },			/* expect: CS004 signed */
	{ 2, (char[]){ 0x91 } },			/* expect: CS004 signed */
	{ 0, 0 },
};

void nops_run(void)
{
	for (const struct ncmd *c = nops; c->op; c++)
		if (c->op == 2)
			msleep(c->data[0]);		/* expect: CS006 signed */
}
