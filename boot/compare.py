#!/usr/bin/env python3
"""compare.py OUT TIMES PROOFS: the boot verdict over the four kernels.

The kernels (boot/boot.sh): signed and unsigned char, each without and
with the fixes of the series.  PROOFS (kernel/patches/proofs) names, for
each fix, the KUnit cases that prove it and the kernel they fail on.

A fix is proven when each of its cases fails on that kernel and passes on
the three others.  Every other case, and every non-KUnit self-test, must
give the same result on all four kernels.  Each kernel must reach the end
of /init with the signedness its name says, run the char_signedness
suite, and run the seed 004 selftest (cmsg_sender) with exit status 0.
Writes OUT/boot-report.txt (ending in "fixes proven: N/M" and the verdict)
and OUT/boot-report.json; exits 1 unless the verdict is PASS.
"""
import json
import os
import re
import sys

KERNELS = ("signed", "signed-fixed", "unsigned", "unsigned-fixed")
MARKER = "charscan-boot: done"


def load(out, name):
    log = open(os.path.join(out, "boot-%s.log" % name), errors="replace").read()
    return {
        "ktap": json.load(open(os.path.join(out, "boot-%s.json" % name))),
        "mode": open(os.path.join(out, "boot-%s.mode" % name)).read().strip() or "?",
        "reached_init": MARKER in log,
        "selftest": dict(re.findall(r"charscan-selftest: cmsg_sender (\w+) rc=(\d+)", log)),
        # lib/test_printf.c, test_hexdump.c...: not KUnit, own summary line
        "selftests": dict(re.findall(r"^(?:\[[^]]*\] )?(test_\w+): (all \d+ tests passed|failed \d+ out of \d+ tests)",
                                     log, re.M)),
        "char": "unsigned" if "plain char is unsigned" in log else
                "signed" if "plain char is signed" in log else "?",
    }


def read_proofs(path):
    """{suite.case: (kernel it fails on, fix patch)}, and the fixes in order."""
    proofs, fixes = {}, []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            case, fails, fix = line.split()
            if fails not in ("signed", "unsigned"):
                sys.exit("compare.py: %s: '%s' is not signed or unsigned" % (path, fails))
            proofs[case] = (fails, fix)
            if fix not in fixes:
                fixes.append(fix)
    return proofs, fixes


def results(k):
    """{suite.case: {kernel: pass|fail|skip|-}} over every kernel's KTAP."""
    table = {}
    for n in KERNELS:
        for suite, body in k[n]["ktap"]["suites"].items():
            for case, res in body["cases"].items():
                table.setdefault("%s.%s" % (suite, case), {})[n] = res
    return {c: {n: r.get(n, "-") for n in KERNELS} for c, r in table.items()}


def expected(proof):
    """What a proof case gives on each kernel when the fix works."""
    fails = proof[0]
    return {n: "fail" if n == fails else "pass" for n in KERNELS}


def judge(k, table, proofs, fixes):
    problems = []
    for n in KERNELS:
        signedness = n.split("-")[0]
        if not k[n]["reached_init"]:
            problems.append("%s kernel did not reach the end of /init" % n)
        if k[n]["char"] != signedness:
            problems.append("%s kernel reports plain char as %s" % (n, k[n]["char"]))
        if "char_signedness" not in k[n]["ktap"]["suites"]:
            problems.append("%s kernel: char_signedness suite did not run" % n)
        if not k[n]["selftest"]:
            problems.append("%s kernel: cmsg_sender did not run" % n)
        for proto, rc in sorted(k[n]["selftest"].items()):
            if rc != "0":
                problems.append("%s kernel: cmsg_sender %s exited %s" % (n, proto, rc))
    for case, row in sorted(table.items()):
        if case not in proofs and len(set(row.values())) > 1:
            problems.append("%s differs: %s" % (case, ", ".join("%s %s" % kv for kv in row.items())))
    for t in sorted(set().union(*(k[n]["selftests"] for n in KERNELS))):
        # Their counts may differ (test_printf has a case under
        # #ifndef __CHAR_UNSIGNED__); whether all passed may not.
        row = {n: k[n]["selftests"].get(t, "missing") for n in KERNELS}
        if len({v.split()[0] for v in row.values()}) > 1:
            problems.append("%s differs: %s" % (t, ", ".join("%s %s" % kv for kv in row.items())))
    proven = []
    for fix in fixes:
        cases = [c for c in proofs if proofs[c][1] == fix]
        bad = [c for c in cases if table.get(c) != expected(proofs[c])]
        if bad:
            problems.append("%s not proven: %s" % (fix, "; ".join(
                "%s gives %s, wants %s" % (c, row_text(table.get(c)), row_text(expected(proofs[c])))
                for c in bad)))
        else:
            proven.append(fix)
    return problems, proven


def row_text(row):
    return "/".join(row[n] for n in KERNELS) if row else "nothing (did not run)"


def report(k, table, proofs, fixes, proven, problems, times):
    lines = ["charscan boot verification: one tree and config, char signed and unsigned,",
             "each without and with the fixes", ""]
    for n in KERNELS:
        s = k[n]["ktap"]["summary"]
        lines.append("%-15s QEMU %-4s init %-7s KUnit: %d suites, %d cases, %d passed, %d failed, %d skipped; "
                     "cmsg_sender %s" % (n, k[n]["mode"], "reached" if k[n]["reached_init"] else "MISSING",
                                         s["suites"], s["cases"], s["passed"], s["failed"], s["skipped"],
                                         " ".join("%s=%s" % kv for kv in sorted(k[n]["selftest"].items())) or "-"))
    for t in sorted(set().union(*(k[n]["selftests"] for n in KERNELS))):
        lines.append("%-15s %s: %s" % ("", t, ", ".join("%s %s" % (n, k[n]["selftests"].get(t, "-"))
                                                       for n in KERNELS)))
    lines += ["", "%-58s %-7s %-7s %-8s %-8s %s" % (("case",) + ("signed", "+fixes", "unsigned", "+fixes")
                                                    + ("proves",))]
    for case, row in sorted(table.items()):
        proof = proofs.get(case)
        lines.append("%-58s %-7s %-7s %-8s %-8s %s" % ((case,) + tuple(row[n] for n in KERNELS)
                                                       + (proof[1][:4] + " (fails %s)" % proof[0] if proof else "",)))
    lines += ["", "times:"] + ["  " + line.rstrip() for line in open(times)]
    lines += [""] + ["%s %s" % ("proven    " if f in proven else "NOT proven", f) for f in fixes]
    lines += ["fixes proven: %d/%d" % (len(proven), len(fixes)),
              "verdict: " + ("PASS" if not problems else "FAIL")] + ["  " + p for p in problems]
    return "\n".join(lines) + "\n"


def main():
    out, times, proofs_file = sys.argv[1:4]
    k = {n: load(out, n) for n in KERNELS}
    proofs, fixes = read_proofs(proofs_file)
    table = results(k)
    problems, proven = judge(k, table, proofs, fixes)
    text = report(k, table, proofs, fixes, proven, problems, times)
    open(os.path.join(out, "boot-report.txt"), "w").write(text)
    json.dump({"kernels": k, "cases": table,
               "fixes": {f: f in proven for f in fixes},
               "problems": problems, "verdict": "pass" if not problems else "fail"},
              open(os.path.join(out, "boot-report.json"), "w"), indent=1, sort_keys=True)
    sys.stdout.write(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
