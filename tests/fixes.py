"""charscan fix: the report's fixes applied, refused, shown and mailed."""
import os
import shutil
import stat
import subprocess

from harness import ROOT, check, compdb, results, run, scratch, test, validate, write

# A struct whose char member holds -1 (CS001, fix: signed char, in a
# tab-aligned struct) and a buffer of high bytes (CS004: unsigned char).
P4_LIKE = """\
struct bind {
	unsigned int shared;			/* event is shared across threads */
	char cntr[3];				/* counter index, -1 on absence */
};

int next_cntr(struct bind *b)
{
	int i, j;

	for (i = 0; i < 3; i++) {
		j = b->cntr[i];
		if (j != -1)
			return j;
	}
	return -1;
}
"""
UTF8_LIKE = """\
void bom(char *p)
{
	p[0] = 0xef;
}
"""


def project(name, files):
    d = scratch(name)
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        write(os.path.join(d, rel), text)
    compdb(d, [f for f in files if f.endswith(".c")])
    return d


def scan(d, name="report.sarif"):
    out = os.path.join(d, name)
    p = run(["-p", d, "-o", out, "--srcroot", d, "-q"])
    check(p.returncode in (0, 1), "scan: exit %d\n%s" % (p.returncode, p.stderr))
    validate(out)
    return out


def rules_at(sarif):
    return sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                  for r in results(sarif) if r.get("kind") != "pass")


@test
def fix_applies_declaration_fixes_and_keeps_comment_columns():
    d = project("fix-apply", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    os.chmod(os.path.join(d, "p4.c"), 0o640)
    report = scan(d)
    check(("CS001", "p4.c") in rules_at(report) and ("CS004", "lib/utf8.c") in rules_at(report),
          "want CS001 in p4.c and CS004 in lib/utf8.c: %s" % rules_at(report))
    p = run(["fix", report, "--dry-run"])
    check(p.returncode == 0, "dry run: exit %d\n%s" % (p.returncode, p.stderr))
    check("+\tsigned char cntr[3];\t\t\t/* counter index, -1 on absence */\n" in p.stdout,
          "the comment did not keep its column:\n" + p.stdout)
    check("+void bom(unsigned char *p)\n" in p.stdout and "@@ -1,6 +1,6 @@\n struct bind {" in p.stdout,
          p.stdout)
    check(open(os.path.join(d, "p4.c")).read() == P4_LIKE, "--dry-run changed the file")
    p = run(["fix", report, "--rules", "CS001"])
    check(p.returncode == 0, "fix: exit %d\n%s" % (p.returncode, p.stderr))
    check("signed char cntr[3];\t\t\t/*" in open(os.path.join(d, "p4.c")).read(), "p4.c not fixed")
    check(open(os.path.join(d, "lib/utf8.c")).read() == UTF8_LIKE, "--rules CS001 fixed CS004 too")
    check(stat.S_IMODE(os.stat(os.path.join(d, "p4.c")).st_mode) == 0o640, "mode not kept")
    check(not [n for n in os.listdir(d) if n.startswith(".charscan") or n.endswith(".tmp")],
          "temporary left: %s" % os.listdir(d))
    check(("CS001", "p4.c") not in rules_at(scan(d, "again.sarif")), "CS001 still reported after the fix")
    # The same report again: p4.c no longer reads as the fix expects.
    p = run(["fix", report, "--rules", "CS001"])
    check(p.returncode == 3 and "no longer reads as the fix expects" in p.stderr,
          "second fix: exit %d\n%s" % (p.returncode, p.stderr))


@test
def fix_refuses_a_file_changed_since_the_scan_and_fixes_the_rest():
    d = project("fix-changed", {"p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    report = scan(d)
    changed = P4_LIKE.replace("if (j != -1)", "if (j != -2)")
    write(os.path.join(d, "p4.c"), changed)
    p = run(["fix", report])
    check(p.returncode == 3, "exit %d, want 3\n%s" % (p.returncode, p.stderr))
    check("p4.c:12 changed since the scan" in p.stderr, p.stderr)
    check(open(os.path.join(d, "p4.c")).read() == changed, "a changed file was edited")
    check("void bom(unsigned char *p)" in open(os.path.join(d, "lib/utf8.c")).read(),
          "the unchanged file was not fixed")
    for bad, why in ((["fix"], "no report"), (["fix", report, "--dry-run", "--patches", d], "both"),
                     (["fix", os.path.join(d, "none.sarif")], "missing report")):
        p = run(bad)
        check(p.returncode == 2, "%s: exit %d\n%s" % (why, p.returncode, p.stderr))


def git(d, *args):
    p = subprocess.run(["git", "-C", d, "-c", "user.name=Fix Tester", "-c", "user.email=fix@example.org"]
                       + list(args), capture_output=True, text=True)
    check(p.returncode == 0, "git %s: %s" % (" ".join(args), p.stderr))
    return p.stdout


def kernel_top(d):
    """The files get_maintainer.pl checks for, its script (from the
    kernel tree or Debian's linux-source-6.1) and a MAINTAINERS of two
    entries: a small kernel tree."""
    for f in ("COPYING", "CREDITS", "Kbuild", "Makefile", "README"):
        write(os.path.join(d, f), "")
    for sub in ("Documentation", "arch", "include", "drivers", "fs", "init", "ipc", "kernel", "lib",
                "scripts"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    tree = os.path.join(ROOT, "work", "linux-6.1", "scripts", "get_maintainer.pl")
    if os.path.exists(tree):
        shutil.copy(tree, os.path.join(d, "scripts"))
    else:
        p = subprocess.run(["tar", "-xJf", "/usr/src/linux-source-6.1.tar.xz", "-C", d, "--strip-components=1",
                            "linux-source-6.1/scripts/get_maintainer.pl"], capture_output=True, text=True)
        check(p.returncode == 0, p.stderr)
    write(os.path.join(d, "MAINTAINERS"), """\
List of maintainers

Descriptions of section entries and preferred order
---------------------------------------------------

	M: *Mail* patches to: FullName <address@domain>

Maintainers List
----------------

BIND COUNTERS
M:	Counter Maintainer <counters@example.org>
R:	Counter Reviewer <review@example.org>
L:	counters@lists.example.org
S:	Maintained
F:	drivers/bind/

UTF-8 LIBRARY
M:	Text Maintainer <text@example.org>
S:	Maintained
F:	lib/utf8.c

THE REST
M:	Linus Torvalds <torvalds@example.org>
L:	linux-kernel@vger.example.org
S:	Buried alive in reporters
F:	*
F:	*/
""")


@test
def fix_patches_are_mails_git_am_applies_one_per_maintainers_entry():
    d = project("fix-mail", {"drivers/bind/p4.c": P4_LIKE, "lib/utf8.c": UTF8_LIKE})
    kernel_top(d)
    git(d, "init", "-q")
    git(d, "config", "user.name", "Fix Tester")
    git(d, "config", "user.email", "fix@example.org")
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "base")
    report = scan(d)
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "report")
    mails = os.path.join(d, "..", "fix-mails")
    shutil.rmtree(mails, ignore_errors=True)
    p = run(["fix", report, "--patches", mails])
    check(p.returncode == 0, "exit %d\n%s" % (p.returncode, p.stderr))
    files = sorted(os.listdir(mails))
    check(len(files) == 2 and all(f.endswith(".patch") for f in files), files)
    bind = open(os.path.join(mails, files[0])).read()
    check("Subject: [PATCH] -funsigned-char, bind: declare 'cntr' with signed char\n" in bind, bind[:400])
    check("To: Counter Maintainer <counters@example.org>\n" in bind, "To: missing\n" + bind[:600])
    cc = bind[bind.index("\nCc: "):bind.index("\n\n")]
    check("Counter Reviewer <review@example.org>" in cc and "counters@lists.example.org" in cc,
          "Cc: missing\n" + bind[:600])
    check("Signed-off-by: Fix Tester <fix@example.org>\n---\n drivers/bind/p4.c | 2 +-\n" in bind, bind)
    check("To: Text Maintainer <text@example.org>" in open(os.path.join(mails, files[1])).read(),
          "the UTF-8 mail goes to its own maintainer")
    check(open(os.path.join(d, "drivers/bind/p4.c")).read() == P4_LIKE, "--patches changed the tree")
    # quilt import takes them too, and quilt push applies them.
    q = os.path.join(d, "..", "fix-quilt")
    shutil.rmtree(q, ignore_errors=True)
    shutil.copytree(d, q, ignore=shutil.ignore_patterns(".git"))
    for f in files:
        p = subprocess.run(["quilt", "import", os.path.join(mails, f)], cwd=q, capture_output=True, text=True)
        check(p.returncode == 0, "quilt import: " + p.stdout + p.stderr)
    p = subprocess.run(["quilt", "push", "-a"], cwd=q, capture_output=True, text=True)
    check(p.returncode == 0, "quilt push: " + p.stdout + p.stderr)
    check("unsigned char *p" in open(os.path.join(q, "lib/utf8.c")).read(), "quilt push: utf8.c")
    # git am takes both, and the result is what charscan fix writes.
    git(d, "am", "-q", *[os.path.join(mails, f) for f in files])
    log = git(d, "log", "--format=%an <%ae>|%s", "-2")
    check("Fix Tester <fix@example.org>|-funsigned-char, lib: declare 'p' with unsigned char" in log, log)
    check("signed char cntr[3];" in open(os.path.join(d, "drivers/bind/p4.c")).read(), "git am: p4.c")
    check(rules_at(scan(d, "after.sarif")) == [], "findings left after git am")
