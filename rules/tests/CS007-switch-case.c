/*
 * CS007 char-switch-case: case labels a plain char reaches under one
 * signedness only.
 */
#define MARK 0xfe

int kind(char c)
{
	switch (c) {
	case -1:		/* expect: CS007 unsigned {{never matches}} */
		return 1;
	case 0xff:		/* expect: CS007 */
		return 2;
	case MARK:		/* expect: CS007 */
		return 3;
	case 'a':		/* ok: CS007 */
		return 4;
	case '\x80':		/* ok: CS007 */
		return 5;
	}
	switch ((unsigned char)c) {
	case 0xff:		/* ok: CS007 */
		return 6;
	}
	return 0;
}

/* GNU case ranges are judged as a whole: bytes 0x80-0xff reach the
 * upper part of 'a' ... 0xa0 only when char is unsigned; a range of
 * character literals follows char's signedness. */
int range_class(char c)
{
	switch (c) {
	case '0' ... '9':			/* ok: CS007 */
		return 1;
	case 'a' ... 0xa0:			/* expect: CS007 signed {{never reach case 97 ... 160}} */
		return 2;
	case '\xc0' ... '\xcf':			/* ok: CS007 */
		return 3;
	default:
		return 0;
	}
}
