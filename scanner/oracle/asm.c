/*
 * Reading clang's assembly for the codegen oracle.  Two compiles of one
 * TU that differ only in -fsigned-char / -funsigned-char must compare
 * equal wherever their behaviour is equal, so each instruction is
 * normalised before it is hashed: what is layout and allocation, not
 * behaviour, is spelled the same in both.
 *  - local labels (.LBB0_3, .Ltmp12, .LCPI0_0, .L.str.4) become ".L#":
 *    one block or string more renumbers all after it, and where a jump
 *    lands is block layout (the compare before it keeps its constant);
 *  - general registers become their width (%eax -> %r32), and stack
 *    slots (16(%rsp)) lose their offset: a different register or slot is
 *    allocation noise, while sign- versus zero-extension, a constant or a
 *    condition code keeps its own spelling.  (%rbp is a general register
 *    in the kernel's -fomit-frame-pointer code: 350(%rbp) is a field.)
 * Comments and directives are dropped; inline assembly (#APP) counts as
 * instructions.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "core/core.h"

static const struct reg_width {
	const char *width;
	const char *names[20];		/* NULL-terminated */
} reg_widths[] = {
	{ "%r64", { "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10",
		    "r11", "r12", "r13", "r14", "r15" } },
	{ "%r32", { "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "r8d", "r9d", "r10d",
		    "r11d", "r12d", "r13d", "r14d", "r15d" } },
	{ "%r16", { "ax", "bx", "cx", "dx", "si", "di", "bp", "r8w", "r9w", "r10w",
		    "r11w", "r12w", "r13w", "r14w", "r15w" } },
	{ "%r8", { "al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "bpl",
		   "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" } },
};

static const char *reg_width(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(reg_widths) / sizeof(reg_widths[0]); i++)
		for (const char *const *r = reg_widths[i].names; *r; r++)
			if (strlen(*r) == n && !memcmp(*r, name, n))
				return reg_widths[i].width;
	return NULL;
}

static int ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/* A stack slot's displacement: "16" of 16(%rsp)? */
static int stack_offset(const char *s, const char *end, const char **after)
{
	const char *t = s + (*s == '-');

	if (t == end || !isdigit((unsigned char)*t))
		return 0;
	while (t < end && isdigit((unsigned char)*t))
		t++;
	if (end - t < 6 || (memcmp(t, "(%rsp", 5) && memcmp(t, "(%esp", 5)))
		return 0;
	*after = t;
	return 1;
}

/* s[0..n) as the diff sees it: white space folded, comment dropped. */
static char *normalise(const char *s, size_t n)
{
	char *out = xmalloc(2 * n + 16), *o = out;
	const char *end = s + n;
	int space = 0;

	while (s < end && *s != '#') {
		if (isspace((unsigned char)*s)) {
			space = o > out;
			s++;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = 0;
		if (s[0] == '.' && s + 1 < end && s[1] == 'L') {
			const char *t = s + 2;

			while (t < end && ident_char((unsigned char)*t))
				t++;
			o = stpcpy(o, ".L#");
			s = t;
		} else if ((s[0] == '-' || isdigit((unsigned char)s[0])) &&
			   (o == out || !ident_char((unsigned char)o[-1])) &&
			   stack_offset(s, end, &s)) {
			*o++ = '#';
		} else if (s[0] == '%') {
			const char *t = s + 1, *w;

			while (t < end && isalnum((unsigned char)*t))
				t++;
			w = reg_width(s + 1, t - s - 1);
			if (w) {
				o = stpcpy(o, w);
				s = t;
			} else {
				while (s < t)
					*o++ = *s++;
			}
		} else if (*s == '$') {		/* an immediate: $.L.str.4 too */
			*o++ = *s++;
		} else if (ident_char((unsigned char)*s)) {
			/* A whole word, so that "a.Lx" or "x%y" inside one is kept. */
			while (s < end && ident_char((unsigned char)*s) && *s != '%')
				*o++ = *s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* A quoted assembler string at s: its bytes, escapes undone. */
static char *asm_string(const char **sp)
{
	const char *s = *sp + 1;
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s && *s != '"' && *s != '\n') {
		if (*s == '\\' && s[1] >= '0' && s[1] <= '7') {
			int v = 0, k = 0;

			for (s++; k < 3 && *s >= '0' && *s <= '7'; k++, s++)
				v = v * 8 + (*s - '0');
			*o++ = (char)v;
			continue;
		}
		if (*s == '\\' && s[1])
			s++;
		*o++ = *s++;
	}
	*o = '\0';
	*sp = *s == '"' ? s + 1 : s;
	return out;
}

/* .file N "name"  or  .file N "dir" "name" [md5 ...] */
static void file_directive(struct asm_unit *u, const char *s, const char *dir)
{
	char *end, *a, *b = NULL, *path;
	unsigned long n = strtoul(s, &end, 10);

	if (end == s || n > 100000)
		return;
	s = end;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '"')
		return;
	a = asm_string(&s);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '"')
		b = asm_string(&s);
	if (b) {
		path = join_path(a, b);
		free(a);
		free(b);
	} else {
		path = a;
	}
	a = join_path(dir, path);
	free(path);
	if (n >= u->nfiles) {
		u->files = xrealloc(u->files, (n + 1) * sizeof(*u->files));
		memset(u->files + u->nfiles, 0, (n + 1 - u->nfiles) * sizeof(*u->files));
		u->nfiles = n + 1;
	}
	free(u->files[n]);
	u->files[n] = clean_path(a);
}

struct reader {
	struct asm_unit *u;
	const char *dir;
	char *pending;			/* .type NAME,@function seen */
	struct asm_func *fn;		/* being read, or NULL */
	unsigned file, line;		/* of the last .loc */
};

static void start_function(struct reader *r, const char *name, size_t n)
{
	struct asm_unit *u = r->u;

	grow(&u->fn, &u->capfn, u->nfn + 1, sizeof(*u->fn));
	r->fn = &u->fn[u->nfn++];
	memset(r->fn, 0, sizeof(*r->fn));
	r->fn->name = xstrndup(name, n);
	r->file = NO_FILE;
	r->line = 0;
}

static void add_insn(struct reader *r, const char *s, size_t n)
{
	struct asm_func *fn = r->fn;
	struct insn *in;

	grow(&fn->v, &fn->cap, fn->len + 1, sizeof(*fn->v));
	in = &fn->v[fn->len++];
	in->text = normalise(s, n);
	in->hash = fnv1a(in->text, strlen(in->text));
	in->file = r->file;
	in->line = r->line;
}

static int starts(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (s[n] == ' ' || s[n] == '\t');
}

static void directive(struct reader *r, const char *s, size_t n)
{
	if (starts(s, ".file")) {
		file_directive(r->u, s + 6, r->dir);
	} else if (starts(s, ".loc") && r->fn) {
		char *end;

		r->file = (unsigned)strtoul(s + 5, &end, 10);
		r->line = (unsigned)strtoul(end, NULL, 10);
	} else if (starts(s, ".type")) {
		const char *name = s + 6, *comma = memchr(s, ',', n);

		while (*name == ' ' || *name == '\t')
			name++;
		if (comma && strstr(comma, "@function")) {
			free(r->pending);
			r->pending = xstrndup(name, comma - name);
		}
	} else if (starts(s, ".size") && r->fn) {
		r->fn = NULL;
	}
}

static void read_line(struct reader *r, const char *s, size_t n)
{
	const char *colon;

	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (!n || *s == '#')
		return;
	/* "label:" (maybe followed by an instruction, in inline asm) */
	colon = memchr(s, ':', n);
	if (colon && colon > s && !memchr(s, ' ', colon - s) && !memchr(s, '\t', colon - s) &&
	    !memchr(s, '"', colon - s)) {
		size_t len = colon - s;

		if (r->pending && strlen(r->pending) == len && !memcmp(s, r->pending, len)) {
			start_function(r, s, len);
			free(r->pending);
			r->pending = NULL;
		} else if (r->fn && len > 10 && !strncmp(s, ".Lfunc_end", 10)) {
			r->fn = NULL;
		}
		n -= colon + 1 - s;
		s = colon + 1;
		read_line(r, s, n);
		return;
	}
	if (*s == '.') {
		directive(r, s, n);
		return;
	}
	if (r->fn)
		add_insn(r, s, n);
}

void asm_parse(const char *buf, const char *dir, struct asm_unit *u)
{
	struct reader r = { .u = u, .dir = dir, .file = NO_FILE };

	memset(u, 0, sizeof(*u));
	while (*buf) {
		const char *nl = strchr(buf, '\n');
		size_t n = nl ? (size_t)(nl - buf) : strlen(buf);

		read_line(&r, buf, n);
		buf += n + (nl != NULL);
	}
	free(r.pending);
}

const struct asm_func *asm_find(const struct asm_unit *u, const char *name)
{
	for (size_t i = 0; i < u->nfn; i++)
		if (!strcmp(u->fn[i].name, name))
			return &u->fn[i];
	return NULL;
}

void asm_free(struct asm_unit *u)
{
	for (size_t i = 0; i < u->nfiles; i++)
		free(u->files[i]);
	free(u->files);
	for (size_t i = 0; i < u->nfn; i++) {
		for (size_t k = 0; k < u->fn[i].len; k++)
			free(u->fn[i].v[k].text);
		free(u->fn[i].v);
		free(u->fn[i].name);
	}
	free(u->fn);
	memset(u, 0, sizeof(*u));
}
