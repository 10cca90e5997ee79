/*
 * CS005 char-index: a plain char as array index or pointer offset.
 */
typedef char name_t;

#define LOOKUP(tbl, c) ((tbl)[c])

extern const int map[256];

int lookups(char c, name_t n, const char *p, const unsigned char *u)
{
	int r = 0;

	r += map[c];			/* expect: CS005 */
	r += map[n];			/* expect: CS005 */
	r += LOOKUP(map, *p);		/* expect: CS005 */
	r += *(map + c);		/* expect: CS005 */
	r += map[(unsigned char)c];	/* ok: CS005 */
	r += map[*u];			/* ok: CS005 */
	r += map[c & 0x7f];		/* ok: CS005 */
	return r;
}

/* CERT STR34-C: a cast to unsigned int sign-extends first. */
extern const char table[256];

long first_not_in_table(const char *c_str)
{
	for (const char *s = c_str; *s; ++s)
		if (table[(unsigned int)*s] != *s)	/* expect: CS005 signed {{0xffffff80 for byte 0x80}} */
			return s - c_str;
	return -1;
}
