/*
 * CS008 char-mixed-signedness: plain char compared with an explicitly
 * signed or unsigned char.
 */
typedef unsigned char u8;
typedef signed char s8;

int mixed(char c, u8 b, s8 s, const char *p, const u8 *q)
{
	int r = 0;

	r += c == b;			/* expect: CS008 */
	r += c != s;			/* expect: CS008 */
	r += *p == *q;			/* expect: CS008 */
	r += b < c;			/* expect: CS008 */
	r += (u8)c == b;		/* ok: CS008 */
	r += b == s;			/* ok: CS008 */
	r += *p == p[1];		/* ok: CS008 */
	return r;
}
