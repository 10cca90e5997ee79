"""make bench's cache rows (issue 33): on the bench's own sampled TUs, a
cold scan with an empty --cache folder, then rescans after no change,
after one .c file's content changed and after the header most of the
TUs read changed, and --diff of the one-header patch, each as a ratio
to the cold scan.

The tree is never written: its files are changed in a private hardlink
farm (cp -al) into which the sampled database is rewritten; a changed
file is unlinked there and written anew, so the tree's own file keeps
its bytes and mtime (checked, and said, at the end).  The compiler's own
-M output of the same TUs says which of them read the header: the
header rescan and --diff must parse or scan exactly those.
"""
import collections
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

SUMMARY = re.compile(r"charscan: (\d+) TUs, (\d+) from the cache, (\d+) parsed")
# Options naming a file or folder, separate (-I DIR) or joined (-IDIR).
PATH_OPTIONS = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros")
# Dependency-file options, dropped with -o so that --diff judges each TU
# by its cache entry's list (the case: no .d files).
DEP_WITH_VALUE = ("-MF", "-MT", "-MQ", "-o")
DEP_FLAGS = ("-MD", "-MMD", "-MP", "-M", "-MM")
DEP_PREFIXES = ("-Wp,-MD,", "-Wp,-MMD,")
MARK = b"/* charscan make bench: changed in a private copy */\n"

# Like bench.py's runner, with the command's stderr kept in a file: the
# summary line holds the counts of TUs parsed and replayed.
RUNNER = """import json, resource, subprocess, sys, time
t0 = time.monotonic()
with open(sys.argv[1], "w") as err:
    rc = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err).returncode
wall = time.monotonic() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([r.ru_utime + r.ru_stime, wall, rc]))
"""


def shown(path):
    """A path as printed: control characters, non-ASCII and backslashes escaped."""
    return ascii(path)[1:-1]


def under(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


def entry_args(e):
    return list(e["arguments"]) if "arguments" in e else shlex.split(e["command"])


def forced_includes(e):
    a = entry_args(e)
    d = os.path.normpath(e["directory"])
    return [os.path.normpath(os.path.join(d, a[i + 1])) for i in range(len(a) - 1)
            if a[i] == "-include"]


def tree_root(entries):
    """The source tree the entries compile: the common folder of the
    source files outside their build folder (kbuild's O=), widened to the
    -include files (kconfig.h) when that stays two levels deep; when every
    file is in its build folder, the common build folder."""
    outside = []
    for e in entries:
        d = os.path.normpath(e["directory"])
        f = os.path.normpath(os.path.join(d, e["file"]))
        if not under(f, d):
            outside.append(os.path.dirname(f))
    if not outside:
        return os.path.commonpath([os.path.normpath(e["directory"]) for e in entries])
    root = os.path.commonpath(outside)
    for e in entries:
        for f in forced_includes(e):
            wider = os.path.commonpath([root, f])
            if not under(f, os.path.normpath(e["directory"])) and wider.count("/") >= 2:
                root = wider
    return root


class Farm:
    """The tree as hard links under FOLDER, .git left out (--diff's
    repository is the farm's own)."""

    def __init__(self, root, folder):
        self.root, self.top = root, folder
        os.mkdir(folder)
        for name in sorted(os.listdir(root)):
            if name != ".git":
                subprocess.run(["cp", "-al", "--", os.path.join(root, name), folder + "/"],
                               check=True)

    def moved(self, path, directory):
        """PATH (relative to DIRECTORY) as the farm's: a relative one that
        follows a directory in the tree stays relative."""
        a = os.path.normpath(os.path.join(directory, path))
        if not under(a, self.root) or (not os.path.isabs(path) and under(directory, self.root)):
            return path
        return self.top + a[len(self.root):]

    def entry(self, e):
        """The entry compiling the farm's files, with no dependency file."""
        d = os.path.normpath(e["directory"])
        src = os.path.normpath(os.path.join(d, e["file"]))
        args, out, i = entry_args(e), [], 1
        out.append(args[0])
        while i < len(args):
            a, i = args[i], i + 1
            joined = next((o for o in PATH_OPTIONS if a.startswith(o) and a != o), None)
            if a in DEP_WITH_VALUE:
                i += 1
            elif a in DEP_FLAGS or a.startswith(DEP_PREFIXES):
                pass
            elif a in PATH_OPTIONS and i < len(args):
                out += [a, self.moved(args[i], d)]
                i += 1
            elif joined:
                out.append(joined + self.moved(a[len(joined):], d))
            elif os.path.normpath(os.path.join(d, a)) == src:
                out.append(self.moved(a, d))
            else:  # -fmacro-prefix-map=ROOT/= and the like
                out.append(a.replace(self.root.rstrip("/") + "/", self.top + "/"))
        return {"directory": self.moved(d, d), "file": self.moved(e["file"], d),
                "arguments": out}

    def original(self, path):
        return self.root + path[len(self.top):]


def change_copy(path):
    """Adds a comment line to the farm's PATH as a new file: the hard
    link to the tree's file is removed first, never written through."""
    data = open(path, "rb").read()
    os.unlink(path)
    with open(path, "wb") as f:
        f.write(data + (b"" if data.endswith(b"\n") or not data else b"\n") + MARK)


def fingerprint(path):
    st = os.stat(path)
    return hashlib.sha256(open(path, "rb").read()).hexdigest(), st.st_mtime_ns


def compiler_deps(clang, tu):
    """The real paths clang -M lists for TU (its filtered argv)."""
    p = subprocess.run([clang] + tu["arguments"][1:] + ["-M"], cwd=tu["directory"],
                       capture_output=True, text=True, errors="surrogateescape")
    if p.returncode:
        return None
    text = p.stdout.replace("\\\n", " ")
    text = text[text.find(": ") + 1:] if ": " in text else ""
    words = [re.sub(r"\\(.)", r"\1", w) for w in re.findall(r"(?:\\.|[^\s\\])+", text)]
    return {os.path.realpath(os.path.join(tu["directory"], w)) for w in words}


def print_args(charscan, db_dir):
    p = subprocess.run([charscan, "-p", db_dir, "--print-args"], capture_output=True, text=True,
                       check=True)
    return [json.loads(line) for line in p.stdout.splitlines()]


def widest_header(deps, top):
    """The header under the farm that most TUs read (ties: the first by name)."""
    count = collections.Counter(f for d in deps if d for f in d
                                if under(f, top) and f.endswith(".h"))
    return min(count, key=lambda f: (-count[f], f)) if count else None


class Scans:
    """charscan -j1 on the farm's database with one --cache folder."""

    def __init__(self, charscan, tmp, db_dir, top):
        self.cmd = [charscan, "-p", db_dir, "-j1", "--srcroot", top,
                    "--cache", os.path.join(tmp, "cache"), "-o", os.path.join(tmp, "cache.sarif")]
        self.err = os.path.join(tmp, "cache-scan.err")
        self.top = top

    def __call__(self, *extra):
        """CPU s, wall s, (TUs, from the cache, parsed) or None."""
        p = subprocess.run([sys.executable, "-c", RUNNER, self.err] + self.cmd + list(extra),
                           cwd=self.top, capture_output=True, text=True, check=True)
        cpu, wall, _ = json.loads(p.stdout)
        m = SUMMARY.search(open(self.err, errors="replace").read())
        return cpu, wall, tuple(int(x) for x in m.groups()) if m else None


def git(top, *args):
    subprocess.run(["git", "-C", top, "-c", "user.name=charscan bench", "-c",
                    "user.email=bench@localhost"] + list(args), check=True,
                   capture_output=True)


def measure_rows(scan, farm, cfile, header):
    """The five scans, each (label, CPU, wall, counts)."""
    rows = [("cold, empty --cache folder",) + scan()]
    rows.append(("warm, nothing changed",) + scan())
    change_copy(cfile)
    rows.append(("one .c changed (%s)" % shown(os.path.relpath(cfile, farm.top)),) + scan())
    if header:
        rel = os.path.relpath(header, farm.top)
        git(farm.top, "init", "-q")
        git(farm.top, "add", "-f", "--", rel)
        git(farm.top, "commit", "-qm", "the header as the tree has it")
        change_copy(header)
        rows.append(("one header changed (%s)" % shown(rel),) + scan())
        rows.append(("--diff HEAD, the one-line header patch",) + scan("--diff", "HEAD"))
    return rows


def table(rows, n, reads, plain_cpu):
    cold_cpu, cold_wall = rows[0][1], rows[0][2]
    lines = ["cache: ratios to the cold scan (charscan -j1 --cache, %d TUs, in a private "
             "hardlink copy of the tree)" % n, "",
             "| scan | CPU s | wall s | CPU / cold | wall / cold | TUs parsed | from the cache |",
             "|---|---|---|---|---|---|---|"]
    for label, cpu, wall, c in rows:
        lines.append("| %s | %.2f | %.2f | %.1f %% | %.1f %% | %s | %s |" %
                     (label, cpu, wall, 100 * cpu / cold_cpu if cold_cpu else 0,
                      100 * wall / cold_wall if cold_wall else 0,
                      "%d of %d" % (c[2], c[0]) if c else "?", c[1] if c else "?"))
    lines.append("")
    if plain_cpu:
        lines.append("cold with --cache / charscan -j1 without: %.2fx CPU" % (cold_cpu / plain_cpu))
    lines.append("targets: warm <= 3 %% of cold: %s; one .c <= 3 %% + that TU (%.1f %%): %s" %
                 ("met" if rows[1][1] <= 0.03 * cold_cpu else "not met",
                  100 * (0.03 + 1.0 / n), "met" if rows[2][1] <= (0.03 + 1.0 / n) * cold_cpu
                  else "not met"))
    if len(rows) > 3:
        c = rows[3][3]
        lines.append("header rescan parsed %s TUs (%s of the %d), compiler -M says %d" %
                     (c[2] if c else "?", "%.0f %%" % (100.0 * c[2] / n) if c else "?", n, reads))
        d = rows[4][3]
        lines.append("diff scanned %s TUs, compiler -M says %d" % (d[0] if d else "?", reads))
    else:
        lines.append("no header of the tree is read by these TUs: no header or --diff row")
    return lines


def cache_rows(charscan, clang, tmp, pick, plain_cpu, header_rel=None):
    """The lines of the cache table for the sampled entries PICK; the
    header changed is HEADER_REL (relative to the tree) if given."""
    root = tree_root(pick)
    if root.count("/") < 2 or not os.path.isdir(root):
        return ["cache rows skipped: no source tree found in the database (%s)" % shown(root)]
    farm = Farm(root, os.path.join(os.path.realpath(tmp), "tree"))
    try:
        return farm_rows(charscan, clang, tmp, farm, pick, plain_cpu, header_rel)
    finally:  # a kernel's farm is 80k links: never left behind
        shutil.rmtree(farm.top, ignore_errors=True)


def farm_rows(charscan, clang, tmp, farm, pick, plain_cpu, header_rel):
    db_dir = os.path.join(tmp, "cache-db")
    os.mkdir(db_dir)
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
        json.dump([farm.entry(e) for e in pick], f)
    tus = print_args(charscan, db_dir)
    deps = [compiler_deps(clang, t) for t in tus]
    header = widest_header(deps, farm.top)
    if header_rel:
        header = os.path.realpath(os.path.join(farm.top, header_rel))
        if not under(header, farm.top) or not os.path.isfile(header):
            return ["cache rows skipped: --cache-header %s is no file of %s" %
                    (shown(header_rel), shown(farm.root))]
    cfile = next((os.path.realpath(t["file"]) for t in tus
                  if under(os.path.realpath(t["file"]), farm.top)), None)
    if not cfile:
        return ["cache rows skipped: no sampled source file in %s" % shown(farm.root)]
    touched = [f for f in (cfile, header) if f]
    before = [fingerprint(farm.original(f)) for f in touched]
    rows = measure_rows(Scans(charscan, tmp, db_dir, farm.top), farm, cfile, header)
    reads = sum(1 for d in deps if d and header in d)
    lines = table(rows, len(tus), reads, plain_cpu)
    same = [fingerprint(farm.original(f)) for f in touched] == before
    lines.append("the tree's own %s: bytes and mtime %s" %
                 (" and ".join(shown(os.path.relpath(f, farm.top)) for f in touched),
                  "unchanged" if same else "CHANGED"))
    failed = sum(1 for d in deps if d is None)
    if failed:
        lines.append("(%d TUs clang -M could not preprocess: counted as not reading it)" % failed)
    return lines
