/* What cache.c (reading) and cache-store.c (writing) share of an entry. */
#ifndef CHARSCAN_ENTRY_H
#define CHARSCAN_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#define MAGIC		"CSCACHE\n"
#define MAGIC_LEN	8
#define SHA_LEN		32
#define HEX_LEN		(2 * SHA_LEN)
#define NONE		UINT32_MAX	/* no includer: the source file */

/* An entry's lists: libclang's -v report, the files read with their
 * SHA-256 in hex, and who included whom. */
struct lists {
	char *verbose;
	char **dep, **hex;
	uint32_t ndeps;
	char **edge_dep, **edge_inc;	/* dep's strings; edge_inc NULL: none */
	uint32_t *edge_readings;	/* shadow_readings() of each edge */
	uint32_t nedges;
};

void lists_free(struct lists *l);
/* Which charscan and which libclang: an entry of another is not read. */
const char *entry_version(void);
void entry_hex(const unsigned char *md, char *hex);
/* The entry's closing SHA-256: of its bytes and of the key it is stored
 * under, so that an entry copied under another TU's key is no entry. */
void entry_seal(const void *data, size_t len, const char *key, unsigned char *md);
char *entry_path(const char *dir, const char *key);
/* strcmp of the strings that two pointers point to (first members). */
int entry_by_path(const void *a, const void *b);

#endif
