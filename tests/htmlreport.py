"""charscan report: a SARIF report as static HTML, rendered in headless
Chromium (Debian's chromium) from file:// and asserted on the DOM it
builds: every finding listed once, the summary's counts those of the
SARIF, a finding's related locations and code flow as numbered steps with
their source lines, its fix and help; input escaped; 5,000 findings in
pages of 500.  Screenshots are kept in out/report-*.png.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.parse

from harness import RULE_TESTS, ROOT, check, compdb, load, run, scratch, test, write

VOID = {"meta", "br", "img", "input", "link", "hr", "wbr", "col", "area", "base", "source"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []

    def all(self, tag=None, **attrs):
        """Descendants with this tag whose attributes contain these words."""
        found = []
        for k in self.kids:
            if isinstance(k, str):
                continue
            if (tag is None or k.tag == tag) and all(
                    v in (k.attrs.get(a.rstrip("_"), "") or "").split() for a, v in attrs.items()):
                found.append(k)
            found.extend(k.all(tag, **attrs))
        return found

    def one(self, tag=None, **attrs):
        found = self.all(tag, **attrs)
        check(len(found) == 1, "want one <%s %s>, found %d" % (tag, attrs, len(found)))
        return found[0]

    def by_id(self, ident):
        for n in self.all():
            if n.attrs.get("id") == ident:
                return n
        return None

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)


class Tree(html.parser.HTMLParser):
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#document", {}, None)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.at)
        self.at.kids.append(n)
        if tag not in VOID:
            self.at = n

    def handle_endtag(self, tag):
        n = self.at
        while n.parent and n.tag != tag:
            n = n.parent
        if n.parent:
            self.at = n.parent

    def handle_data(self, data):
        self.at.kids.append(data)


def render(page, png=None, fragment=""):
    """page as headless Chromium builds it (scripts run): its DOM as text
    and as a tree; a screenshot into out/ when png is named."""
    url = "file://" + urllib.parse.quote(os.path.abspath(page)) + fragment
    chrome = ["timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
              "--virtual-time-budget=5000", "--window-size=1200,1600"]
    p = subprocess.run(chrome + ["--dump-dom", url], capture_output=True, text=True, errors="replace")
    check(p.returncode == 0 and "<body" in p.stdout, "chromium failed on %s: %s" % (page, p.stderr[-500:]))
    if png:
        os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
        subprocess.run(chrome + ["--screenshot=" + os.path.join(ROOT, "out", png), url], capture_output=True)
    return p.stdout, Tree(p.stdout).root


def report(sarif, out, *extra):
    p = run(["report", sarif, "-o", out] + list(extra))
    check(p.returncode == 0, "charscan report: exit %d\n%s" % (p.returncode, p.stderr))
    return out


def listed(sarif):
    """The results the pages list: neither passes nor suppressed."""
    return [r for r in load(sarif)["runs"][0]["results"]
            if r.get("kind") != "pass" and not r.get("suppressions")]


def where(r):
    phys = r["locations"][0]["physicalLocation"]
    return "%s:%d" % (urllib.parse.unquote(phys["artifactLocation"]["uri"]), phys["region"]["startLine"])


def top_dir(uri):
    uri = urllib.parse.unquote(uri)
    return uri.split("/")[0] if "/" in uri else "."


def scan_rule_cases():
    """The rule cases scanned with --explain, into a folder of their own."""
    d = scratch("report-rules")
    files = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))
    db = compdb(RULE_TESTS, files, [], path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", out, "--srcroot", RULE_TESTS, "--explain", "-q"])
    check(p.returncode == 1, "scan: exit %d\n%s" % (p.returncode, p.stderr))
    return d, out


def rows(dom):
    """(rule, where, link) of each row of a list page."""
    found = []
    for tr in dom.all("tr", class_="finding"):
        a = tr.one("td", class_="id").one("a")
        found.append((a.text(), tr.one("td", class_="where").text(), a.attrs["href"]))
    return found


def counts(dom, group):
    return {tr.attrs["data-key"]: int(tr.one("td", class_="n").text())
            for tr in dom.all("tr", class_="count") if tr.attrs["data-group"] == group}


@test
def html_report_index_lists_every_finding_once_and_counts_them():
    d, sarif = scan_rule_cases()
    out = report(sarif, os.path.join(d, "html"))
    text, dom = render(os.path.join(out, "index.html"), "report-index.png")
    results = listed(sarif)
    want = sorted((r["ruleId"], where(r)) for r in results)
    got = sorted((rule, w) for rule, w, _ in rows(dom))
    check(len(results) > 100, "the rule cases give only %d findings" % len(results))
    check(got == want, "rows differ from the SARIF: missing %s, extra %s" %
          (sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
    for group, key in (("rule", lambda r: r["ruleId"]), ("level", lambda r: r.get("level", "warning")),
                       ("dir", lambda r: top_dir(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]))):
        want_counts = {}
        for r in results:
            want_counts[key(r)] = want_counts.get(key(r), 0) + 1
        check(counts(dom, group) == want_counts, "per %s: %s, want %s" % (group, counts(dom, group), want_counts))
    passes = sum(r.get("kind") == "pass" for r in load(sarif)["runs"][0]["results"])
    check(passes and dom.by_id("passes").text() == str(passes), "passes: %s, want %d" %
          (dom.by_id("passes").text(), passes))
    check(dom.by_id("listed").text() == str(len(results)), "listed: " + dom.by_id("listed").text())
    check(not counts(dom, "baseline"), "baseline counts in a report without a baseline")
    check(dom.by_id("shown").text() == str(len(results)), "the filter shows %s rows" % dom.by_id("shown").text())
    check(len(dom.all("script")) == 1, "scripts other than the filter's")


def source(path, line):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")[line - 1]


def step_problems(li, message, path, line, srcroot):
    """What a numbered step lacks of its message, place and source line."""
    rel = urllib.parse.unquote(path)
    found = []
    if li.one("span", class_="msg").text() != message:
        found.append("message %r, want %r" % (li.one("span", class_="msg").text(), message))
    if li.one("span", class_="where").text() != "%s:%d" % (rel, line):
        found.append("place %r, want %s:%d" % (li.one("span", class_="where").text(), rel, line))
    lines = [div for div in li.all("div") if div.attrs.get("data-line") == str(line)]
    code = lines[0].one("span", class_="code").text() if lines else None
    if code != source(os.path.join(srcroot, rel), line):
        found.append("source line %r, want %r" % (code, source(os.path.join(srcroot, rel), line)))
    if lines and not lines[0].all("mark"):
        found.append("the region is not marked on line %d" % line)
    return found


@test
def html_report_finding_page_shows_related_locations_flow_fix_and_help():
    d, sarif = scan_rule_cases()
    out = report(sarif, os.path.join(d, "html"), "--srcroot", RULE_TESTS)
    results = listed(sarif)
    # The finding with the most related locations and a code flow and a fix.
    chosen = max((r for r in results if r.get("codeFlows") and r.get("fixes")),
                 key=lambda r: len(r["relatedLocations"]))
    _, index = render(os.path.join(out, "index.html"))
    link = [h for rule, w, h in rows(index) if (rule, w) == (chosen["ruleId"], where(chosen))]
    check(len(link) == 1, "%s at %s: %d rows" % (chosen["ruleId"], where(chosen), len(link)))
    _, dom = render(os.path.join(out, link[0]), "report-finding.png")
    problems = []
    related = dom.by_id("related").all("li", class_="step")
    check(dom.by_id("related").tag == "ol" and len(related) == len(chosen["relatedLocations"]),
          "%d related steps for %d" % (len(related), len(chosen["relatedLocations"])))
    for li, rel in zip(related, chosen["relatedLocations"]):
        phys = rel["physicalLocation"]
        problems += step_problems(li, rel["message"]["text"], phys["artifactLocation"]["uri"],
                                  phys["region"]["startLine"], RULE_TESTS)
    steps = chosen["codeFlows"][0]["threadFlows"][0]["locations"]
    flow = dom.by_id("flow").all("li", class_="step")
    check(dom.by_id("flow").tag == "ol" and len(flow) == len(steps),
          "%d flow steps for %d" % (len(flow), len(steps)))
    for li, s in zip(flow, steps):
        phys = s["location"]["physicalLocation"]
        problems += step_problems(li, s["location"]["message"]["text"], phys["artifactLocation"]["uri"],
                                  phys["region"]["startLine"], RULE_TESTS)
    check(not problems, "\n".join(problems))
    message = re.sub(r" \(see \[.*\)$", "", chosen["message"]["text"])
    check(dom.by_id("message").text() == message, "message %r" % dom.by_id("message").text())
    props = chosen["properties"]
    check(dom.by_id("origin") and dom.by_id("origin").text() == "Confidence %s: %s." % (
          props["confidence"], props["valueOrigin"]),
          "confidence and origin: %r" % (dom.by_id("origin") and dom.by_id("origin").text()))
    hit = [div for div in dom.by_id("source").all("div", class_="hit")]
    line = chosen["locations"][0]["physicalLocation"]["region"]["startLine"]
    check(hit and hit[0].attrs["data-line"] == str(line) and hit[0].all("mark"),
          "the finding's line %d is not the one marked" % line)
    repl = chosen["fixes"][0]["artifactChanges"][0]["replacements"][0]
    fix = dom.by_id("fix")
    old, new = fix.one("div", class_="del").text(), fix.one("div", class_="add").text()
    check(old.replace(repl["deletedRegion"]["snippet"]["text"], repl["insertedContent"]["text"], 1)
          == new.replace("+", "-", 1) and repl["insertedContent"]["text"] in new,
          "fix diff: %r -> %r" % (old, new))
    rule = chosen["ruleId"]
    with open(os.path.join(ROOT, "rules", rule + ".md"), encoding="utf-8") as f:
        want = f.read().strip()
    check(dom.by_id("help").text().strip() == want, "the rule's help is not shown whole: %r" %
          dom.by_id("help").text()[:200])


@test
def html_report_counts_baseline_states():
    d = scratch("report-baseline")
    files = sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))
    third = len(files) // 3
    old, new = os.path.join(d, "old.sarif"), os.path.join(d, "new.sarif")
    for sarif, part, extra in ((old, files[:2 * third], []), (new, files[third:], ["--baseline", old])):
        db = compdb(RULE_TESTS, part, [], path=os.path.join(d, "db.json"))
        p = run(["-p", db, "-o", sarif, "--srcroot", RULE_TESTS, "-q"] + extra)
        check(p.returncode == 1, "scan: exit %d\n%s" % (p.returncode, p.stderr))
    out = report(new, os.path.join(d, "html"))
    _, dom = render(os.path.join(out, "index.html"))
    want = {}
    for r in listed(new):
        want[r["baselineState"]] = want.get(r["baselineState"], 0) + 1
    got = {k: v for k, v in counts(dom, "baseline").items() if v}
    check(got == want and set(want) >= {"new", "unchanged", "absent"}, "baseline: %s, want %s" % (got, want))
    states = [tr.one("td", class_="state").text() for tr in dom.all("tr", class_="finding")]
    check(sorted(states) == sorted(r["baselineState"] for r in listed(new)), "rows' baseline states")


HOSTILE = """\
int hostile(char *p)
{
\tchar c = p[0];
\treturn c == 0xff; /* <script>document.title='pwned'</script><img src=x onerror="document.title='pwned'"> */
}
"""


@test
def html_report_escapes_file_names_and_source_and_survives_a_missing_file():
    d = scratch("report-hostile")
    sub = os.path.join(d, "src", "<i>dir")
    os.makedirs(sub)
    write(os.path.join(sub, "<script>x.c"), HOSTILE)
    write(os.path.join(sub, "gone.c"), HOSTILE.replace("hostile", "gone"))
    db = compdb(sub, ["<script>x.c", "gone.c"], [], path=os.path.join(d, "compile_commands.json"))
    sarif = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", sarif, "--srcroot", os.path.join(d, "src"), "-q"])
    check(p.returncode == 1, "scan: exit %d\n%s" % (p.returncode, p.stderr))
    os.unlink(os.path.join(sub, "gone.c"))
    out = report(sarif, os.path.join(d, "html"))
    text, dom = render(os.path.join(out, "index.html"))
    check(len(dom.all("script")) == 1 and len(dom.all("i")) == 0 and "pwned" not in text.split("<title>")[1][:20],
          "the index made markup of a file name")
    check(any(w.startswith("<i>dir/<script>x.c:") for _, w, _ in rows(dom)), "file name not shown as text")
    check(counts(dom, "dir") == {"<i>dir": 2}, "directories: %s" % counts(dom, "dir"))
    for rule, w, link in rows(dom):
        text, page = render(os.path.join(out, link), "report-hostile.png" if "script" in w else None)
        check(not page.all("script") and not page.all("img") and not page.all("i"),
              "%s: markup from the report or the source" % w)
        check("<title>pwned" not in text, "a script ran")
        if "gone.c" in w:
            check("no such file" in page.by_id("source").text() and "<script>document.title" in
                  page.by_id("source").text() and page.by_id("help") and page.by_id("message"),
                  "the page of a missing file: %s" % page.by_id("source").text())
        else:
            code = [div.one("span", class_="code").text() for div in page.by_id("source").all("div", class_="hit")]
            check(code and "<script>document.title='pwned'</script>" in code[0], "source line: %s" % code)


@test
def html_report_reads_source_below_srcroot_only():
    d = scratch("report-srcroot")
    tree = os.path.join(d, "tree")
    os.makedirs(tree)
    for name in ("a.c", "link.c"):
        write(os.path.join(tree, name), HOSTILE.replace("hostile", name[0]))
    db = compdb(tree, ["a.c", "link.c"], [], path=os.path.join(d, "compile_commands.json"))
    sarif = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", sarif, "--srcroot", tree, "-q"])
    check(p.returncode == 1, "scan: exit %d\n%s" % (p.returncode, p.stderr))
    # The tree moved (a report made in another checkout), and one file
    # made a link out of it, to a secret of the same shape.
    moved = os.path.join(d, "checkout")
    os.rename(tree, moved)
    secret = write(os.path.join(d, "secret.c"), HOSTILE.replace("0xff", "0xff /* SECRET */"))
    os.unlink(os.path.join(moved, "link.c"))
    os.symlink(secret, os.path.join(moved, "link.c"))
    out = report(sarif, os.path.join(d, "html"), "--srcroot", moved)
    pages = {w.split(":")[0]: link for _, w, link in rows(Tree(open(os.path.join(out, "index.html")).read()).root)}
    text = Tree(open(os.path.join(out, pages["a.c"])).read()).root.by_id("source").text()
    check("return c == 0xff;" in text and "source not shown" not in text, "a.c not shown from --srcroot")
    text = Tree(open(os.path.join(out, pages["link.c"])).read()).root.by_id("source").text()
    check("SECRET" not in text and "outside the source tree" in text, "a link out of the tree was followed")
    p = run(["report", sarif, "-o", os.path.join(d, "html2")])
    check(p.returncode == 0 and "source tree" in p.stderr and "no such file" in p.stderr.lower() and
          "source not shown" in open(os.path.join(d, "html2", pages["a.c"])).read(),
          "the report's own tree gone: exit %d\n%s" % (p.returncode, p.stderr))


@test
def html_report_trusts_a_reports_own_srcroot_only_below_the_current_folder():
    """A report names any folder as its %SRCROOT%: without --srcroot its
    files are shown only when that root is the current folder or below."""
    elsewhere = tempfile.mkdtemp(prefix="charscan-elsewhere.")
    try:
        # The line above the finding is in no snippet or message: only a
        # page that read the file shows it.
        write(os.path.join(elsewhere, "a.c"), HOSTILE.replace("\tchar c = p[0];", "\tchar c = p[0]; /* SECRET */"))
        db = compdb(elsewhere, ["a.c"], [])
        sarif = os.path.join(elsewhere, "out.sarif")
        p = run(["-p", db, "-o", sarif, "--srcroot", elsewhere, "-q"])
        check(p.returncode == 1, "scan: exit %d\n%s" % (p.returncode, p.stderr))
        d = scratch("report-elsewhere")
        p = run(["report", sarif, "-o", os.path.join(d, "html")])
        pages = "".join(open(os.path.join(d, "html", "f", f)).read() for f in os.listdir(os.path.join(d, "html", "f")))
        check(p.returncode == 0 and "not the current folder" in p.stderr and "SECRET" not in pages,
              "a report from elsewhere chose the tree: exit %d\n%s" % (p.returncode, p.stderr))
        p = run(["report", sarif, "-o", os.path.join(d, "here")], cwd=elsewhere)
        pages = "".join(open(os.path.join(d, "here", "f", f)).read() for f in os.listdir(os.path.join(d, "here", "f")))
        check(p.returncode == 0 and "SECRET" in pages, "run in its own tree: exit %d\n%s" % (p.returncode, p.stderr))
    finally:
        shutil.rmtree(elsewhere, ignore_errors=True)


@test
def html_report_refuses_an_output_that_is_a_file_or_the_report():
    d, sarif = scan_rule_cases()
    write(os.path.join(d, "file"), "x")
    for out, why in ((os.path.join(d, "file"), "not a folder"), (sarif, "not a folder"), (d, "report read")):
        if out == d:
            os.rename(sarif, os.path.join(d, "index.html"))
            sarif = os.path.join(d, "index.html")
        before = open(sarif, "rb").read()
        p = run(["report", sarif, "-o", out])
        check(p.returncode == 2 and why in p.stderr, "-o %s: exit %d\n%s" % (out, p.returncode, p.stderr))
        check(open(sarif, "rb").read() == before, "the report was written over")
    p = run(["report", sarif])
    check(p.returncode == 2, "report without -o: exit %d" % p.returncode)


GENERATED = "int f%d(char c)\n{\n\treturn c == 0xff;\n}\n"


@test
def html_report_of_5000_findings_pages_and_filters():
    d = scratch("report-5000")
    files = []
    for k in range(10):
        os.makedirs(os.path.join(d, "d%d" % k))
        files.append("d%d/gen.c" % k)
        write(os.path.join(d, files[-1]), "".join(GENERATED % i for i in range(500)))
    db = compdb(d, files)
    sarif = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", sarif, "-q", "-j", "2"])
    check(p.returncode == 1 and len(listed(sarif)) == 5000, "scan: exit %d, %d findings\n%s" %
          (p.returncode, len(listed(sarif)), p.stderr))
    out = report(sarif, os.path.join(d, "html"))
    size = os.path.getsize(os.path.join(out, "index.html"))
    check(size < 400 * 1024, "index.html is %d bytes" % size)
    pages = sorted(f for f in os.listdir(out) if f.startswith("list-"))
    check(pages == sorted("list-%d.html" % k for k in range(2, 11)), "list pages: %s" % pages)
    check(len(os.listdir(os.path.join(out, "f"))) == 5000, "finding pages")
    text, dom = render(os.path.join(out, "index.html"), "report-5000.png")
    check(len(rows(dom)) == 500, "%d rows on the first page" % len(rows(dom)))
    check(counts(dom, "dir") == {"d%d" % k: 500 for k in range(10)}, "per directory: %s" % counts(dom, "dir"))
    check(len(dom.all("nav", class_="pager")[0].all("a")) == 9, "the pager does not link the 9 other pages")
    seen = set()
    for k in range(1, 11):
        page = os.path.join(out, "index.html" if k == 1 else "list-%d.html" % k)
        with open(page, encoding="utf-8") as f:
            dom = Tree(f.read()).root
        seen |= {(rule, w) for rule, w, _ in rows(dom)}
    check(seen == {(r["ruleId"], where(r)) for r in listed(sarif)}, "the pages do not list every finding")
    # The directory filter, from the address: on page 3 only d2's rows.
    options = {o.text(): o.attrs["value"] for o in dom.by_id("f-dir").all("option") if o.attrs.get("value")}
    _, dom = render(os.path.join(out, "list-3.html"), "report-filtered.png", "#dir=" + options["d2"])
    visible = [tr for tr in dom.all("tr", class_="finding") if "hidden" not in tr.attrs]
    check(len(visible) == 500 and dom.by_id("shown").text() == "500", "d2 on its page: %d rows" % len(visible))
    _, dom = render(os.path.join(out, "list-3.html"), None, "#dir=" + options["d3"])
    visible = [tr for tr in dom.all("tr", class_="finding") if "hidden" not in tr.attrs]
    check(not visible and dom.by_id("shown").text() == "0", "d3 on d2's page: %d rows" % len(visible))
    # A shorter report into the same folder leaves none of the longer one's pages.
    small = os.path.join(d, "small.sarif")
    p = run(["-p", compdb(d, files[:1], path=os.path.join(d, "small.json")), "-o", small, "-q"])
    check(p.returncode == 1, "scan of d0: exit %d\n%s" % (p.returncode, p.stderr))
    report(small, out)
    check(not [f for f in os.listdir(out) if f.startswith("list-")] and
          len(os.listdir(os.path.join(out, "f"))) == 500, "pages of the earlier report left")
