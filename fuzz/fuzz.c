/* The harnesses' shared helpers (fuzz.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "core/core.h"

char *fuzz_string(const uint8_t *data, size_t size)
{
	return xstrndup((const char *)data, size);
}

static char dir[64];
static const char *names[8];

static void cleanup(void)
{
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(*names) && names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static const char *scratch(const char *name)
{
	size_t i;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/charscan-fuzz.XXXXXX");
		if (!mkdtemp(dir))
			die("cannot make a scratch folder");
		atexit(cleanup);
	}
	for (i = 0; i < sizeof(names) / sizeof(*names) && names[i]; i++)
		if (!strcmp(names[i], name))
			return dir;
	if (i == sizeof(names) / sizeof(*names))
		die("more scratch files than fuzz.c keeps");
	names[i] = name;
	return dir;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch(name), name);
	if (!(f = fopen(path, "w")) || fwrite(data, 1, size, f) != size || fclose(f))
		die("cannot write %s", path);
	return path;
}

char *fuzz_quote_words(char **argv, char q, const char *in_q, char sep)
{
	size_t len = 1, esc = in_q ? strlen(in_q) : 2;
	char *out, *o;

	for (char **a = argv; *a; a++)
		len += strlen(*a) * (esc > 2 ? esc : 2) + 3;
	o = out = xmalloc(len);
	for (char **a = argv; *a; a++) {
		*o++ = q;
		for (const char *c = *a; *c; c++) {
			if (*c == q && in_q) {
				memcpy(o, in_q, esc);
				o += esc;
				continue;
			}
			if (!in_q && (*c == q || *c == '\\'))
				*o++ = '\\';
			*o++ = *c;
		}
		*o++ = q;
		*o++ = sep;
	}
	*o = '\0';
	return out;
}
