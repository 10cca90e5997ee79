/*
 * CS004 across TUs, the calling side: the bodies that store are in
 * CS004-xtu-buffers-fill.c.  Whether their bytes are read as numbers is
 * decided by what these calls give them.
 */
int xb_mc_map(char *buf, const unsigned char *bcast, int type);
void xb_fill_number(char *out);
void xb_fill_kr(char *out);
void xb_fill_pointer(char *out);
void xb_mark_bytes(char *out);
void xb_exported(char *out);
void xb_dev_add(const unsigned char *addr);

/* igmp6_group_added(): a char array handed on as bytes. */
void xb_group_added(const unsigned char *bcast)
{
	char buf[32];

	if (xb_mc_map(buf, bcast, 1) == 0)
		xb_dev_add((const unsigned char *)buf);
}

/* ndisc_constructor(): unsigned char memory. */
void xb_neigh(unsigned char *ha, const unsigned char *bcast)
{
	xb_mc_map((char *)ha, bcast, 2);
	xb_fill_kr((char *)ha);
}

int xb_number(void)
{
	char b[4];

	xb_fill_number(b);
	return b[0] == -2;			/* expect: CS001 */
}

void (*xb_hook)(char *) = xb_fill_pointer;

void xb_pointer(unsigned char *ha)
{
	xb_fill_pointer((char *)ha);
}

void xb_mark_unsigned(unsigned char *u)
{
	xb_mark_bytes((char *)u);
}

void xb_export_user(unsigned char *u)
{
	xb_exported((char *)u);
}
