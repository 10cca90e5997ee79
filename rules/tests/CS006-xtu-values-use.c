/*
 * The calls of CS006-xtu-values-def.c's functions: constants in 0..127
 * for xv_find_saved_cap(), a byte of a buffer for xv_mixed().
 */
unsigned int xv_find_saved_cap(char cap);
unsigned int xv_mixed(char cap);

unsigned int xv_quirk(const char *buf)
{
	return xv_find_saved_cap(0x07) + xv_mixed(0x07) + xv_mixed(buf[0]);
}
