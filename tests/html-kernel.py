#!/usr/bin/env python3
"""html-kernel.py REPORT.sarif DIR TREE: make scan's HTML report of the
kernel (charscan report), rendered in headless Chromium from file:// as
tests/htmlreport.py renders the rule cases' one.  Every listed finding of
REPORT.sarif is a row of the list pages, once; each finding's page shows
every related location and every code-flow step as a numbered step with
its message, its place and its source line from TREE.  Closing line:
"N passed, N failed".
"""
import os
import sys

import htmlreport as H
from harness import Failure, Tally

step = Tally()


def list_pages(out):
    pages = ["index.html"] + sorted((f for f in os.listdir(out) if f.startswith("list-")),
                                    key=lambda f: int(f[5:-5]))
    return [os.path.join(out, p) for p in pages]


def in_tree(phys):
    """Places outside the tree (a system header's file:// URI) are shown
    without their source: only those below it are checked line by line."""
    return not phys["artifactLocation"]["uri"].startswith("file:")


def page_problems(out, link, r, tree):
    _, dom = H.render(os.path.join(out, link))
    found = []
    related = dom.by_id("related").all("li", class_="step") if r.get("relatedLocations") else []
    if len(related) != len(r.get("relatedLocations", [])):
        found.append("%d related steps for %d" % (len(related), len(r.get("relatedLocations", []))))
    for li, rel in zip(related, r.get("relatedLocations", [])):
        phys = rel["physicalLocation"]
        if in_tree(phys):
            found += H.step_problems(li, rel["message"]["text"], phys["artifactLocation"]["uri"],
                                     phys["region"]["startLine"], tree)
    for flow in r.get("codeFlows", [])[:1]:
        steps = flow["threadFlows"][0]["locations"]
        got = dom.by_id("flow").all("li", class_="step")
        if len(got) != len(steps):
            found.append("%d flow steps for %d" % (len(got), len(steps)))
        for li, s in zip(got, steps):
            phys = s["location"]["physicalLocation"]
            if in_tree(phys):
                found += H.step_problems(li, s["location"]["message"]["text"],
                                         phys["artifactLocation"]["uri"], phys["region"]["startLine"], tree)
    return found


def main():
    sarif, out, tree = sys.argv[1:4]
    results = H.listed(sarif)
    rows = []
    try:
        for page in list_pages(out):
            rows += H.rows(H.render(page, "kernel-report-index.png" if page.endswith("index.html") else None)[1])
    except Failure as e:
        step("the list pages render", False, str(e))
        return step.close()
    want = sorted((r["ruleId"], H.where(r)) for r in results)
    got = sorted((rule, w) for rule, w, _ in rows)
    step("every kernel finding is listed once (%d)" % len(want), got == want and want,
         "missing %s, extra %s" % (sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
    links = {(rule, w): h for rule, w, h in rows}
    problems = []
    for r in results:
        link = links.get((r["ruleId"], H.where(r)))
        if link:
            problems += ["%s %s: %s" % (r["ruleId"], H.where(r), p) for p in page_problems(out, link, r, tree)]
    step("each finding's page shows its related places and flow steps with their source",
         not problems, "\n".join(problems[:20]))
    return step.close()


if __name__ == "__main__":
    sys.exit(main())
