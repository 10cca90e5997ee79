"""charscan fix: the report's fixes applied, refused, shown and mailed."""
import json
import os
import re
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


EVIL_DIR = "lib\nCc: attacker@evil.example\nX"


def mail_repo(name, files, user="Fix Tester", email="fix@example.org"):
    """A project in a git repository of its own, scanned and committed."""
    d = project(name, files)
    git(d, "init", "-q")
    git(d, "config", "user.name", user)
    git(d, "config", "user.email", email)
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "base")
    report = scan(d)
    return d, report


def mails_of(d, report, name):
    mails = os.path.join(d, "..", name)
    shutil.rmtree(mails, ignore_errors=True)
    p = run(["fix", report, "--patches", mails])
    check(p.returncode == 0, "exit %d\n%s" % (p.returncode, p.stderr))
    return [os.path.join(mails, f) for f in sorted(os.listdir(mails))]


def headers(mail):
    """The header lines of a mail, each with its folded lines."""
    head = open(mail, "rb").read().split(b"\n\n", 1)[0].decode("ascii")
    check(not any(ord(c) < 0x20 and c not in "\n" or ord(c) == 0x7f for c in head),
          "a raw control byte in the headers:\n" + repr(head))
    return [h for h in head.replace("\n ", " ").split("\n")[1:]]


def mailinfo(d, mail):
    p = subprocess.run(["git", "-C", d, "mailinfo", os.devnull, os.devnull], stdin=open(mail, "rb"),
                       capture_output=True, text=True)
    check(p.returncode == 0, p.stderr)
    return dict(line.split(": ", 1) for line in p.stdout.splitlines() if line)


@test
def patch_mails_carry_no_header_from_a_folder_name():
    rel = EVIL_DIR + "/utf8.c"
    d, report = mail_repo("fix-mail-dir", {rel: UTF8_LIKE})
    p = run(["fix", report, "--dry-run"])
    check('--- "a/lib\\nCc: attacker@evil.example\\nX/utf8.c"\t\n' in p.stdout, "dry run:\n" + p.stdout)
    mail, = mails_of(d, report, "fix-mail-dir-mails")
    names = [h.split(":", 1)[0] for h in headers(mail)]
    check(names == ["From", "Date", "Subject"], "headers: %s\n%s" % (names, open(mail).read()))
    text = open(mail).read()
    check('diff --git "a/lib\\nCc: attacker@evil.example\\nX/utf8.c" '
          '"b/lib\\nCc: attacker@evil.example\\nX/utf8.c"\n' in text, text)
    check("\nCc:" not in text.split("\n---\n")[0], "a Cc: line in the message:\n" + text)
    info = mailinfo(d, mail)
    check(set(info) == {"Author", "Email", "Subject", "Date"} and info["Email"] == "fix@example.org", info)
    git(d, "am", "-q", mail)
    check("unsigned char *p" in open(os.path.join(d, rel)).read(), "git am did not fix " + repr(rel))
    check(git(d, "diff", "--name-only", "HEAD~1", "-z") == rel + "\0", "git am changed other files")


@test
def patch_mails_carry_no_header_or_diff_from_a_fix_description():
    d, report = mail_repo("fix-mail-desc", {"lib/utf8.c": UTF8_LIKE, "Makefile": "all:\n"})
    sarif = open(report).read()
    evil = ("Declare it\\nCc: attacker@evil.example\\n\\n---\\ndiff --git a/Makefile b/Makefile\\n"
            "--- a/Makefile\\n+++ b/Makefile\\n@@ -1 +1 @@\\n-all:\\n+all: evil\\n")
    check("\"Declare 'p' with unsigned char\"" in sarif, "no fix description in the report")
    write(report, sarif.replace("\"Declare 'p' with unsigned char\"", '"%s"' % evil))
    mail, = mails_of(d, report, "fix-mail-desc-mails")
    check([h.split(":", 1)[0] for h in headers(mail)] == ["From", "Date", "Subject"], open(mail).read())
    git(d, "am", "-q", mail)
    check(open(os.path.join(d, "Makefile")).read() == "all:\n", "the description's diff was applied")
    check("unsigned char *p" in open(os.path.join(d, "lib/utf8.c")).read(), "git am: utf8.c")
    log = git(d, "log", "-1", "--format=%B")
    check("\\x0a---\\x0adiff --git" in log, "the description is not in the message:\n" + log)


# user.name as set, and what git am must make of it: git's own ident
# (git var), but never the address of a name holding '@'.
AUTHORS = ['J. R. "Bob" Dobbs', "Eve <eve@evil.example>", "Doe, John", "Zo\u00eb \u00dcn\u00efcode",
           "Back\\slash (comment) [x]", "a=?b", "Tab\there", "Carriage\rReturn",
           "A long name of many words that git folds before the seventy-eighth column"]


@test
def patch_mail_authors_survive_git_am():
    for k, name in enumerate(AUTHORS):
        d, report = mail_repo("fix-mail-author-%d" % k, {"lib/utf8.c": UTF8_LIKE}, user=name)
        mail, = mails_of(d, report, "fix-mail-author-%d-mails" % k)
        names = [h.split(":", 1)[0] for h in headers(mail)]
        check(names == ["From", "Date", "Subject"] + (["MIME-Version", "Content-Type",
              "Content-Transfer-Encoding"] if "\u00eb" in name else []), "%r: %s" % (name, names))
        ident = subprocess.run(["git", "-C", d, "var", "GIT_AUTHOR_IDENT"], capture_output=True,
                               text=True).stdout.rsplit(" ", 2)[0]
        info = mailinfo(d, mail)
        check(info["Email"] == "fix@example.org", "%r: mailinfo %s" % (name, info))
        # What git format-patch writes for a commit by this author (git
        # config, not the git() helper's -c user.name).
        write(os.path.join(d, "lib/utf8.c"), UTF8_LIKE + "\n")
        p = subprocess.run(["git", "-C", d, "commit", "-q", "-a", "-m", "x"], capture_output=True, text=True)
        check(p.returncode == 0, p.stderr)
        theirs = git(d, "format-patch", "-1", "--stdout")
        want = theirs[theirs.index("\nFrom: ") + 1:theirs.index("\nDate: ") + 1]
        ours = open(mail).read()
        ours = ours[ours.index("\nFrom: ") + 1:ours.index("\nDate: ") + 1]
        if "@" in ident.split(" <")[0]:
            check(ours == "From: <fix@example.org>\n", "%r: %s" % (name, ours))
        elif not any(c in name for c in "\t\r"):
            check(ours == want, "%r: ours\n%s\ngit's\n%s" % (name, ours, want))
        git(d, "reset", "-q", "--hard", "HEAD~1")
        p = subprocess.run(["git", "-C", d, "am", "-q", mail], capture_output=True, text=True)
        check(p.returncode == 0, "%r: git am: %s" % (name, p.stderr))
        author = git(d, "log", "-1", "--format=%an <%ae>").strip()
        if "@" in ident.split(" <")[0] or len(ident.split(" <")[0]) > 60:
            # git am takes the address for a name it cannot carry.
            ident = "fix@example.org <fix@example.org>"
        # and turns a run of whitespace (a tab, a CR) into a space.
        ident = re.sub(r"\s+", " ", ident)
        check(author == ident, "%r: git am made %r, git makes %r" % (name, author, ident))


@test
def patch_mail_subjects_are_encoded_and_folded_as_git_does():
    for k, desc in enumerate(["Declare 'p' with unsigned char, as the bytes of a byte order mark are above 0x7f",
                              "Declare 'p' with unsigned char: \u00fcber \u00e9l\u00e8ve =?x?= _"]):
        d, report = mail_repo("fix-mail-subject-%d" % k, {"lib/utf8.c": UTF8_LIKE})
        write(report, open(report).read().replace("\"Declare 'p' with unsigned char\"", json.dumps(desc)))
        mail, = mails_of(d, report, "fix-mail-subject-%d-mails" % k)
        headers(mail)
        git(d, "am", "-q", mail)
        title = "-funsigned-char, lib: d" + desc[1:]
        check(git(d, "log", "-1", "--format=%s").strip() == title, git(d, "log", "-1", "--format=%s"))
        theirs = git(d, "format-patch", "-1", "--stdout")
        ours = open(mail, encoding="utf-8").read()
        part = [t[t.index("\nSubject: "):t.index("\n\n")] for t in (ours, theirs)]
        check(part[0] == part[1], "ours:\n%s\ngit's:\n%s" % tuple(part))
