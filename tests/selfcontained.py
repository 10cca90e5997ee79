"""The repository is self-contained: no script, test or build file names
a path outside it (a folder beside the checkout, a developer's home), so
that a clone is all a user needs besides Debian's packages."""
import os
import re
import subprocess

from harness import ROOT, check, test

# Where a path expression starts, by how files here spell it: the file's
# own folder, or a variable the file sets from it ($here, ROOT), whose
# depth anchor_depths() reads from the definition.
FILE_DIR_ANCHORS = ('$(dirname "$0")', "$(dirname $0)", "$(CURDIR)",
                    "os.path.dirname(__file__)", "HERE")
ANCHOR_DEF = re.compile(r"^\s*(here|ROOT)\s*=\s*(.*)$")
# Absolute paths that only exist on one machine.
PRIVATE_PREFIXES = ("/work/", "/home/", "/root/", "/Users/")
SKIP_SUFFIXES = (".md", ".patch", ".json", ".sarif", ".txt", ".gitignore", "CHANGES")
UP = re.compile(r"(?P<base>\$\(dirname \"?\$0\"?\)|\$\{?\w+\}?|\$\(\w+\)|\b\w+\b)?"
                r"(?P<rest>(?:/?\.\.(?:/[\w.+-]+)*)+)")
PY_JOIN = re.compile(r"os\.path\.join\(\s*([\w.()_]+)\s*,([^)]*)\)")


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    for rel in out.split("\0"):
        # This file holds the bad examples on purpose.
        if rel and not rel.endswith(SKIP_SUFFIXES) and "node_modules" not in rel and \
                rel != "tests/selfcontained.py":
            path = os.path.join(ROOT, rel)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    data = f.read()
                if b"\0" not in data:
                    yield rel, data.decode("utf-8", "replace")


def python_joins_as_paths(text):
    """os.path.join(BASE, "..", "x") -> BASE/../x, so one rule reads both."""
    def flat(m):
        parts = re.findall(r"[\"']([^\"']*)[\"']", m.group(2))
        return m.group(1) + "/" + "/".join(parts)
    return PY_JOIN.sub(flat, text)


def file_depth(rel):
    d = os.path.dirname(rel)
    return len(d.split("/")) if d else 0


def anchor_depths(rel, text):
    """{"$here": depth, ...}: how deep below the root each anchor is."""
    depths = {a: file_depth(rel) for a in FILE_DIR_ANCHORS}
    for line in text.splitlines():
        m = ANCHOR_DEF.match(line)
        if not m:
            continue
        value = m.group(2)
        if "from harness" in text and m.group(1) == "ROOT":
            continue
        # $(cd "$(dirname "$0")/.." && pwd): one up per "/..";
        # dirname(dirname(abspath(__file__))): one up per dirname but the
        # first, which takes off the file name.
        ups = value.count("/..") + max(value.count("os.path.dirname(") - 1, 0)
        if "dirname(HERE)" in value:
            ups = 1
        depth = file_depth(rel) - ups
        for spelling in ("$%s", "${%s}", "%s", "$(%s)"):
            depths[spelling % m.group(1)] = depth
    if "from harness import" in text or rel == "tests/harness.py":
        depths.update({"ROOT": 0, "HERE": 1})
    return depths


def escapes(depths, rel, base, rest):
    """Does base + rest climb above the repository root?"""
    if base in depths:
        depth = depths[base]
    elif not base:
        depth = file_depth(rel)
    else:
        return False		# some other variable: not a path we can place
    for part in rest.strip("/").split("/"):
        depth += -1 if part == ".." else (0 if part in ("", ".") else 1)
        if depth < 0:
            return True
    return False


def outside_paths(rel, text):
    depths = anchor_depths(rel, text)
    text = python_joins_as_paths(text)
    for n, line in enumerate(text.splitlines(), 1):
        for m in UP.finditer(line):
            if escapes(depths, rel, m.group("base") or "", m.group("rest")):
                yield "%s:%d: %s" % (rel, n, line.strip())
        for prefix in PRIVATE_PREFIXES:
            if re.search(r"(^|[\s\"'=(:])" + re.escape(prefix), line):
                yield "%s:%d: %s" % (rel, n, line.strip())


@test
def no_script_or_test_names_a_path_outside_the_repository():
    bad = [hit for rel, text in tracked_files() for hit in outside_paths(rel, text)]
    check(not bad, "paths outside the repository:\n" + "\n".join(bad))


@test
def outside_path_check_catches_what_it_must():
    # The check itself, on the shapes that broke before and their look-alikes.
    cases = {
        ('boot/boot.sh', 'here=$(cd "$(dirname "$0")/.." && pwd)\n'
                         'seed=$here/../shared/seeds/004.patch'): True,
        ('boot/boot.sh', 'here=$(cd "$(dirname "$0")/.." && pwd)\n'
                         'seed=$here/kernel/selftest/x.patch'): False,
        ('tests/run.py', 'from harness import *\n'
                         'P = os.path.join(ROOT, "..", "shared", "x")'): True,
        ('tests/bench.py', 'ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n'
                           'P = os.path.join(ROOT, "..", "x")'): True,
        ('tests/bench.py', 'ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n'
                           'P = os.path.join(ROOT, "work", "..", "x")'): False,
        ('kernel/Makefile', 'TREE ?= $(CURDIR)/../../work/x'): True,
        ('a.sh', 'cat ../outside/file'): True,
        ('x.sh', 'cp /work/main/foo .'): True,
        ('kernel/Makefile', 'TREE ?= $(CURDIR)/../work/linux-6.1-unsigned'): False,
        ('boot/boot.sh', 'here=$(cd "$(dirname "$0")/.." && pwd)'): False,
        ('tests/run.py', 'ROOT = os.path.dirname(HERE)'): False,
        ('scanner/core/path.c', '/* "a/./b/../c" -> "a/c" */'): False,
        ('x.sh', 'tar -xJf /usr/src/linux-source-6.1.tar.xz'): False,
    }
    for (rel, line), want in cases.items():
        got = bool(list(outside_paths(rel, line)))
        check(got == want, "%s: %r: flagged %s, want %s" % (rel, line, got, want))
