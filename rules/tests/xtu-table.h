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

/* nfs4_stateid's shape: the bytes as one array, or a number and an
 * array over them; every plain char member reads the same bytes. */
struct xf_stateid {
	union {
		char data[16];
		struct {
			unsigned int seqid;
			char other[12];
		};
	};
	int type;
};

struct xf_pair {
	union {
		char raw[2];
		struct {
			char lo;
			char hi;
		};
	};
};

unsigned char xf_sum(const unsigned char *p, int n);
/* A union with a struct of its own among its members: that struct's
 * fields read the union's bytes under keys of their own. */
struct xf_in {
	char x[2];
};

struct xf_boxed {
	union {
		struct xf_in in;
		char raw[2];
	};
};

/* Two anonymous unions: each its own bytes. */
struct xf_two {
	union {
		char a[2];
		int i;
	};
	union {
		char b[2];
		int j;
	};
};

typedef struct {
	union {
		char data[4];
		unsigned int n;
	};
} xf_id_t;

char *strcpy(char *d, const char *s);
void *memcpy(void *d, const void *s, unsigned long n);
int memcmp(const void *a, const void *b, unsigned long n);
