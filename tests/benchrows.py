"""make bench's cache rows (issue 33), on six rule cases copied into a
tree of their own with a header forced into three of them (the rule
cases share no header of their own): the warm rescan parses nothing,
one .c changed parses that TU, the header changed parses and --diff
scans exactly the TUs clang -M says read it, and the tree bench.py was
given is left as it was, bytes and mtimes, its .git included;
--cache-header names another header; --no-cache-rows leaves the table
out."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from harness import HERE, RULE_TESTS, Env, check, scratch, test, write
from premerge import git

BENCH = os.path.join(HERE, "bench.py")


def snapshot(top):
    """Every file under TOP: its bytes' hash and its mtime."""
    out = {}
    for d, _, files in os.walk(top):
        for f in files:
            p = os.path.join(d, f)
            out[p] = (hashlib.sha256(open(p, "rb").read()).hexdigest(), os.stat(p).st_mtime_ns)
    return out


def bench_tree(name):
    """TREE/src: six rule cases; common.h forced into three of them (one
    entry in absolute paths), other.h into one; the database beside the
    tree, not in it; TREE a git repository."""
    d = scratch(name)
    tree = os.path.join(d, "tree")
    for sub in ("src", "inc"):
        os.makedirs(os.path.join(tree, sub))
    cases = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))[:6]
    for c in cases:
        shutil.copy(os.path.join(RULE_TESTS, c), os.path.join(tree, "src", c))
    write(os.path.join(tree, "inc", "common.h"), "static inline int common(char c) { return c; }\n")
    write(os.path.join(tree, "inc", "other.h"), "static inline int other(char c) { return c; }\n")
    forced = [["-include", "inc/common.h"], ["-include", "inc/other.h"],
              ["-include", "inc/common.h"], [],
              ["-I" + os.path.join(tree, "inc"), "-include", os.path.join(tree, "inc", "common.h")],
              []]
    entries = []
    for i, c in enumerate(cases):
        src = "src/" + c if i != 4 else os.path.join(tree, "src", c)
        entries.append({"directory": tree, "file": src,
                        "arguments": ["clang", "-Iinc"] + forced[i] +
                        ["-MD", "-c", src, "-o", "/dev/null"]})
    db = os.path.join(d, "compile_commands.json")
    with open(db, "w") as f:
        json.dump(entries, f)
    git(tree, "init", "-q", "-b", "main")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@example.org", "add", ".")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one")
    return tree, db


def bench(db, *extra):
    p = subprocess.run([sys.executable, BENCH, Env.charscan, db, "6", "1"] + list(extra),
                       capture_output=True, text=True, cwd=Env.work)
    check(p.returncode == 0, "bench.py exit %d: %s" % (p.returncode, p.stderr[-2000:]))
    return p.stdout


def parsed(out, label):
    """The row's "TUs parsed" column, as (parsed, of)."""
    m = re.search(r"^\| %s[^|]* \|[^|]*\|[^|]*\|[^|]*\|[^|]*\| (\d+) of (\d+) \|" %
                  re.escape(label), out, re.M)
    check(m, "no row %r:\n%s" % (label, out))
    return int(m.group(1)), int(m.group(2))


@test
def bench_cache_rows_match_the_compilers_dependencies_and_leave_the_tree_alone():
    tree, db = bench_tree("bench-cache")
    before = snapshot(tree)
    out = bench(db)
    check("cache: ratios to the cold scan" in out, "no cache table:\n%s" % out)
    check(out.index("| charscan -j1 |") < out.index("cache: ratios"), out)
    check(parsed(out, "cold, empty --cache folder") == (6, 6), out)
    check(parsed(out, "warm, nothing changed") == (0, 6), out)
    check(parsed(out, "one .c changed (src/") == (1, 6), out)
    # common.h, read by three of the six, not other.h (one).
    check(parsed(out, "one header changed (inc/common.h)") == (3, 6), out)
    check("header rescan parsed 3 TUs (50 % of the 6), compiler -M says 3" in out, out)
    check("diff scanned 3 TUs, compiler -M says 3" in out, out)
    check("bytes and mtime unchanged" in out, out)
    check(snapshot(tree) == before, "bench.py changed the tree it was given")
    # The header named instead: other.h, read by one TU.
    out = bench(db, "--cache-header", "inc/other.h")
    check(parsed(out, "one header changed (inc/other.h)") == (1, 6), out)
    check("diff scanned 1 TUs, compiler -M says 1" in out, out)
    check(snapshot(tree) == before, "bench.py --cache-header changed the tree it was given")
    out = bench(db, "--no-cache-rows")
    check("| charscan -j1 |" in out and "cache:" not in out and "--diff" not in out, out)
