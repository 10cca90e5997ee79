#!/usr/bin/env python3
"""make bench: charscan against the compiler's parse, clang-tidy and
sparse on the same TUs, in one run, as ratios.

    bench.py CHARSCAN [COMPILE_DB] [N] [RUNS] [--results FILE] [--no-cache-rows]
             [--cache-header PATH]

COMPILE_DB defaults to the kernel scan's (work/kbuild/scan-linux-6.1), or
the rule cases when there is none; N TUs (default 200) are taken evenly
spread over it; each measurement is the median of RUNS runs (default 3).
Every tool gets the same argv: the compile command with charscan's flag
filter applied (charscan --print-args); sparse gets kbuild's CHECKFLAGS
before it, as make C=1 runs it.  Printed: CPU seconds and the ratio to
clang -fsyntax-only, charscan / clang-tidy and / sparse, -j2 wall
speed-up over -j1, peak RSS of one worker, TUs/s.  --results appends the
table, with date and machine, to FILE (bench/RESULTS.md).  Absolute
times on a 2-core machine are noisy; the ratios are the result.

A second table, "cache: ratios to the cold scan" (benchcache.py), is
measured on the same TUs in a private hardlink copy of their tree: a
cold scan with an empty --cache folder, the warm rescan, a rescan after
one .c file changed and after the header most of them read changed, and
--diff of that header's one-line patch, checked against clang -M's
count; --cache-header PATH (relative to the tree) changes that header
instead (the kernel's include/linux/kernel.h).  --no-cache-rows leaves
the table out.
"""
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchcache import cache_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# kbuild's CHECKFLAGS for x86_64 (Makefile, arch/x86/Makefile).
SPARSE_FLAGS = ["-D__linux__", "-Dlinux", "-D__STDC__", "-Dunix", "-D__unix__", "-Wbitwise",
                "-Wno-return-void", "-Wno-unknown-attribute", "-D__x86_64__", "--arch=x86",
                "-mlittle-endian", "-m64"]


def filtered(charscan, db_dir):
    """Each TU's argv as charscan gives it to libclang (--print-args): no
    -o, no dependency files, -w, -working-directory."""
    p = subprocess.run([charscan, "-p", db_dir, "--print-args"], capture_output=True, text=True,
                       check=True)
    return [json.loads(l) for l in p.stdout.splitlines()]


# Runs one command in a fresh process, so that the peak RSS it reports
# is this command's (RUSAGE_CHILDREN's maximum never goes down).
RUNNER = """import json, resource, subprocess, sys, time
t0 = time.monotonic()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.monotonic() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([r.ru_utime + r.ru_stime, wall, r.ru_maxrss, rc]))
"""


def measure(cmd, cwd):
    """CPU seconds, wall seconds and peak RSS (KiB) of cmd's processes."""
    p = subprocess.run([sys.executable, "-c", RUNNER] + cmd, cwd=cwd, capture_output=True,
                       text=True, check=True)
    return json.loads(p.stdout)


def first(*names):
    for n in names:
        if shutil.which(n):
            return shutil.which(n)
    return None


def per_tu_tools(e):
    """The tools run once per TU: (name, argv) with this TU's flags."""
    a = e["arguments"][1:]
    src = [x for x in a if os.path.join(e["directory"], x) == e["file"] or x == e["file"]]
    flags = [x for x in a if x not in src]
    tools = [("clang -fsyntax-only", [CLANG, "-fsyntax-only", "-w"] + a)]
    if TIDY:
        tools.append(("clang-tidy (bugprone-signed-char-misuse)",
                      [TIDY, "-checks=-*,bugprone-signed-char-misuse", "--quiet", e["file"], "--"] +
                      flags))
    if SPARSE:
        # sparse does not know clang's -Xclang/-working-directory forms.
        sp = [x for x in flags if not x.startswith(("-working-directory", "-Xclang"))]
        tools.append(("sparse (kbuild CHECKFLAGS)", [SPARSE] + SPARSE_FLAGS + sp + [e["file"]]))
    return tools


def one_run(charscan, tmp, tus):
    cpu, peak = {}, {}
    for e in tus:
        for name, cmd in per_tu_tools(e):
            c, _, p, _ = measure(cmd, e["directory"])
            cpu[name] = cpu.get(name, 0.0) + c
            peak[name] = max(peak.get(name, 0), p)
    walls = {}
    for j in (1, 2):
        c, wall, p, _ = measure([charscan, "-p", tmp, "-j%d" % j, "-q"], tmp)
        walls[j] = wall
        if j == 1:
            cpu["charscan -j1"] = c
            peak["charscan -j1"] = p
    return cpu, peak, walls


# allmodconfig's objects, the configuration of the 2022 codegen diff.
ALLMODCONFIG_TUS = 33900


def projection(cpu_per_tu, speedup):
    """allmodconfig on 1, 8 and 64 machines like this one, from this run's
    CPU per TU and -j2 speed-up: shards by path hash, as many as machines,
    each at -j2 (the merge and the cross-TU walk are seconds, left out)."""
    cores = os.cpu_count() or 1
    lines = ["Projection, allmodconfig (%d TUs) at this run's %.2f s CPU per TU and %.2fx "
             "on %d cores:" % (ALLMODCONFIG_TUS, cpu_per_tu, speedup, cores), ""]
    lines += ["| machines | wall |", "|---|---|"]
    for m in (1, 8, 64):
        wall = ALLMODCONFIG_TUS * cpu_per_tu / (m * speedup)
        lines.append("| %d | %s |" % (m, "%.1f h" % (wall / 3600) if wall >= 3600 else
                                      "%.0f min" % (wall / 60)))
    return lines


def option(args, name):
    """The value of --NAME VALUE, both taken out of ARGS; None without."""
    if name not in args:
        return None
    i = args.index(name)
    value = args[i + 1]
    del args[i:i + 2]
    return value


def main():
    global CLANG, TIDY, SPARSE
    args = [a for a in sys.argv[1:] if a != "--no-cache-rows"]
    results = option(args, "--results")
    header = option(args, "--cache-header")
    charscan = os.path.abspath(args[0])
    db = args[1] if len(args) > 1 else os.path.join(ROOT, "work", "kbuild", "scan-linux-6.1",
                                                    "compile_commands.json")
    n = int(args[2]) if len(args) > 2 else 200
    runs = int(args[3]) if len(args) > 3 else 3
    CLANG = first("clang-19", "/usr/lib/llvm-19/bin/clang", "clang")
    TIDY = first("clang-tidy-19", "/usr/lib/llvm-19/bin/clang-tidy", "clang-tidy")
    SPARSE = first("sparse")
    tmp = tempfile.mkdtemp(prefix="charscan-bench.")
    if not os.path.exists(db):
        db = os.path.join(tmp, "compile_commands.json")
        subprocess.run(["python3", os.path.join(ROOT, "tests", "rule-db.py"),
                        os.path.join(ROOT, "rules", "tests"), db], check=True)
    entries = [e for e in json.load(open(db)) if e["file"].endswith(".c")]
    step = max(1, len(entries) // n)
    pick = entries[::step][:n]
    json.dump(pick, open(os.path.join(tmp, "compile_commands.json"), "w"))
    tus = filtered(charscan, tmp)
    samples = [one_run(charscan, tmp, tus) for _ in range(runs)]
    cpu = {k: statistics.median(s[0][k] for s in samples) for k in samples[0][0]}
    peak = {k: max(s[1][k] for s in samples) for k in samples[0][1]}
    wall1 = statistics.median(s[2][1] for s in samples)
    wall2 = statistics.median(s[2][2] for s in samples)
    base = cpu["clang -fsyntax-only"]
    mine = cpu["charscan -j1"]
    lines = ["bench: %d TUs spread over %s, median of %d run%s" %
             (len(pick), os.path.relpath(db, ROOT) if db.startswith(ROOT) else db, runs,
              "s" if runs > 1 else ""),
             "  %s; %s, %d cores" % (datetime.date.today().isoformat(), platform.processor() or
                                    platform.machine(), os.cpu_count()),
             "",
             "| tool | CPU s | / clang -fsyntax-only | charscan / tool | peak RSS MiB |",
             "|---|---|---|---|---|"]
    for name, t in cpu.items():
        lines.append("| %s | %.1f | %.2fx | %s | %.0f |" %
                     (name, t, t / base if base else 0,
                      "%.2fx" % (mine / t) if t and name != "charscan -j1" else "",
                      peak[name] / 1024))
    lines += ["",
              "charscan -j1 wall %.1f s, -j2 wall %.1f s: speed-up %.2fx; %.1f TUs/s at -j2; "
              "%.2f s CPU per TU" % (wall1, wall2, wall1 / wall2 if wall2 else 0,
                                     len(pick) / wall2 if wall2 else 0, mine / len(pick)),
              "(charscan's peak RSS is its largest process: one worker or the parent)",
              ""] + projection(mine / len(pick), wall1 / wall2 if wall2 else 1.0)
    if "--no-cache-rows" not in sys.argv:
        lines += [""] + cache_rows(charscan, CLANG, tmp, pick, mine, header)
    print("\n".join(lines))
    if results:
        with open(results, "a") as f:
            f.write("\n## %s\n\n%s\n" % (datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
                                         "\n".join(lines)))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
