#!/usr/bin/env python3
"""make C=1 / C=2 CHECK=charscan on the scanned kernel tree (make scan).

C=2 checks every file of arch/x86/events/intel/ under make -j2, each
charscan merging into one SARIF file; the result must be valid, hold the
p4.c finding once, agree with the compile-database scan for those files,
and the gcc-style text must be on make's stderr.  C=1 after touching
p4.c checks p4.c alone.  Closing line: "N passed, N failed".
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBDIR = "arch/x86/events/intel/"


def results(path):
    run = json.load(open(path))["runs"][0]
    return {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]}


def kmake(src, build, charscan, sarif, c):
    check = "%s -o %s --kbuild" % (charscan, sarif)
    return subprocess.run(["make", "-C", src, "O=" + build, "ARCH=x86_64", "LLVM=1", "-j2",
                           "C=%d" % c, "CHECK=" + check, SUBDIR],
                          capture_output=True, text=True)


def main():
    charscan, src, build, full = [os.path.abspath(a) for a in sys.argv[1:5]]
    out = os.path.join(ROOT, "out")
    sarif = os.path.join(out, "kbuild-check.sarif")
    passed = failed = 0

    def check(name, cond, detail=""):
        nonlocal passed, failed
        if cond:
            passed += 1
            print("ok      " + name)
        else:
            failed += 1
            print("FAILED  %s\n        %s" % (name, detail[-2000:]))

    for f in (sarif, sarif + ".lock"):
        if os.path.exists(f):
            os.unlink(f)
    p = kmake(src, build, charscan, sarif, 2)
    checked = [l.split()[-1] for l in p.stdout.splitlines() if l.strip().startswith("CHECK")]
    check("make C=2 runs charscan on every file", p.returncode == 0 and len(checked) >= 5,
          "exit %d, %d CHECK lines\n%s" % (p.returncode, len(checked), p.stderr))
    v = subprocess.run(["node", os.path.join(ROOT, "tests", "validate-sarif.js"), sarif],
                       capture_output=True, text=True)
    check("the merged SARIF is valid", v.returncode == 0, v.stdout + v.stderr)
    got = results(sarif)
    p4 = ("CS001", SUBDIR + "p4.c", 1233)
    check("p4.c's finding, once", p4 in got, str(sorted(got)))
    check("gcc-style text on stderr", "p4.c:1233:7: error: " in p.stderr, p.stderr[-1500:])
    want = {r for r in results(full) if r[1].startswith(SUBDIR)}
    mine = {r for r in got if r[1].startswith(SUBDIR)}
    check("same findings as the compile-database scan", mine == want,
          "kbuild only %s, database only %s" % (sorted(mine - want), sorted(want - mine)))
    os.utime(os.path.join(src, SUBDIR, "p4.c"))
    p = kmake(src, build, charscan, sarif + ".c1", 1)
    checked = [l.split()[-1] for l in p.stdout.splitlines() if l.strip().startswith("CHECK")]
    check("make C=1 checks only what is rebuilt",
          p.returncode == 0 and [os.path.basename(c) for c in checked] == ["p4.c"],
          "exit %d, checked %s\n%s" % (p.returncode, checked, p.stderr[-1500:]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
