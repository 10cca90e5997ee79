/*
 * String literal spellings (core/literal.c): any bytes, no crash and no
 * read past the end; and any bytes written as a literal, once with octal
 * escapes split over two adjacent literals and once with hex escapes,
 * are judged ASCII exactly when every byte is below 0x80.
 */
#include <string.h>
#include "fuzz.h"
#include "core/core.h"

static int all_ascii(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (data[i] > 127)
			return 0;
	return 1;
}

/* data as "\ooo..." "\ooo..." (cut in two), or as u8"\xHH...". */
static char *spelled(const uint8_t *data, size_t size, int hex)
{
	char *s = xmalloc(size * 4 + 16), *p = s;

	p += sprintf(p, hex ? "u8\"" : "\"");
	for (size_t i = 0; i < size; i++) {
		if (!hex && i == size / 2)
			p += sprintf(p, "\" \t\"");
		p += sprintf(p, hex ? "\\x%02x" : "\\%03o", data[i]);
	}
	strcpy(p, "\"");
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *oct, *hex;

	(void)literal_is_ascii(text);
	oct = spelled(data, size, 0);
	hex = spelled(data, size, 1);
	fuzz_assert(literal_is_ascii(oct) == all_ascii(data, size));
	fuzz_assert(literal_is_ascii(hex) == all_ascii(data, size));
	free(text);
	free(oct);
	free(hex);
	return 0;
}
