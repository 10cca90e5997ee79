/*
 * A char parameter of a function other TUs call: what every call in the
 * scan passes decides it (CS006-xtu-values-use.c calls these).
 * drivers/pci/pci.c's pci_find_saved_cap(dev, char cap), called with
 * PCI_CAP_ID_EXP (0x10) and PCI_CAP_ID_PCIX (0x07) only, here and in
 * quirks.c.  A function called only from its own file is not judged by
 * its calls: the scan may hold just it and a test of it.
 */
unsigned int xv_find(unsigned short cap);

unsigned int xv_find_saved_cap(char cap)
{
	return xv_find(cap);			/* ok: CS006 {{every call of xv_find_saved_cap() the scan sees (in 2 TUs)}} */
}

unsigned int xv_mixed(char cap)
{
	return xv_find(cap);			/* expect: CS006 */
}

unsigned int xv_own_file_only(char cap)
{
	return xv_find(cap);			/* expect: CS006 */
}

unsigned int xv_probe(void)
{
	return xv_find_saved_cap(0x10) + xv_own_file_only('a');
}
