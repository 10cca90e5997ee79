"""charscan confirm, the codegen oracle: on code whose answer is known, on
the rule cases, on a file with no char, and with its cache."""
import collections
import json
import os
import subprocess
import time

from harness import (Env, RULE_TESTS, check, compdb, expectations, results, run, scratch, test,
                     validate, write)

# Each line's expected oracle verdict, for -O2 code whose codegen is known.
KNOWN = {
    "known.c": """\
#include "known.h"
int dead(const char *p)
{
	int j = p[0];
	return j != -1;		/* changed: -1 is unreachable when unsigned */
}
int ascii(const char *p)
{
	return p[0] == 'a';	/* unchanged: the same byte test either way */
}
char table[4] = { 1, 2, 3, 4 };
int from_header(const char *p)
{
	return widen(p);
}
""",
    "known.h": "static inline int widen(const char *p) { return p[1] >> 1; }\n",
    "nochar.c": "int triple(int x)\n{\n\treturn x * 3;\n}\n",
}


def known_tree(name):
    d = scratch(name)
    for f, text in KNOWN.items():
        with open(os.path.join(d, f), "w") as out:
            out.write(text)
    compdb(d, ["known.c", "nochar.c"], ["-O2"])
    return d


def one_file_tree(name, file, text):
    d = scratch(name)
    with open(os.path.join(d, file), "w") as f:
        f.write(text)
    compdb(d, [file], ["-O2"])
    return d


def confirm_one_file(name, file, text):
    """Scan and confirm one -O2 file: the annotated report and the
    changed lines."""
    d = one_file_tree(name, file, text)
    p, out, rows = confirm(d, scan(d))
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    return out, {int(r[1]) for r in rows}


def check_credited(result, line, what):
    props = result["properties"]
    check(props.get("codegen") == "changed" and props.get("codegenLine") == line,
          "credited to %s at line %d: %s" % (what, line, props))


def confirm(d, report, *extra, **kw):
    out = os.path.join(d, "confirmed.sarif")
    tsv = os.path.join(d, "changes.tsv")
    p = run(["confirm", "-p", d, "-o", out, "--changes", tsv, "-q"] + list(extra) + [report], **kw)
    rows = []
    if os.path.exists(tsv):
        with open(tsv) as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
    return p, out, rows


def scan(d, *extra, exits=(0, 1)):
    report = os.path.join(d, "scan.sarif")
    p = run(["-p", d, "-o", report, "--srcroot", d, "-q"] + list(extra))
    check(p.returncode in exits, "scan exit %d: %s" % (p.returncode, p.stderr))
    return report


@test
def confirm_marks_changed_lines_and_annotates_results():
    d = known_tree("confirm-known")
    p, out, rows = confirm(d, scan(d))
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    changed = {(os.path.basename(r[0]), int(r[1])) for r in rows}
    check(("known.c", 5) in changed or ("known.c", 4) in changed, "dead(): %s" % sorted(changed))
    check(("known.h", 1) in changed, "the inlined header line: %s" % sorted(changed))
    check(not any(f == "known.c" and 8 <= n <= 10 for f, n in changed), "ascii(): %s" % sorted(changed))
    check(not any(f == "nochar.c" for f, n in changed), "a file with no char: %s" % sorted(changed))
    fn = {os.path.basename(r[0]): r[2] for r in rows}
    check(fn.get("known.h") == "from_header", "function of the inlined line: %s" % fn)
    check(any("movsb" in r[3] or "movzb" in r[3] or "sar" in r[3] or "shr" in r[3] for r in rows),
          "instructions: %s" % rows)
    validate(out)
    verdicts = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
                r["properties"]["codegen"] for r in results(out)}
    check(verdicts.get(("CS001", 5)) == "changed", "CS001 at the dead test: %s" % verdicts)


HOISTED = """\
extern void use(int);
void keep(const char *p, unsigned *out, int n)
{
	char c = p[n];
	if (c == 'x')
		use(n);
	use(n + 1);
	*out = c;
}
"""


@test
def confirm_credits_an_extension_made_at_an_earlier_read():
    # The compiler extends c where it loads it (line 4) and stores the
    # register at line 8: the finding there is confirmed by line 4.
    out, changed = confirm_one_file("confirm-hoisted", "hoisted.c", HOISTED)
    check(not changed & {7, 8, 9}, "the store itself changed, nothing to credit: %s" % changed)
    res = [r for r in results(out) if r["ruleId"] == "CS006"]
    check(len(res) == 1, "one CS006: %s" % res)
    check(res[0]["properties"].get("operand") == "c", "operand: %s" % res[0]["properties"])
    check_credited(res[0], 4, "the load")
    validate(out)


STORED = """\
struct insn { int rel32; };

void prepare(struct insn *p, const unsigned char *bytes)
{
	p->rel32 = *(char *)bytes;
}

/* The field is read elsewhere: its value was extended where stored. */

unsigned long target(const struct insn *p, unsigned long ip)
{
	return ip + p->rel32;
}
"""


@test
def confirm_credits_the_line_where_the_char_was_widened():
    # The read of the field at line 12 does not change: the extension is
    # the store at line 5, the finding's related "assignment".
    out, changed = confirm_one_file("confirm-stored", "stored.c", STORED)
    check(changed == {5}, "only the store changes: %s" % changed)
    res = [r for r in results(out) if r["locations"][0]["physicalLocation"]["region"]["startLine"] == 12]
    check(len(res) == 1 and res[0]["ruleId"] == "CS006", "the read: %s" % res)
    check_credited(res[0], 5, "the store")


MOVED = """\
extern void say(const char *level, const char *fmt, ...);
extern int quiet(void);
extern void prepare(void *);

void level_say(const char *level, const char *msg)
{
	int is_error = level[1] <= '3';
	int is_debug = level[1] == '7';
	char buf[16];

	if (is_debug && quiet())
		return;
	prepare(buf);
	if (is_error)
		say(level, "error %s", msg);
	else
		say(level, "[%p] %s", buf, msg);
}
typedef unsigned short u16;
extern int find(int cap);
extern void *alloc(unsigned n);

static int add_buffer(u16 cap, int ext, unsigned n)
{
	int pos;

	if (ext)
		pos = 0;
	else
		pos = find(cap);
	if (!pos)
		return 0;
	return alloc(n) ? 0 : -12;
}

int add_cap_buffer(char cap, unsigned n)
{
	return add_buffer(cap, 0, n);
}

extern const unsigned char prio_table[16];
static inline char tos_prio(unsigned char tos)
{
	return prio_table[(tos & 0x1e) >> 1];
}

struct pkt { unsigned int priority; };
void forward(struct pkt *p, unsigned char tos, int update)
{
	if (update)
		p->priority = tos_prio(tos);
}
"""


@test
def confirm_credits_an_observation_the_compiler_moved():
    # The comparison kept in is_error is computed where it is tested
    # (line 14); cap is extended where the inlined add_buffer() reads
    # it (line 30); the char tos_prio() returns is extended in its own
    # inlined body (line 44).  The scan names the parameter and the
    # return; each result's own line has no change.
    out, changed = confirm_one_file("confirm-moved", "moved.c", MOVED)
    check(not changed & {7, 38, 51}, "the results' own lines changed: %s" % changed)
    res = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r for r in results(out)}
    check(sorted(res) == [7, 38, 51], "results: %s" % sorted(res))
    check_credited(res[7], 14, "the test of is_error")
    labels = {n: [x["message"]["text"] for x in r.get("relatedLocations", [])] for n, r in res.items()}
    check(any("parameter 'cap' of add_buffer()" in t for t in labels[38]), "parameter: %s" % labels)
    check_credited(res[38], 30, "the inlined body's read of cap")
    check(any("tos_prio() returns" in t for t in labels[51]), "return: %s" % labels)
    check_credited(res[51], 44, "the inlined return")
    validate(out)


GUARDED_INLINE = """\
extern const unsigned char ctype_tab[256];
#define isxdigit(c) ((ctype_tab[(int)(unsigned char)(c)] & 0x44) != 0)
typedef unsigned char u8;
u8 char_to_hex(int hex_char)
{
	if (hex_char <= '9')
		return (u8)(hex_char - '0');
	if (hex_char <= 'F')
		return (u8)(hex_char - 0x37);
	return (u8)(hex_char - 0x57);
}
int to_hex_byte(const char *two, u8 *ret)
{
	if (!isxdigit((int)two[0]) || !isxdigit((int)two[1]))
		return 1;
	*ret = char_to_hex(two[1]) |
	       (char_to_hex(two[0]) << 4);
	return 0;
}
"""


@test
def confirm_credits_a_pass_with_the_inlined_callee_it_explains():
    # drivers/acpi/acpica/uthex.c: both bytes are hex digits, so the
    # widening at the calls is harmless (a pass), yet the inlined
    # char_to_hex() compares by another condition code at line 6: the
    # value range the compiler knows differs.  The pass names the
    # parameter, and the oracle credits it with line 6.
    d = one_file_tree("confirm-guarded-inline", "hex.c", GUARDED_INLINE)
    report = scan(d, "--explain", exits=(0,))
    p, out, rows = confirm(d, report)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    check({int(r[1]) for r in rows} == {6}, "changed lines: %s" % rows)
    res = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r for r in results(out)}
    check(sorted(res) == [16, 17] and all(r.get("kind") == "pass" for r in res.values()),
          "two passes: %s" % res)
    for n in (16, 17):
        check_credited(res[n], 6, "the inlined comparison")
    validate(out)


IN_MACRO = """\
extern int printf(const char *fmt, ...);
#define show(fmt, ...) printf(fmt, ##__VA_ARGS__)
void dump(const char *p)
{
	show("%d %c\\n",
	     p[0], p[1]);
}
"""


@test
def results_in_a_macro_argument_carry_the_invocation_line():
    # Debug info gives an argument's code the line of the invocation:
    # the result says which line that is, and the oracle looks there.
    d = one_file_tree("confirm-macro-argument", "arg.c", IN_MACRO)
    report = scan(d, "--explain", exits=(1,))
    got = {(r["ruleId"], r.get("kind", "fail"), r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["properties"].get("expandedAtLine")) for r in results(report)}
    check(("CS006", "fail", 6, 5) in got, "the %%d argument: %s" % got)
    check(("CS006", "pass", 6, 5) in got, "the %%c argument: %s" % got)
    p, out, rows = confirm(d, report)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    changed = {int(r[1]) for r in rows}
    cg = [r["properties"].get("codegen") for r in results(out) if r.get("kind") != "pass"]
    check(cg == ["changed"], "the %%d argument, changed at line %s: %s" % (sorted(changed), cg))
    validate(out)


@test
def confirm_says_none_and_unchanged_where_there_is_no_difference():
    d = known_tree("confirm-none")
    # A report with results placed by hand: the initializer (no code) and
    # the ASCII test (code that does not change).
    report = scan(d)
    log = json.load(open(report))
    res = log["runs"][0]["results"]
    check(res, "the scan found nothing to place results on")
    template = res[0]
    placed = []
    for line in (9, 11):
        r = json.loads(json.dumps(template))
        r["locations"][0]["physicalLocation"]["region"] = {"startLine": line, "startColumn": 1}
        # Nothing that points elsewhere (an assignment that changed).
        r.pop("relatedLocations", None)
        r.pop("codeFlows", None)
        r["message"]["text"] = "placed by hand"
        placed.append(r)
    log["runs"][0]["results"] = placed
    with open(report, "w") as f:
        json.dump(log, f)
    p, out, rows = confirm(d, report)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    got = [r["properties"]["codegen"] for r in results(out)]
    check(got == ["unchanged", "none"], "verdicts %s" % got)


@test
def confirm_on_the_rule_cases_confirms_the_code_rules():
    d = scratch("confirm-rules")
    files = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))
    db = compdb(RULE_TESTS, files, ["-O2"], path=os.path.join(d, "compile_commands.json"))
    report = os.path.join(d, "scan.sarif")
    run(["-p", db, "-o", report, "--srcroot", RULE_TESTS, "-q"])
    p, out, rows = confirm(d, report, "-j", "2")
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    res = results(out)
    check(all(r["properties"]["codegen"] in ("changed", "unchanged", "none") for r in res), "verdicts")
    by_rule = {}
    for r in res:
        by_rule.setdefault(r["ruleId"], []).append(r["properties"]["codegen"])
    # Sign tests and dead comparisons are folded to different code.
    for rule in ("CS001", "CS002"):
        check(by_rule.get(rule) and by_rule[rule].count("changed") * 2 > len(by_rule[rule]),
              "%s: %s" % (rule, by_rule.get(rule)))


@test
def confirm_cache_is_reused_and_goes_stale_with_a_header():
    d = known_tree("confirm-cache")
    report = scan(d)
    cache = os.path.join(d, "cache")
    p1, out1, rows1 = confirm(d, report, "--cache", cache)
    check(p1.returncode == 0 and len(os.listdir(cache)) == 2, "cache entries: %s" % os.listdir(cache))
    p2, out2, rows2 = confirm(d, report, "--cache", cache)
    check(rows2 == rows1, "cached answer differs")
    # A corrupt entry is not used: it is recomputed.
    victim = os.path.join(cache, sorted(os.listdir(cache))[0])
    with open(victim, "w") as f:
        f.write("charscan-codegen 1\nline\tgarbage\n")
    p3, out3, rows3 = confirm(d, report, "--cache", cache)
    check(rows3 == rows1, "a corrupt cache entry changed the answer")
    # The header changes: the widening is gone, and so is the changed line.
    with open(os.path.join(d, "known.h"), "w") as f:
        f.write("static inline int widen(const char *p) { return p[1] == 'x'; }\n")
    p4, out4, rows4 = confirm(d, report, "--cache", cache)
    check(not any(r[0].endswith("known.h") for r in rows4), "stale cache used: %s" % rows4)


@test
def confirm_cache_goes_stale_when_a_new_header_shadows_the_one_read():
    # w.h is found in inc2; a new w.h where the compiler looks first
    # (an earlier -I folder, a -I folder that did not exist, the
    # includer's own folder for a quoted include) is the one compiled.
    for name, spelling, shadow in (("earlier-I", "<w.h>", "inc1/w.h"),
                                   ("created-I", "<w.h>", "inc0/w.h"),
                                   ("includer", '"w.h"', "w.h")):
        d = scratch("confirm-shadow-" + name)
        os.makedirs(os.path.join(d, "inc1"))
        os.makedirs(os.path.join(d, "inc2"))
        with open(os.path.join(d, "inc2", "w.h"), "w") as f:
            f.write("static inline int widen(const char *p) { return p[1] >> 1; }\n")
        with open(os.path.join(d, "a.c"), "w") as f:
            f.write("#include %s\nint f(const char *p) { return widen(p); }\n" % spelling)
        compdb(d, ["a.c"], ["-O2", "-Iinc0", "-Iinc1", "-Iinc2"])
        report = scan(d)
        cache = os.path.join(d, "cache")
        p1, out1, rows1 = confirm(d, report, "--cache", cache)
        check(p1.returncode == 0 and any(r[0].endswith("inc2/w.h") for r in rows1),
              "%s: %d %s %s" % (name, p1.returncode, p1.stderr, rows1))
        os.makedirs(os.path.dirname(os.path.join(d, shadow)), exist_ok=True)
        with open(os.path.join(d, shadow), "w") as f:
            f.write("static inline int widen(const char *p) { return p[1] == 'x'; }\n")
        p2, out2, rows2 = confirm(d, report, "--cache", cache)
        check(p2.returncode == 0 and not any(r[0].endswith("w.h") for r in rows2),
              "%s: the stale entry was used: %s" % (name, rows2))


@test
def confirm_cache_folder_errors_say_why():
    d = known_tree("confirm-cache-errors")
    report = scan(d)
    plain = os.path.join(d, "plain")
    with open(plain, "w") as f:
        f.write("not a folder\n")
    cases = [(plain, "not a folder"),
             (os.path.join(d, "no", "such", "cache"), "No such file or directory"),
             (os.path.join(plain, "cache"), "Not a directory")]
    if os.geteuid() != 0:   # root writes into a read-only folder
        ro = os.path.join(d, "ro")
        os.makedirs(ro)
        os.chmod(ro, 0o555)
        cases.append((ro, "Permission denied"))
    for cache, why in cases:
        p, out, rows = confirm(d, report, "--cache", cache)
        check(p.returncode == 2 and cache in p.stderr and why in p.stderr,
              "%s: exit %d: %s" % (cache, p.returncode, p.stderr))
        check(not os.path.exists(out), "a report was written")
    check(open(plain).read() == "not a folder\n", "the file was touched")


@test
def confirm_reports_a_tu_that_does_not_compile_and_goes_on():
    d = known_tree("confirm-broken")
    report = scan(d)
    with open(os.path.join(d, "nochar.c"), "w") as f:
        f.write("int broken(void) { return }\n")
    p, out, rows = confirm(d, report)
    check(p.returncode == 3, "exit %d: %s" % (p.returncode, p.stderr))
    check("nochar.c" in p.stderr and "error" in p.stderr, p.stderr)
    notes = json.load(open(out))["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    check(any("nochar.c" in n["message"]["text"] for n in notes), "notifications %s" % notes)
    check(any(r[0].endswith("known.c") for r in rows), "the other TU was not measured")
    validate(out)


@test
def confirm_kills_a_compile_over_tu_timeout_and_goes_on():
    d = known_tree("confirm-timeout")
    report = scan(d)
    # nochar.c now reads a FIFO nobody writes: its compiler blocks.
    os.mkfifo(os.path.join(d, "pipe.h"))
    with open(os.path.join(d, "nochar.c"), "w") as f:
        f.write('#include "pipe.h"\nint g;\n')
    t0 = time.time()
    p, out, rows = confirm(d, report, "--tu-timeout", "2", timeout=120)
    check(time.time() - t0 < 30, "took %.0f s" % (time.time() - t0))
    check(p.returncode == 3, "exit %d: %s" % (p.returncode, p.stderr))
    check("nochar.c: codegen oracle: TU skipped" in p.stderr and "not done after 2 s" in p.stderr,
          p.stderr)
    notes = json.load(open(out))["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    check(any("nochar.c" in n["message"]["text"] and n["level"] == "error" for n in notes), notes)
    check(any(r[0].endswith("known.c") for r in rows), "the other TU was not measured")
    try:    # the killed compiler no longer holds the FIFO open
        os.close(os.open(os.path.join(d, "pipe.h"), os.O_WRONLY | os.O_NONBLOCK))
        check(False, "a compiler still reads pipe.h")
    except OSError:
        pass
    validate(out)


@test
def confirm_gives_each_compile_the_tu_memory_limit():
    # The compiler, a wrapper that writes down its address-space limit
    # (ulimit -v, KB), gets --tu-memory from its start; 0 is no limit.
    d = known_tree("confirm-memory")
    report = scan(d)
    seen = os.path.join(d, "limits.txt")
    cc = os.path.join(d, "cc-wrapper")
    write(cc, "#!/bin/sh\nulimit -v >> %s\nexec clang-19 \"$@\"\n" % seen)
    os.chmod(cc, 0o755)
    for mb, want in (("300", str(300 * 1024)), ("0", "unlimited")):
        if os.path.exists(seen):
            os.unlink(seen)
        p, out, rows = confirm(d, report, "--tu-memory", mb, "--compiler", cc)
        limits = open(seen).read().split() if os.path.exists(seen) else []
        check(p.returncode == 0 and limits and set(limits) == {want},
              "--tu-memory %s: exit %d, limits %s: %s" % (mb, p.returncode, limits, p.stderr))


@test
def confirm_reports_an_entry_it_cannot_use_and_goes_on():
    d = known_tree("confirm-malformed")
    report = scan(d)
    db = os.path.join(d, "compile_commands.json")
    entries = json.load(open(db))
    entries[1]["arguments"].append("@missing.rsp")
    with open(db, "w") as f:
        json.dump(entries, f)
    p, out, rows = confirm(d, report)
    check(p.returncode == 3, "exit %d: %s" % (p.returncode, p.stderr))
    notes = json.load(open(out))["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    check(any("missing.rsp: No such file or directory" in n["message"]["text"] for n in notes), notes)
    check(any(r[0].endswith("known.c") for r in rows), "the other TU was not measured")
    validate(out)


@test
def confirm_usage_errors():
    d = known_tree("confirm-usage")
    for args, what in ((["confirm", "-p", d, "-o", os.path.join(d, "o.sarif")], "REPORT"),
                       (["confirm", "-o", "x", "r.sarif"], "-p"),
                       (["confirm", "-p", d, "-o", os.path.join(d, "o.sarif"),
                         os.path.join(d, "missing.sarif")], "missing.sarif"),
                       (["-p", d, "--compiler", "clang"], "--compiler")):
        p = run(args)
        check(p.returncode == 2 and what in p.stderr, "%s: exit %d: %s" % (args, p.returncode, p.stderr))
    check(not os.path.exists(os.path.join(d, "o.sarif")), "a report was left behind")


@test
def confirm_compiles_as_the_build_did_and_writes_no_files():
    d = scratch("confirm-own-flags")
    for f, text in KNOWN.items():
        with open(os.path.join(d, f), "w") as out:
            out.write(text)
    sub = os.path.join(d, "build")
    os.makedirs(sub)
    # Relative paths as a build has them, run in its directory; its
    # object and dependency files must not be written by the oracle.
    entry = {"directory": sub, "file": "../known.c",
             "arguments": ["clang", "-O2", "-DWIDTH=1", "-Wp,-MMD,known.d", "-MD", "-MF", "k2.d"] +
             # Many flags libclang's argv drops (kbuild has a dozen): the
             # compile's argv is longer than the scan's.
             ["-Werror=return-type"] * 16 + ["-c", "-o", "known.o", "../known.c"]}
    with open(os.path.join(d, "compile_commands.json"), "w") as f:
        json.dump([entry], f)
    p, out, rows = confirm(d, scan(d))
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    check(any(r[0].endswith("known.c") for r in rows), "nothing measured: %s" % rows)
    left = sorted(os.listdir(sub))
    check(left == [], "the oracle wrote %s" % left)


@test
def explain_writes_harmless_widenings_as_passes_only():
    d = scratch("explain")
    files = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))
    db = compdb(RULE_TESTS, files, path=os.path.join(d, "compile_commands.json"))
    plain, explained = os.path.join(d, "plain.sarif"), os.path.join(d, "explained.sarif")
    p1 = run(["-p", db, "-o", plain, "--srcroot", RULE_TESTS, "-q"])
    p2 = run(["-p", db, "-o", explained, "--srcroot", RULE_TESTS, "-q", "--explain",
              "--format", "text"])
    check(p1.returncode == p2.returncode == 1, "exit %d %d" % (p1.returncode, p2.returncode))
    validate(explained)
    place = lambda r: (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                       r["locations"][0]["physicalLocation"]["region"]["startLine"],
                       r["locations"][0]["physicalLocation"]["region"]["startColumn"])
    fails = [place(r) for r in results(explained) if r.get("kind") != "pass"]
    passes = {place(r): r for r in results(explained) if r.get("kind") == "pass"}
    check(sorted(fails) == sorted(place(r) for r in results(plain)), "--explain changed the findings")
    check(passes, "no pass results")
    check(all(r["level"] == "none" and ": " in r["message"]["text"] for r in passes.values()),
          "a pass without level none or a reason")
    check(not set(passes) & set(fails), "a place is both a finding and a pass")
    # Each "ok:" line of the catalogue's cases that is a widening is a pass
    # there: c == 'a', the closed ranges, *a == *b, c & 0x7f.
    want = {("CS001-compare-dead.c", 49), ("CS003-relational.c", 16), ("CS003-relational.c", 20)}
    got = {(u, line) for (_, u, line, _) in passes}
    check(want <= got, "missing passes: %s" % sorted(want - got))
    # /* ok: CS001 {{tested against zero}} */: a pass on that line, its rule
    # and reason.
    reasons = collections.defaultdict(list)
    for (rule, u, line, _), r in passes.items():
        reasons[(u, line)].append((rule, r["message"]["text"]))
    missing = []
    for f in files:
        pinned = {}
        expectations(os.path.join(RULE_TESTS, f), passes=pinned)
        for line, items in sorted(pinned.items()):
            for rule, fragment in items:
                if not any(r == rule and fragment in m for r, m in reasons[(f, line)]):
                    missing.append("%s:%d: no %s pass {{%s}}, got %s" %
                                   (f, line, rule, fragment, reasons[(f, line)] or "nothing"))
    check(not missing, "\n".join(missing))
    check("either way" not in p2.stdout and "under either signedness" not in p2.stdout,
          "passes in the text output")
    # One scan gives both reports: the explained one merged without its
    # passes is the plain report byte for byte (fingerprints included: a
    # finding's must not depend on --explain).
    back = os.path.join(d, "back.sarif")
    p3 = run(["merge", explained, "--no-explain", "-o", back])
    check(p3.returncode == 0, "merge --no-explain: exit %d %s" % (p3.returncode, p3.stderr))
    check(open(back, "rb").read() == open(plain, "rb").read(),
          "merge --no-explain of the --explain report is not the plain report")
    p4 = run(["-p", db, "-o", back, "--no-explain"])
    check(p4.returncode == 2 and "--no-explain" in p4.stderr, "--no-explain on a scan: exit %d" % p4.returncode)


@test
def flow_findings_carry_code_flows():
    d = scratch("codeflows")
    files = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))
    db = compdb(RULE_TESTS, files, path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "o.sarif")
    run(["-p", db, "-o", out, "--srcroot", RULE_TESTS, "-q"])
    validate(out)
    flows = {}
    for r in results(out):
        loc = r["locations"][0]["physicalLocation"]
        key = (loc["artifactLocation"]["uri"], loc["region"]["startLine"], r["ruleId"])
        if "codeFlows" in r:
            steps = r["codeFlows"][0]["threadFlows"][0]["locations"]
            flows[key] = [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps]
    # p4.c: the char kept in j (line 25), then j != -1 (26).
    check(flows.get(("CS001-compare-dead.c", 26, "CS001")) == [25, 26], "p4 flow: %s" % flows)
    # Followed into the callee: the call in reader() (76), then is_eof's test (71).
    check(flows.get(("CS010-escapes.c", 71, "CS001")) == [76, 71], "callee flow: %s" % flows)
    # A direct use needs no flow.
    check(("CS010-escapes.c", 25, "CS010") not in flows, "a flow on a direct use")


@test
def evaluate_accounts_register_moves_only_beside_an_accounted_change():
    """kernel/evaluate.py on a made-up oracle run: a line whose only change
    is where values live counts as accounted in a function whose char
    change is accounted, and nowhere else."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "evaluate", os.path.join(os.path.dirname(RULE_TESTS), "..", "kernel", "evaluate.py"))
    ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    spill = "-movq %r64, #(%rsp) | +movq #(%rsp), %r64"
    check(ev.is_register_move(spill), "a spill is a register move")
    check(ev.is_register_move("-movslq %r32, %r64 | +movslq #(%rsp), %r64"),
          "the same operation on another operand is a register move")
    for real in ("-movsbl (%r64), %r32 | +movzbl (%r64), %r32", "-jge .L# | +jae .L#",
                 "-callq seq_puts", "+orl $2, %r32", "-movq %r64, %r64 | +movzbl (%r64), %r32"):
        check(not ev.is_register_move(real), "%s is a real change" % real)
    for layout in ("-jne .L# | +je .L#", "-retq", "+jne .L# | +movq %r64, %r64", "-jmp .L#"):
        check(ev.is_layout(layout), "%s is block layout" % layout)
    for real in ("-jge .L# | +jae .L#", "-movl $1, %r32 | +xorl %r32, %r32",
                 "-movsbl (%r64), %r32 | +movzbl (%r64), %r32 | +jne .L#", "-movq %r64, %r64"):
        check(not ev.is_layout(real), "%s is not block layout" % real)
    changes = [("a.c", 10, "f", "-movsbl (%r64), %r32 | +movzbl (%r64), %r32"),
               ("a.c", 20, "f", spill),
               ("a.c", 30, "g", spill),			# g has nothing accounted
               ("a.c", 40, "h", spill),			# h: its only accounted line is a move
               ("a.c", 50, "h", "-movq %r64, %r64"),
               ("a.c", 60, "f", "-jne .L# | +je .L#"),	# f: blocks reordered
               ("a.c", 70, "g", "-retq")]
    judged, moves = ev.account(changes, {("a.c", 10)}, {("a.c", 50)})
    got = [(c[1], e, a) for c, e, a in judged]
    check(got == [(10, True, True), (20, False, True), (30, False, False), (40, False, False),
                  (50, False, True), (60, False, True), (70, False, False)] and moves == 2,
          "accounted: %s, %d moves" % (got, moves))
    # A result covers the lines of its region (a switch judged as a
    # whole: its arms), the macro invocation's line, and the line the
    # oracle credited it with; nothing else.
    results = [("a.c", 10, "CS007", "changed", None, 14, None),
               ("a.c", 30, "CS006", "changed", 28, 30, 36)]
    got = ev.places(results)
    check(got == {("a.c", n) for n in (10, 11, 12, 13, 14, 28, 30, 36)}, "places: %s" % sorted(got))
