"""--cache DIR: a rescan parses only the TUs whose files changed, and its
report is byte for byte the report of a scan without the cache; entries
that are broken, foreign or unreadable are misses with a note; shards
share one folder; --diff reads the cached dependency lists."""
import hashlib
import os
import re
import struct
import subprocess

from harness import (RULE_TESTS, Env, check, compdb, load, run, scratch, test, validate,
                     write)
from scale import sharded_project
from premerge import git

SUMMARY = re.compile(r"charscan: (\d+) TUs, (\d+) from the cache, (\d+) parsed")


def rule_files():
    return sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))


def counts(p):
    """(TUs, from the cache, parsed) of the summary line (p: a run, or its stderr)."""
    err = p if isinstance(p, str) else p.stderr
    m = SUMMARY.search(err)
    check(m, "no cache counts in the summary: %s" % err[-500:])
    return tuple(int(x) for x in m.groups())


def scan(db, out, *extra, want=(0, 1)):
    p = run(["-p", db, "-o", out, "-j", "2"] + list(extra))
    check(p.returncode in want, "exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    return p


def same(a, b, what):
    check(open(a, "rb").read() == open(b, "rb").read(), "%s: the reports differ" % what)


def entries(cache):
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(cache) for f in fs)


@test
def cache_cold_and_warm_scans_of_the_rule_cases_give_the_same_report():
    d = scratch("cache-rules")
    db = compdb(RULE_TESTS, rule_files(), ["-fsigned-char"],
                path=os.path.join(d, "compile_commands.json"))
    cache, plain, cold, warm = (os.path.join(d, n) for n in
                                ("cache", "plain.sarif", "cold.sarif", "warm.sarif"))
    scan(db, plain, "--srcroot", RULE_TESTS)
    p = scan(db, cold, "--srcroot", RULE_TESTS, "--cache", cache)
    n = len(rule_files())
    check(counts(p) == (n, 0, n), "cold: %s" % p.stderr)
    p = scan(db, warm, "--srcroot", RULE_TESTS, "--cache", cache)
    check(counts(p) == (n, n, 0), "warm run parsed: %s" % p.stderr)
    same(plain, cold, "without the cache and cold")
    same(cold, warm, "cold and warm")
    validate(warm)
    # Each entry under its key's first two hex digits.
    for e in entries(cache):
        name = os.path.basename(e)
        check(re.fullmatch(r"[0-9a-f]{64}", name) and
              os.path.basename(os.path.dirname(e)) == name[:2], "entry %s" % e)


def include_project(name):
    """src/a.c and b.c include <h.h> (in inc2, after inc1 on the search
    path), c.c includes nothing, d.c includes "g.h" (in inc2 too)."""
    d = scratch(name)
    for sub in ("src", "inc1", "inc2"):
        os.mkdir(os.path.join(d, sub))
    write(os.path.join(d, "inc2", "h.h"), "static inline int h(char c) { return c < 0; }\n")
    write(os.path.join(d, "inc2", "g.h"), "static inline int g(char c) { return c; }\n")
    src = {"a.c": "#include <h.h>\nint fa(char c) { return c == -1 || h(c); }\n",
           "b.c": "#include <h.h>\nint fb(char c) { return h(c); }\n",
           "c.c": "int fc(char c) { return c == -1; }\n",
           "d.c": '#include "g.h"\nint fd(char c) { return g(c) == -1; }\n'}
    for f, text in src.items():
        write(os.path.join(d, "src", f), text)
    db = compdb(d, ["src/" + f for f in sorted(src)], ["-Iinc1", "-Iinc2"])
    return d, db


def rescan(d, db, tag, cache):
    """With the cache, and without: the same report; the counts."""
    with_cache, without = os.path.join(d, tag + ".sarif"), os.path.join(d, tag + "-plain.sarif")
    p = scan(db, with_cache, "--cache", cache)
    scan(db, without)
    same(with_cache, without, tag)
    return counts(p)


@test
def cache_reparses_only_what_a_change_reaches():
    d, db = include_project("cache-changes")
    cache = os.path.join(d, "cache")
    check(rescan(d, db, "cold", cache) == (4, 0, 4), "cold")
    check(rescan(d, db, "warm", cache) == (4, 4, 0), "warm")
    # A new mtime alone, the same bytes: nothing to parse.
    os.utime(os.path.join(d, "src", "a.c"), (1, 1))
    check(rescan(d, db, "touched", cache) == (4, 4, 0), "touched")
    write(os.path.join(d, "src", "c.c"), "/* edited */\n", "a")
    check(rescan(d, db, "one-c", cache) == (4, 3, 1), "one .c edited")
    write(os.path.join(d, "inc2", "h.h"), "static inline int h2(char c) { return c == -1; }\n", "a")
    check(rescan(d, db, "header", cache) == (4, 2, 2), "h.h changed")
    # A header in an earlier -I folder now shadows inc2/h.h: a.c and b.c
    # would find it, and their entries are stale.
    before = len(load(os.path.join(d, "header.sarif"))["runs"][0]["results"])
    write(os.path.join(d, "inc1", "h.h"), "static inline int h(char c) { return c > 0; }\n")
    check(rescan(d, db, "shadowed", cache) == (4, 2, 2), "inc1/h.h shadows")
    after = len(load(os.path.join(d, "shadowed.sarif"))["runs"][0]["results"])
    check(after != before, "the shadowing header changed nothing: a poor test")
    check(rescan(d, db, "settled", cache) == (4, 4, 0), "settled")
    # A quoted include looks in its includer's folder first.
    write(os.path.join(d, "src", "g.h"), "static inline int g(char c) { return c < 0; }\n")
    check(rescan(d, db, "quoted", cache) == (4, 3, 1), "src/g.h shadows inc2/g.h")
    # Options that change the walk are in the key.
    p = scan(db, os.path.join(d, "rules.sarif"), "--cache", cache, "--rules", "CS001")
    check(counts(p) == (4, 0, 4), "--rules: %s" % p.stderr)


def forge_version(data):
    """The entry as another charscan would have written it, checksum and all."""
    n, other = struct.unpack_from("=I", data, 8)[0], b"charscan 9.9.9; some clang; entry 1"
    body = data[:8] + struct.pack("=I", len(other)) + other + data[12 + n:-32]
    return body + hashlib.sha256(body).digest()


def flip(data, i):
    return data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:]


BREAKAGES = {
    # A byte past the header (magic, the version with the binary's hash).
    "corrupt": lambda e, data, other: write(e, flip(data, len(data) * 3 // 4), "wb"),
    "truncated": lambda e, data, other: write(e, data[:len(data) // 2], "wb"),
    "foreign": lambda e, data, other: write(e, forge_version(data), "wb"),
    "not ours": lambda e, data, other: write(e, b"GARBAGE!" + data[8:], "wb"),
    # Another TU's whole entry under this one's key: its findings would
    # replace this TU's (the seal covers the key).
    "another TU's": lambda e, data, other: write(e, other, "wb"),
    "unreadable": lambda e, data, other: (os.unlink(e), os.mkdir(e)),
}
WHY = {"corrupt": "is truncated or corrupt", "truncated": "is truncated or corrupt",
       "another TU's": "not this TU's",
       "foreign": "was written by another version of charscan or libclang",
       "not ours": "is not a charscan cache entry", "unreadable": "cannot be read"}


@test
def cache_entries_broken_foreign_or_unreadable_are_misses_with_a_note():
    d, db = include_project("cache-broken")
    cache, good = os.path.join(d, "cache"), os.path.join(d, "good.sarif")
    scan(db, good, "--cache", cache)
    for how, breaks in BREAKAGES.items():
        e, o = entries(cache)[:2]
        data = open(e, "rb").read()
        breaks(e, data, open(o, "rb").read())
        out = os.path.join(d, "broken.sarif")
        p = scan(db, out, "--cache", cache)
        check(counts(p) == (4, 3, 1), "%s: %s" % (how, p.stderr))
        check(re.search(r"note: .*: cache entry .*%s.*; TU parsed again" % re.escape(WHY[how]),
                        p.stderr), "%s: no note: %s" % (how, p.stderr))
        run_ = load(out)["runs"][0]
        notes = [n for n in run_["invocations"][0].get("toolExecutionNotifications", [])
                 if n["level"] == "note" and WHY[how] in n["message"]["text"]]
        check(len(notes) == 1, "%s: the SARIF has no note" % how)
        check(run_["results"] == load(good)["runs"][0]["results"], "%s: other results" % how)
        validate(out)
        if os.path.isdir(e):
            os.rmdir(e)
        p = scan(db, out, "--cache", cache)
        same(good, out, "%s, then rewritten" % how)
        # Rewritten by the scan that found it broken (a folder in its
        # place is not replaced: that one is parsed once more).
        check(counts(p) == ((4, 3, 1) if how == "unreadable" else (4, 4, 0)),
              "%s: not rewritten: %s" % (how, p.stderr))


@test
def cache_folder_that_is_a_file_is_refused():
    d, db = include_project("cache-file")
    not_dir = write(os.path.join(d, "cache"), "x")
    p = run(["-p", db, "--cache", not_dir])
    check(p.returncode == 2 and "not a folder" in p.stderr, "exit %d: %s" % (p.returncode, p.stderr))


def shards_at_once(d, db, cache, tag):
    store = os.path.join(d, "store-" + tag)
    os.mkdir(store)
    parts = [os.path.join(d, "%s-%d.sarif" % (tag, k)) for k in (1, 2)]
    procs = [subprocess.Popen([Env.charscan, "-p", db, "--shard", "%d/2" % k, "-o", parts[k - 1],
                               "--summaries", store, "--cache", cache, "-j", "1"],
                              stderr=subprocess.PIPE, text=True) for k in (1, 2)]
    errs = [p.communicate()[1] for p in procs]
    check(all(p.returncode in (1, 3) for p in procs), "shards: %s" % errs)
    parts.append(os.path.join(d, tag + "-x.sarif"))
    p = run(["-p", db, "--resolve", store, "-o", parts[-1], "-q", "--cache", cache])
    check(p.returncode in (0, 1, 3), "--resolve: %s" % p.stderr)
    merged = os.path.join(d, tag + ".sarif")
    p = run(["merge", "--summaries", store] + parts + ["-o", merged])
    check(p.returncode == 0, p.stderr)
    return merged, [counts(e) for e in errs]


@test
def cache_shared_by_two_shards_running_at_once():
    d, db, files = sharded_project("cache-shards")
    cache, whole = os.path.join(d, "cache"), os.path.join(d, "whole.sarif")
    p = run(["-p", db, "-o", whole, "-q"])
    check(p.returncode == 3, p.stderr)
    cold, n = shards_at_once(d, db, cache, "cold")
    same(whole, cold, "two shards at once, cold")
    warm, n = shards_at_once(d, db, cache, "warm")
    same(whole, warm, "two shards at once, warm")
    # The broken TU is never kept: it alone is parsed again.
    check(sum(x[2] for x in n) == 1 and sum(x[0] for x in n) == len(files),
          "warm shards parsed: %s" % n)
    check(not [e for e in entries(cache) if os.path.basename(e).startswith(".")],
          "temporaries left in the cache")


@test
def diff_reads_the_cached_dependency_lists():
    d = scratch("cache-diff")
    git(d, "init", "-q", "-b", "main")
    git(d, "config", "user.email", "t@example.org")
    git(d, "config", "user.name", "charscan tests")
    write(os.path.join(d, "lib.h"), "static inline int lib(int x) { return x > 0; }\n")
    for f in ("a.c", "b.c"):
        write(os.path.join(d, f), '#include "lib.h"\nint %s(int x) { return lib(x); }\n' % f[0])
    write(os.path.join(d, "c.c"), "int c(char x) { return x; }\n")
    # No -MD: no dependency files anywhere.
    db = compdb(d, ["a.c", "b.c", "c.c"])
    git(d, "add", "lib.h", "a.c", "b.c", "c.c")
    git(d, "commit", "-qm", "one")
    cache = os.path.join(d, "cache")
    run(["-p", db, "--cache", cache, "-q"])
    write(os.path.join(d, "lib.h"), "static inline int lib(int x) { char c = x; return c < 0; }\n")
    p = run(["-p", db, "--diff", "HEAD", "--cache", cache])
    check(p.returncode == 1, p.stderr)
    check(counts(p)[0] == 2 and "3 TUs have no dependency file; judged by the files their "
          "--cache entry lists" in p.stderr and "scanned because" not in p.stderr,
          "cache lists: %s" % p.stderr)
    # Without the cache, every TU without a .d file is scanned.
    p = run(["-p", db, "--diff", "HEAD"])
    check("charscan: 3 TUs" in p.stderr and "3 TUs have no dependency file; scanned" in p.stderr,
          "without the cache: %s" % p.stderr)
    # A TU the cache has never seen is scanned, and said to be.
    write(os.path.join(d, "e.c"), "int e(void) { return 0; }\n")
    db = compdb(d, ["a.c", "b.c", "c.c", "e.c"])
    p = run(["-p", db, "--diff", "HEAD", "--cache", cache])
    check(counts(p)[0] == 3 and "1 TUs have no dependency file nor --cache entry; scanned "
          "because a header changed" in p.stderr, "a TU not in the cache: %s" % p.stderr)


@test
def cache_hits_a_header_below_nested_search_folders():
    """kbuild's -Iarch/x86/include and -Iarch/x86/include/uapi: a file
    under both has two readings of its name (<uapi/asm/sig.h> found in
    the first, or <asm/sig.h> in the second), and arch's own asm/sig.h
    (not read) stands in the way of the second.  The entry holds the
    readings a lookup could have taken, so a warm scan parses nothing;
    a header that appears before the one read still makes it stale."""
    d = scratch("cache-nested")
    for sub in ("src", "pre", "arch/inc/asm", "arch/inc/uapi/asm"):
        os.makedirs(os.path.join(d, sub))
    write(os.path.join(d, "arch/inc/asm/sig.h"), "#include <uapi/asm/sig.h>\n")
    write(os.path.join(d, "arch/inc/uapi/asm/sig.h"), "static inline int s(char c) { return c < 0; }\n")
    write(os.path.join(d, "src", "a.c"), "#include <uapi/asm/sig.h>\nint fa(char c) { return s(c); }\n")
    db = compdb(d, ["src/a.c"], ["-Ipre", "-Iarch/inc", "-Iarch/inc/uapi"])
    cache = os.path.join(d, "cache")
    check(rescan(d, db, "cold", cache) == (1, 0, 1), "cold")
    check(rescan(d, db, "warm", cache) == (1, 1, 0), "a header below nested folders made the entry stale")
    os.makedirs(os.path.join(d, "pre", "uapi", "asm"))
    write(os.path.join(d, "pre", "uapi", "asm", "sig.h"), "static inline int s(char c) { return c == -1; }\n")
    check(rescan(d, db, "shadowed", cache) == (1, 0, 1), "a header found first now did not make it stale")


@test
def cache_entries_of_another_build_of_charscan_are_misses():
    """The same version built anew (its analysis changed, the version
    string not): its entries are not this binary's answers."""
    d, db = include_project("cache-rebuilt")
    cache = os.path.join(d, "cache")
    rebuilt = os.path.join(d, "charscan-rebuilt")
    with open(Env.charscan, "rb") as f, open(rebuilt, "wb") as out:
        out.write(f.read() + b"\0rebuilt")
    os.chmod(rebuilt, 0o755)
    p = subprocess.run([rebuilt, "-p", db, "-o", os.path.join(d, "a.sarif"), "--cache", cache],
                       capture_output=True, text=True, cwd=d)
    check(p.returncode in (0, 1), "rebuilt binary: %s" % p.stderr)
    p = scan(db, os.path.join(d, "b.sarif"), "--cache", cache)
    check(re.search(r"(\d+) TUs, 0 from the cache, \1 parsed", p.stderr),
          "entries of another build were replayed:\n%s" % p.stderr)
    p = scan(db, os.path.join(d, "c.sarif"), "--cache", cache)
    check(re.search(r"\d+ TUs, (\d+) from the cache, 0 parsed", p.stderr),
          "the entries this binary wrote are not found again:\n%s" % p.stderr)
