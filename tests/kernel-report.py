#!/usr/bin/env python3
"""kernel-report.py BEFORE.sarif AFTER.sarif [CONFIRMED.sarif]: what
`make scan` (and `make evaluate`) must show.

The unpatched 6.1 report has seed 003's p4.c finding (CS001 at the
comparison, the cntr declaration related, `signed char` as the fix) and
the early_printk one; the report of the patched tree has neither (nor
one in ext4's xattr.c, fixed too), and keeps every other finding.  Both
are validated against the SARIF schema.  Prints the before/after counts.
The packaged report is rendered in Microsoft's SARIF viewer component
in headless Chromium (tests/viewer.py) and must show every result.
With CONFIRMED (make evaluate's report of the unpatched tree), the codegen
oracle must see both bugs: their findings' code changes with the
signedness.
"""
import collections
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
before, after = sys.argv[1:3]
confirmed = sys.argv[3] if len(sys.argv) > 3 else None
p = subprocess.run(["node", os.path.join(here, "validate-sarif.js"), before, after],
                   capture_output=True, text=True)
ok = p.returncode == 0
if not ok:
    print("schema: " + p.stdout)


def results(path):
    return json.load(open(path))["runs"][0]["results"]


def where(r):
    loc = r["locations"][0]["physicalLocation"]
    return loc["artifactLocation"]["uri"], loc["region"]["startLine"]


b, a = results(before), results(after)
p4 = [r for r in b if r["ruleId"] == "CS001" and where(r)[0] == "arch/x86/events/intel/p4.c"]
if len(p4) != 1:
    ok = False
    print("p4.c CS001: %d findings, want 1" % len(p4))
else:
    r = p4[0]
    rel = [(x["physicalLocation"]["artifactLocation"]["uri"], x["message"]["text"]) for x in r["relatedLocations"]]
    fix = r["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]
    good = ("j != -1" in r["message"]["text"] and fix == "signed char" and
            ("arch/x86/events/intel/p4.c", "'cntr' is declared here with plain char") in rel)
    print("p4.c: %s:%d %s, fix %r -> %s" % (where(r) + (r["message"]["text"][:60], fix, "ok" if good else "WRONG")))
    ok = ok and good
# fs/ext4/xattr.c: found on x86_64_defconfig; only the patched (booted)
# tree's config builds ext4, so it has no finding before here.
fixed_files = ("arch/x86/events/intel/p4.c", "arch/x86/kernel/early_printk.c", "fs/ext4/xattr.c")
early = [r for r in b if where(r)[0] == fixed_files[1]]
if not early:
    ok = False
    print("early_printk.c finding missing before the fix")
left = [r for r in a if where(r)[0] in fixed_files]
if left:
    ok = False
    print("still reported after the fixes: %s" % [where(r) for r in left])
# The packaged tree is scanned from kbuild's dry run: every TU parses
# but those that include a header only vmlinux's link generates
# (compile-db/dryrun.py names them): the decompressor's voffset.h.
LINK_ONLY = {"arch/x86/boot/compressed/misc.c"}
failed = set()
for inv in json.load(open(before))["runs"][0].get("invocations", []):
    for n in inv.get("toolExecutionNotifications", []):
        if n.get("level") == "error":
            for l in n.get("locations", [{}]):
                failed.add(l.get("physicalLocation", {}).get("artifactLocation", {}).get("uri", "?"))
if failed - LINK_ONLY:
    ok = False
    print("TUs that did not parse in the packaged tree's scan: %s" % sorted(failed - LINK_ONLY))
print("TUs that did not parse: %d (%s)" % (len(failed), ", ".join(sorted(failed))))
# The series touches only the fixed files (and adds the KUnit suite): the
# patched tree's report keeps every other finding, so a TU lost on the
# way (a shard, a worker) shows here.
key = lambda r: (r["ruleId"],) + where(r)
lost = sorted({key(r) for r in b if where(r)[0] not in fixed_files} - {key(r) for r in a})
if lost:
    ok = False
    print("findings lost by the patched tree's report: %s" % lost[:10])
if confirmed:
    c = results(confirmed)
    for path, rule in (("arch/x86/events/intel/p4.c", "CS001"), (fixed_files[1], None)):
        got = [r.get("properties", {}).get("codegen") for r in c
               if where(r)[0] == path and (rule is None or r["ruleId"] == rule) and r.get("kind") != "pass"]
        print("oracle: %s %s -> %s" % (path, rule or "", got))
        if "changed" not in got:
            ok = False
            print("the codegen oracle does not confirm the %s finding" % path)
# The report as a reader sees it in Microsoft's SARIF viewer component
# (headless Chromium): every result, its rule's help link, its related
# locations; the screenshot stays in out/.
sys.path.insert(0, here)
import viewer  # noqa: E402
shot = os.path.join(os.path.dirname(os.path.abspath(before)), "viewer-kernel.png")
missing = viewer.problems(before, viewer.render(before, os.path.join(os.path.dirname(shot), "viewer"), shot))
print("viewer: %d results shown, screenshot %s%s" % (len(b), shot, "" if not missing else ": " + "; ".join(missing[:5])))
ok = ok and not missing
cb, ca = collections.Counter(r["ruleId"] for r in b), collections.Counter(r["ruleId"] for r in a)
print("findings before/after the series: %d / %d" % (len(b), len(a)))
for rule in sorted(set(cb) | set(ca)):
    print("  %s %4d %4d" % (rule, cb[rule], ca[rule]))
print("kernel report: " + ("ok" if ok else "FAILED"))
sys.exit(0 if ok else 1)
