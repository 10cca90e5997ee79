#!/usr/bin/env python3
"""Precision of a kernel report against its written triage.

    precision.py REPORT.sarif TRIAGE.md

TRIAGE.md's first table (up to the next "## " heading after it) has a
row per finding: | # | place | rule | class | why |, place "path:line"
relative to the tree, class one of true, fragile, harmless, false
(bold or not).  Each finding of REPORT (passes aside) is looked up by
place and rule.  Printed: the counts per class, the findings the triage
does not cover (new since it was written: read them), the rows no
finding matches any more, and precision as true / all and (true +
fragile) / all over the triaged findings; the latter also for kernel
code alone (not the host programs of scripts/, tools/, usr/), all
levels and warnings and errors only.  A measurement: exit 0
unless an input cannot be read.
"""
import collections
import json
import re
import sys

CLASSES = ("true", "fragile", "harmless", "false")
ROW = re.compile(r"^\|\s*\d+\s*\|\s*([^|\s]+):(\d+)\s*\|\s*(CS\d{3})\s*\|\s*\**(\w+)\**\s*\|")


def triage(path):
    """{(path, line, rule): [class, ...]} from the first table of path."""
    rows, in_table = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("| # | place"):
            in_table = True
        elif in_table and line.startswith("## "):
            break
        m = ROW.match(line) if in_table else None
        if m and m.group(4) in CLASSES:
            rows.setdefault((m.group(1), int(m.group(2)), m.group(3)), []).append(m.group(4))
    return rows


def classify(rows, found):
    """The class of each finding of found, in order: two findings of one
    rule on one line (cdrom.c's `(buffer[6] << 8) | buffer[7]`) take that
    place's rows in the order they are written."""
    used = collections.Counter()
    out = []
    for f in found:
        classes = rows.get(f, [])
        out.append(classes[min(used[f], len(classes) - 1)] if classes else "untriaged")
        used[f] += 1
    return out


def findings(path):
    run = json.load(open(path, encoding="utf-8"))["runs"][0]
    out = []
    for r in run["results"]:
        if r.get("kind") == "pass":
            continue
        loc = r["locations"][0]["physicalLocation"]
        out.append(((loc["artifactLocation"]["uri"], loc["region"]["startLine"], r["ruleId"]),
                    r.get("level", "warning")))
    return out


# Programs built for the build machine, not the kernel that boots.
HOST = ("scripts/", "tools/", "usr/")


def share(rows, found, what):
    """One line: the findings of found (keys) as triaged, real or fragile."""
    per = collections.Counter(classify(rows, found))
    triaged = sum(per[c] for c in CLASSES)
    real = per["true"] + per["fragile"]
    print("  %s: %d findings, true or fragile %d/%d = %.0f %%" % (
        what, len(found), real, triaged, 100.0 * real / triaged if triaged else 0.0))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows, levels = triage(sys.argv[2]), findings(sys.argv[1])
    found = [f for f, _ in levels]
    per = collections.Counter(classify(rows, found))
    triaged = sum(per[c] for c in CLASSES)
    print("triage (%s): %d findings, %s, untriaged %d" % (
        sys.argv[2], len(found), ", ".join("%s %d" % (c, per[c]) for c in CLASSES),
        per["untriaged"]))
    if triaged:
        print("precision: true %d/%d = %.0f %%, true or fragile %d/%d = %.0f %%" % (
            per["true"], triaged, 100.0 * per["true"] / triaged,
            per["true"] + per["fragile"], triaged,
            100.0 * (per["true"] + per["fragile"]) / triaged))
    kernel = [(f, level) for f, level in levels if not f[0].startswith(HOST)]
    share(rows, [f for f, _ in kernel], "kernel code (not scripts/, tools/, usr/)")
    share(rows, [f for f, level in kernel if level != "note"], "kernel code, warnings and errors")
    for f in sorted(f for f in found if f not in rows)[:20]:
        print("  untriaged: %s:%d %s" % f)
    gone = sorted(set(rows) - set(found))
    print("triaged rows no finding matches: %d" % len(gone))
    for g in gone[:20]:
        print("  gone: %s:%d %s (%s)" % (g + ("/".join(rows[g]),)))


if __name__ == "__main__":
    main()
