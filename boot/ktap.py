#!/usr/bin/env python3
"""Parse KUnit's KTAP output from a kernel console log.

    ktap.py LOG            -> JSON on stdout

KTAP (Documentation/dev-tools/ktap.rst) nests by indentation: the top
level lists suites, each suite's "# Subtest: NAME" block lists its cases,
and parameterised cases nest once more.  Console lines carry a printk
timestamp prefix, which is removed first.
"""
import json
import re
import sys

PREFIX = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: -)? ?(.*?)(?: # (SKIP|TODO)\b.*)?$")
SUBTEST = re.compile(r"^(\s*)# Subtest: (.+)$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)$")


def status(ok, directive):
    if directive == "SKIP":
        return "skip"
    return "pass" if ok == "ok" else "fail"


def parse(lines):
    suites = {}
    current = None          # the suite whose cases are being read
    suite_indent = None
    in_ktap = False
    for raw in lines:
        line = PREFIX.sub("", raw.rstrip("\r\n"))
        if line.strip().startswith("KTAP version") or line.strip().startswith("TAP version"):
            in_ktap = True
            continue
        if not in_ktap:
            continue
        m = SUBTEST.match(line)
        if m and (suite_indent is None or len(m.group(1)) == suite_indent):
            suite_indent = len(m.group(1))
            current = m.group(2).strip()
            suites.setdefault(current, {"status": None, "planned": None, "cases": {}})
            continue
        m = PLAN.match(line)
        if m and current and len(m.group(1)) == suite_indent and suites[current]["planned"] is None:
            suites[current]["planned"] = int(m.group(2))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent, ok, _, name, directive = m.groups()
        name = name.strip()
        if suite_indent is not None and len(indent) < suite_indent:
            # The suite's own result line, one level out.
            s = suites.setdefault(name, {"status": None, "planned": None, "cases": {}})
            s["status"] = status(ok, directive)
            current = None
        elif current and len(indent) == suite_indent:
            suites[current]["cases"][name] = status(ok, directive)
        # deeper: parameterised sub-cases, summarised by their case line
    return suites


def summary(suites):
    cases = [c for s in suites.values() for c in s["cases"].values()]
    return {
        "suites": len(suites),
        "suites_failed": sum(1 for s in suites.values() if s["status"] == "fail"),
        "cases": len(cases),
        "passed": cases.count("pass"),
        "failed": cases.count("fail"),
        "skipped": cases.count("skip"),
    }


def main():
    with open(sys.argv[1], errors="replace") as f:
        lines = f.readlines()
    suites = parse(lines)
    json.dump({"summary": summary(suites), "suites": suites}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
