#!/usr/bin/env python3
"""make bench: charscan against clang -fsyntax-only and clang-tidy on the
same TUs, in one run, as CPU-time and peak-memory ratios.

    bench.py CHARSCAN [COMPILE_DB] [N]

COMPILE_DB defaults to the kernel scan's (work/kbuild/scan-linux-6.1), or
the rule cases when no kernel was built; N TUs (default 40) are taken
evenly spread over it.  Each tool gets the same argv (the compile command
with charscan's flag filter applied, from charscan --print-args).
Absolute times on a 2-core machine are noisy; the ratios are the result.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def filtered(charscan, db_dir):
    """Each TU's argv as charscan gives it to libclang (--print-args): no
    -o, no dependency files, -w, -working-directory."""
    p = subprocess.run([charscan, "-p", db_dir, "--print-args"], capture_output=True, text=True,
                       check=True)
    return [json.loads(l) for l in p.stdout.splitlines()]


def measure(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss, p.returncode


def first(*names):
    for n in names:
        if shutil.which(n):
            return shutil.which(n)
    return None


def main():
    charscan = os.path.abspath(sys.argv[1])
    db = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "work", "kbuild", "scan-linux-6.1",
                                                            "compile_commands.json")
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    tmp = tempfile.mkdtemp(prefix="charscan-bench.")
    if not os.path.exists(db):
        db = os.path.join(tmp, "compile_commands.json")
        subprocess.run(["python3", os.path.join(ROOT, "tests", "rule-db.py"),
                        os.path.join(ROOT, "rules", "tests"), db], check=True)
    entries = [e for e in json.load(open(db)) if e["file"].endswith(".c")]
    step = max(1, len(entries) // n)
    pick = entries[::step][:n]
    json.dump(pick, open(os.path.join(tmp, "compile_commands.json"), "w"))
    clang = first("clang-19", "/usr/lib/llvm-19/bin/clang", "clang")
    tidy = first("clang-tidy-19", "/usr/lib/llvm-19/bin/clang-tidy", "clang-tidy")
    tools = {"clang -fsyntax-only": 0.0, "clang-tidy (bugprone-signed-char-misuse)": 0.0, "charscan -j1": 0.0}
    rss = dict.fromkeys(tools, 0)
    for e in filtered(charscan, tmp):
        a = e["arguments"][1:]
        for name, cmd in (("clang -fsyntax-only", [clang, "-fsyntax-only", "-w"] + a),
                          ("clang-tidy (bugprone-signed-char-misuse)",
                           [tidy, "-checks=-*,bugprone-signed-char-misuse", "--quiet", e["file"], "--"] +
                           [x for x in a if os.path.join(e["directory"], x) != e["file"]])):
            cpu, peak, _ = measure(cmd, e["directory"])
            tools[name] += cpu
            rss[name] = max(rss[name], peak)
    cpu, peak, rc = measure([charscan, "-p", tmp, "-j1", "-q"], tmp)
    tools["charscan -j1"] = cpu
    rss["charscan -j1"] = peak
    base = tools["clang -fsyntax-only"]
    print("bench: %d TUs from %s" % (len(pick), db))
    print("  clang %s, clang-tidy %s" % (clang, tidy))
    print("  %-42s %9s %8s %8s" % ("tool", "CPU s", "ratio", "peak MB"))
    for name, t in tools.items():
        print("  %-42s %9.2f %7.2fx %8.0f" % (name, t, t / base if base else 0, rss[name] / 1024))
    print("  (peak MB is the largest single process; charscan's is the whole scan)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
