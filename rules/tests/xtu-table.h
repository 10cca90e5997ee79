/* A struct a header defines: read in every file that includes it
 * (CS004-xtu-fields-store.c, CS004-xtu-fields-read.c). */
struct xf_table {
	char sig[4];
	char checksum;
	unsigned short length;
	char level;
	char name[8];
};

struct xf_other {
	char tag[4];
};

unsigned char xf_sum(const unsigned char *p, int n);
char *strcpy(char *d, const char *s);
