#!/usr/bin/env python3
"""compare.py OUT TIMES: the boot verdict, signed vs unsigned kernel.

Fails (exit 1) if the unsigned kernel did not reach the init marker, if
any KUnit case that passes on the signed kernel does not pass on the
unsigned one, if our char_signedness suite is missing from either, or if
the seed 004 selftest failed in the unsigned guest.
"""
import json
import os
import re
import sys

out, times = sys.argv[1:3]
MARKER = "charscan-boot: done"


def load(name):
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


k = {n: load(n) for n in ("signed", "unsigned")}
problems = []
if not k["unsigned"]["reached_init"]:
    problems.append("unsigned kernel did not reach the end of /init")
for n in k:
    if "char_signedness" not in k[n]["ktap"]["suites"]:
        problems.append("%s kernel: char_signedness suite did not run" % n)
    if k[n]["char"] != n:
        problems.append("%s kernel reports plain char as %s" % (n, k[n]["char"]))
rows = []
suites = sorted(set(k["signed"]["ktap"]["suites"]) | set(k["unsigned"]["ktap"]["suites"]))
for s in suites:
    cs = k["signed"]["ktap"]["suites"].get(s, {"cases": {}})["cases"]
    cu = k["unsigned"]["ktap"]["suites"].get(s, {"cases": {}})["cases"]
    for c in sorted(set(cs) | set(cu)):
        a, b = cs.get(c, "-"), cu.get(c, "-")
        rows.append((s, c, a, b))
        if a == "pass" and b != "pass":
            problems.append("%s.%s passes on signed, %s on unsigned" % (s, c, b))
for t, res in sorted(k["signed"]["selftests"].items()):
    if res.startswith("all") and not k["unsigned"]["selftests"].get(t, "").startswith("all"):
        problems.append("%s passes on signed, not on unsigned: %s" % (t, k["unsigned"]["selftests"].get(t, "missing")))
for proto, rc in sorted(k["unsigned"]["selftest"].items()):
    if rc != "0":
        problems.append("cmsg_sender %s exited %s in the unsigned guest" % (proto, rc))
if not k["unsigned"]["selftest"]:
    problems.append("cmsg_sender did not run in the unsigned guest")

lines = ["charscan boot verification: signed vs unsigned char", ""]
for n in ("signed", "unsigned"):
    s = k[n]["ktap"]["summary"]
    lines.append("%-9s QEMU %-4s init %-7s KUnit: %d suites, %d cases, %d passed, %d failed, %d skipped; cmsg_sender %s"
                 % (n, k[n]["mode"], "reached" if k[n]["reached_init"] else "MISSING",
                    s["suites"], s["cases"], s["passed"], s["failed"], s["skipped"],
                    " ".join("%s=%s" % kv for kv in sorted(k[n]["selftest"].items())) or "-"))
for t in sorted(set(k["signed"]["selftests"]) | set(k["unsigned"]["selftests"])):
    lines.append("%-9s %-16s signed: %-22s unsigned: %s" % ("", t, k["signed"]["selftests"].get(t, "-"),
                                                          k["unsigned"]["selftests"].get(t, "-")))
lines += ["", "%-24s %-42s %-8s %-8s" % ("suite", "case", "signed", "unsigned")]
lines += ["%-24s %-42s %-8s %-8s" % r for r in rows]
lines += ["", "times:"] + ["  " + l.rstrip() for l in open(times)]
lines += ["", "verdict: " + ("PASS" if not problems else "FAIL")] + ["  " + p for p in problems]
text = "\n".join(lines) + "\n"
open(os.path.join(out, "boot-report.txt"), "w").write(text)
json.dump({"kernels": {n: {key: v for key, v in k[n].items()} for n in k},
           "cases": [dict(zip(("suite", "case", "signed", "unsigned"), r)) for r in rows],
           "problems": problems, "verdict": "pass" if not problems else "fail"},
          open(os.path.join(out, "boot-report.json"), "w"), indent=1, sort_keys=True)
sys.stdout.write(text)
sys.exit(1 if problems else 0)
