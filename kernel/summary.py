#!/usr/bin/env python3
"""summary.py REPORT.sarif compile_commands.json TIMES: what a scan found."""
import collections
import json
import sys

sarif, db, times = sys.argv[1:4]
run = json.load(open(sarif))["runs"][0]
tus = len(json.load(open(db)))
failed = [n for n in run["invocations"][0]["toolExecutionNotifications"] if n["level"] == "error"]
per_rule = collections.Counter(r["ruleId"] for r in run["results"])
per_dir = collections.Counter(
    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].split("/")[0]
    for r in run["results"])
names = {r["id"]: r["name"] for r in run["tool"]["driver"]["rules"]}

print("TUs scanned %d, failed %d, findings %d" % (tus, len(failed), len(run["results"])))
for rule in sorted(per_rule):
    print("  %s %-24s %5d" % (rule, names[rule], per_rule[rule]))
print("by top-level directory:")
for d, n in per_dir.most_common():
    print("  %-24s %5d" % (d, n))
for n in failed[:10]:
    print("failed: " + n["message"]["text"][:200])
print("wall time:")
sys.stdout.write("".join("  " + l for l in open(times)))
