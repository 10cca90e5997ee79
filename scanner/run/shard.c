/*
 * A TU's shard depends on its own path only (relative to the source
 * root, so two checkouts in different folders shard alike): adding or
 * removing files moves no other TU.  Jump consistent hashing (Lamping
 * and Veach, 2014) over a SHA-256 of the path: going from N shards to
 * N+1 moves only a 1/(N+1) share of the TUs, each to the new shard,
 * so a cluster can grow without re-scanning most shards' work.
 */
#include <stdint.h>
#include <string.h>
#include <openssl/evp.h>
#include "core/core.h"
#include "shard.h"

static uint64_t path_key(const char *relpath)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len;
	uint64_t key = 0;

	EVP_Digest(relpath, strlen(relpath), md, &len, EVP_sha256(), NULL);
	for (int i = 0; i < 8; i++)
		key = key << 8 | md[i];
	return key;
}

static unsigned jump_hash(uint64_t key, unsigned n)
{
	int64_t b = -1, j = 0;

	while (j < (int64_t)n) {
		b = j;
		key = key * 2862933555777941757ULL + 1;
		j = (int64_t)((double)(b + 1) * ((double)(1LL << 31) / (double)((key >> 33) + 1)));
	}
	return (unsigned)b;
}

unsigned shard_of(const char *relpath, unsigned n)
{
	return jump_hash(path_key(relpath), n);
}

struct shard {
	unsigned k, n;
	const char *srcroot;
};

static int in_shard(const struct tu *tu, void *arg)
{
	const struct shard *s = arg;

	return shard_of(relative_path(tu->file, s->srcroot), s->n) == s->k - 1;
}

void shard_select(struct compdb *db, unsigned k, unsigned n, const char *srcroot)
{
	struct shard s = { k, n, srcroot };

	compdb_filter(db, in_shard, &s);
}
