"""Pre-merge and editor tests: baselines, --diff, merge, suppressions, the
config file, the kbuild calling convention, the git hook and CI step, and
what vim's quickfix reads.  Each builds its own git repository."""
import concurrent.futures
import json
import os
import subprocess

from harness import (Env, ROOT, check, load, results, run, scratch, test, validate,
                     write, TEXT_LINE)

# A small project: lib.h is included by a.c only; c.c is built without a
# dependency file.
LIB_H = """\
#ifndef LIB_H
#define LIB_H
static inline int lib_ok(int x)
{
	return x > 0;
}
#endif
"""

A_C = """\
#include "lib.h"

int a_first(const char *s)
{
	char c = s[0];

	return c == -1;
}

int a_second(const char *s)
{
	char d = s[1];

	return d == -1;
}
"""

B_C = """\
int b_old(const char *s)
{
	char c = s[0];

	return c == -1;
}
"""

# Appended to B_C: a new finding at line 11.
B_NEW = "int b_new(const char *s)\n{\n\tchar n = s[2];\n\n\treturn n == -1;\n}\n"

C_C = """\
#include "lib.h"

int c_fun(int x)
{
	return lib_ok(x);
}
"""


def git(d, *args):
    p = subprocess.run(["git", "-C", d] + list(args), capture_output=True, text=True)
    check(p.returncode == 0, "git %s: %s" % (" ".join(args), p.stderr))
    return p.stdout


def project(name, files=None, build_db=True):
    """A committed git repository with a compile database in build/, whose
    TUs were really compiled (so a.o and b.o have -MD dependency files)."""
    d = scratch(name)
    git(d, "init", "-q", "-b", "main")
    git(d, "config", "user.email", "t@example.org")
    git(d, "config", "user.name", "charscan tests")
    files = files or {"lib.h": LIB_H, "a.c": A_C, "b.c": B_C, "c.c": C_C}
    for f, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
        write(os.path.join(d, f), text)
    build = os.path.join(d, "build")
    os.makedirs(build)
    entries = []
    for f in sorted(x for x in files if x.endswith(".c") and build_db):
        obj = os.path.join(build, os.path.basename(f)[:-2] + ".o")
        argv = ["clang", "-c", os.path.join(d, f), "-o", obj]
        if f != "c.c":
            argv += ["-MD"]
        subprocess.run(argv, check=True, capture_output=True)
        entries.append({"directory": build, "file": os.path.join(d, f), "arguments": argv})
    write(os.path.join(build, "compile_commands.json"), json.dumps(entries, indent=1))
    write(os.path.join(d, ".gitignore"), "build/\n*.sarif\n")
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "initial")
    return d


def scan(d, *args, db=None):
    return run(["-p", db or os.path.join(d, "build"), "--srcroot", d] + list(args), cwd=d)


def by_line(sarif):
    """{(uri, line, rule): result}"""
    out = {}
    for r in results(sarif):
        loc = r["locations"][0]["physicalLocation"]
        out[(loc["artifactLocation"]["uri"], loc["region"]["startLine"], r["ruleId"])] = r
    return out


def edit(path, old, new):
    text = open(path).read()
    check(old in text, "test edit: %r not in %s" % (old, path))
    write(path, text.replace(old, new, 1))


# ---- baselines ------------------------------------------------------------

@test
def baseline_marks_new_unchanged_updated_absent():
    d = project("baseline")
    base = os.path.join(d, "base.sarif")
    p = scan(d, "-o", base, "-q")
    check(p.returncode == 1, "first scan exit %d: %s" % (p.returncode, p.stderr))
    check(set(by_line(base)) >= {("a.c", 7, "CS001"), ("a.c", 14, "CS001"), ("b.c", 5, "CS001")},
          "baseline findings %s" % sorted(by_line(base)))
    a = os.path.join(d, "a.c")
    # Lines inserted above everything: every finding moves.
    edit(a, '#include "lib.h"\n', '#include "lib.h"\n\n/* three */\n/* new */\n/* lines */\n')
    # a_second fixed; a new finding added in b.c; b_old's line edited.
    edit(a, "char d = s[1];", "signed char d = s[1];")
    edit(os.path.join(d, "b.c"), "return c == -1;", "return c == -1 || !s;")
    write(os.path.join(d, "b.c"), B_NEW, mode="a")
    now = os.path.join(d, "now.sarif")
    p = scan(d, "--baseline", base, "-o", now, "-q")
    check(p.returncode == 1, "exit %d" % p.returncode)
    validate(now)
    got = {k: r.get("baselineState") for k, r in by_line(now).items()}
    want = {("a.c", 11, "CS001"): "unchanged",     # moved 4 lines down
            ("a.c", 18, "CS001"): "absent",        # fixed: the baseline's result, kept
            ("b.c", 5, "CS001"): "updated",        # its line was edited
            ("b.c", 11, "CS001"): "new"}
    for k, state in want.items():
        if state == "absent":
            k = ("a.c", 14, "CS001")               # where the baseline had it
        check(got.get(k) == state, "%s: %s, want %s (all: %s)" % (k, got.get(k), state, got))
    # --new-only: only b_new counts, and the text shows only it.
    p = scan(d, "--baseline", base, "--new-only", "-q")
    check(p.returncode == 1, "--new-only exit %d" % p.returncode)
    lines = [l for l in p.stdout.splitlines() if ": note:" not in l]
    check(len(lines) == 1 and lines[0].startswith("b.c:11:"), "--new-only text: %s" % lines)
    # Without the new finding, --new-only passes although old ones remain.
    git(d, "checkout", "-q", "b.c")
    p = scan(d, "--baseline", base, "--new-only", "-q")
    check(p.returncode == 0, "--new-only with only old findings: exit %d\n%s" % (p.returncode, p.stdout))
    p = scan(d, "--baseline", os.path.join(d, "missing.sarif"), "-q")
    check(p.returncode == 2 and "missing.sarif" in p.stderr, "missing baseline: %d %s" % (p.returncode, p.stderr))
    check(scan(d, "--new-only").returncode == 2, "--new-only without --baseline accepted")


@test
def a_baseline_from_another_checkout_folder_gives_relative_absent_results():
    # CI's artifact: the baseline was scanned in another job's folder.
    there = project("baseline-there")
    base = os.path.join(there, "base.sarif")
    check(scan(there, "-o", base, "-q").returncode == 1, "baseline scan failed")
    here = project("baseline-here")
    edit(os.path.join(here, "a.c"), "char d = s[1];", "signed char d = s[1];")
    now = os.path.join(here, "now.sarif")
    p = scan(here, "--baseline", base, "-o", now, "-q")
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    validate(now)
    got = {k: r.get("baselineState") for k, r in by_line(now).items()}
    check(got.get(("a.c", 14, "CS001")) == "absent", "absent not relative to %%SRCROOT%%: %s" % got)
    check(set(got.values()) == {"unchanged", "absent"}, got)
    for r in results(now):
        for loc in r["locations"] + r.get("relatedLocations", []):
            art = loc["physicalLocation"]["artifactLocation"]
            check(art.get("uriBaseId") == "%SRCROOT%" and "baseline-there" not in art["uri"],
                  "%s result at %s" % (r.get("baselineState"), art))


# ---- merge ------------------------------------------------------------------

@test
def merge_makes_one_run_without_duplicates():
    d = project("merge", {"lib.h": LIB_H.replace("return x > 0;", "char c = x;\n\treturn c < 0;"),
                          "a.c": A_C, "b.c": B_C, "c.c": C_C})
    outs = []
    for f, rules in (("a.c", "CS001,CS002"), ("c.c", "CS002"), ("b.c", "CS001")):
        out = os.path.join(d, f + ".sarif")
        scan(d, "--rules", rules, "-o", out, "-q", os.path.join(d, f))
        outs.append(out)
    both = [by_line(o) for o in outs]
    check(("lib.h", 6, "CS002") in both[0] and ("lib.h", 6, "CS002") in both[1],
          "the header finding is not in both inputs: %s" % both[:2])
    all_ = os.path.join(d, "all.sarif")
    p = run(["merge"] + outs + ["-o", all_])
    check(p.returncode == 0, "merge exit %d: %s" % (p.returncode, p.stderr))
    validate(all_)
    log = load(all_)
    check(len(log["runs"]) == 1, "%d runs" % len(log["runs"]))
    merged = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
               r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"])
              for r in log["runs"][0]["results"]]
    union = set().union(*[set(b) for b in both])
    check(sorted(merged) == sorted(union) and len(merged) == len(set(merged)),
          "merged %s, want %s" % (merged, sorted(union)))
    check(merged == sorted(merged, key=lambda k: (k[0], k[1], k[2])), "results not sorted")
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    for r in log["runs"][0]["results"]:
        check(rules[r["ruleIndex"]] == r["ruleId"], "ruleIndex %s" % r)
    # Runs of another source root are not one run; the output is left alone.
    other = os.path.join(d, "other.sarif")
    run(["-p", os.path.join(d, "build"), "-o", other, "-q"], cwd=d)
    p = run(["merge", outs[0], other, "-o", all_])
    check(p.returncode == 2 and "SRCROOT" in p.stderr, "srcroot clash: %d %s" % (p.returncode, p.stderr))
    check(load(all_) == log, "a failed merge changed the output")
    p = run(["merge", outs[0], os.path.join(d, "a.c"), "-o", all_])
    check(p.returncode == 2 and "a.c" in p.stderr, "non-SARIF input: %s" % p.stderr)


@test
def merge_prints_text_as_the_scan_does():
    d = project("mergetext", {"lib.h": LIB_H, "a.c": A_C, "b.c": B_C, "c.c": C_C})
    whole = scan(d, "-o", os.path.join(d, "whole.sarif"), "--format", "text", "-q")
    parts = []
    for k in (1, 2):
        parts.append(os.path.join(d, "part%d.sarif" % k))
        scan(d, "--shard", "%d/2" % k, "-o", parts[-1], "-q")
    p = run(["merge"] + parts + ["-o", os.path.join(d, "all.sarif"), "--format", "text"], cwd=d)
    check(p.returncode == 0 and "[CS" in whole.stdout and p.stdout == whole.stdout,
          "merge text (exit %d):\n%s\nscan text:\n%s" % (p.returncode, p.stdout, whole.stdout))
    p = run(["merge"] + parts + ["-o", os.path.join(d, "all.sarif")], cwd=d)
    check(p.returncode == 0 and p.stdout == "", "merge without --format text printed %r" % p.stdout)


# ---- suppressions -----------------------------------------------------------

@test
def in_source_suppressions_are_kept_in_sarif():
    code = """\
int s1(const char *s)
{
	char c = s[0];

	/* charscan-ignore CS001: the protocol never sends 0xff */
	return c == -1;
}

int s2(const char *s)
{
	char c = s[0];

	return c == -1;	// charscan-ignore char-compare-dead,CS004
}

int s3(const char *s)
{
	char c = s[0];

	/* charscan-ignore CS004: another rule */
	return c == -1;
}

const char *s4(const char *s)
{
	char c = s[0];

	return c == -1 ? "charscan-ignore CS001" : s;
}
"""
    d = project("suppress", {"s.c": code})
    out = os.path.join(d, "s.sarif")
    p = scan(d, "-o", out, "--format", "text", "-q")
    validate(out)
    got = by_line(out)
    check(set(got) == {("s.c", 6, "CS001"), ("s.c", 13, "CS001"), ("s.c", 21, "CS001"),
                       ("s.c", 28, "CS001")}, "results %s" % sorted(got))
    sup = {k[1]: r.get("suppressions") for k, r in got.items()}
    check(sup[6] == [{"kind": "inSource", "status": "accepted",
                      "justification": "the protocol never sends 0xff"}], "line 6: %s" % sup[6])
    check(sup[13] and sup[13][0]["kind"] == "inSource", "line 13 (same-line //): %s" % sup[13])
    check(sup[21] is None, "a suppression of another rule suppressed CS001")
    check(sup[28] is None, "a string literal suppressed a finding")
    shown = sorted(int(l.split(":")[1]) for l in p.stdout.splitlines() if "[CS" in l)
    check(shown == [21, 28], "text shows %s" % shown)
    check(p.returncode == 1, "exit %d" % p.returncode)
    write(os.path.join(d, "s.c"), code.replace("\t/* charscan-ignore CS004: another rule */\n", "")
          .replace('"charscan-ignore CS001" : s;', '"x" : s; /* charscan-ignore CS001 */')
          .replace("int s3(const char *s)\n{\n\tchar c = s[0];\n\n\treturn c == -1;",
                   "int s3(const char *s)\n{\n\tchar c = s[0];\n\n\treturn c == -1; /* charscan-ignore CS001: ok */"))
    p = scan(d, "-q")
    check(p.returncode == 0 and not p.stdout.strip(), "all suppressed: exit %d\n%s" % (p.returncode, p.stdout))


# ---- configuration ------------------------------------------------------------

@test
def config_file_sets_rules_levels_and_excludes():
    d = project("config", {"lib.h": LIB_H, "a.c": A_C, "vendor/v.c": B_C,
                           "m.c": "int m(const char *s)\n{\n\treturn s[0] < 0;\n}\n"})
    write(os.path.join(d, ".charscan"),
          "# project settings\nrules = -CS002   # sign tests are idiomatic here\n"
          "level.char-compare-dead = error\nexclude = vendor/\nfail-on = error\n")
    out = os.path.join(d, "c.sarif")
    p = scan(d, "-o", out, "-q")
    validate(out)
    got = by_line(out)
    check(got and all(k[0] == "a.c" for k in got), "vendor/ or CS002 not excluded: %s" % sorted(got))
    check(all(r["level"] == "error" for r in got.values()), "level override: %s" %
          [r["level"] for r in got.values()])
    check(p.returncode == 1, "fail-on error with error findings: exit %d" % p.returncode)
    # The command line wins over the file.
    got = by_line_text(scan(d, "--rules", "CS002", "-q").stdout)
    check(got == {("m.c", "CS002")}, "--rules over config: %s" % got)
    write(os.path.join(d, "alt.conf"), "rules = CS001\nlevel.CS001 = note\n")
    p = scan(d, "--config", os.path.join(d, "alt.conf"), "-q")
    check(p.returncode == 0 and ": note: " in p.stdout, "--config file: %d %s" % (p.returncode, p.stdout))
    for bad, why in (("colour = blue\n", "unknown setting"), ("level.CS999 = note\n", "unknown rule"),
                     ("level.CS001 = fatal\n", "note, warning or error"), ("rules\n", "key = value")):
        write(os.path.join(d, "bad.conf"), "# ok\n" + bad)
        p = scan(d, "--config", os.path.join(d, "bad.conf"), "-o", out)
        check(p.returncode == 2 and "bad.conf:2: " in p.stderr and why in p.stderr,
              "bad config %r: %d %s" % (bad, p.returncode, p.stderr))
    p = scan(d, "--config", os.path.join(d, "none.conf"))
    check(p.returncode == 2 and "none.conf" in p.stderr, "missing --config: %s" % p.stderr)


def by_line_text(stdout):
    out = set()
    for l in stdout.splitlines():
        m = TEXT_LINE.match(l)
        if m and m.group(7):
            out.add((m.group(1), m.group(7)))
    return out


# ---- --diff -----------------------------------------------------------------

def tus_scanned(stderr):
    for l in stderr.splitlines():
        if l.startswith("charscan: ") and " TUs, " in l:
            return int(l.split()[1])
    raise AssertionError("no summary line in %r" % stderr)


@test
def diff_scans_touched_tus_and_reports_changed_lines():
    d = project("diff")
    p = scan(d, "--diff", "HEAD")
    check(p.returncode == 0 and tus_scanned(p.stderr) == 0, "no change: %d %s" % (p.returncode, p.stderr))
    # A new finding in b.c, beside its old one: only the new is reported.
    write(os.path.join(d, "b.c"), B_NEW, mode="a")
    p = scan(d, "--diff", "HEAD")
    check(p.returncode == 1, "exit %d: %s" % (p.returncode, p.stderr))
    check(tus_scanned(p.stderr) == 1, "TUs scanned: %s" % p.stderr)
    check(by_line_text(p.stdout) == {("b.c", "CS001")} and "b.c:11:" in p.stdout and "b.c:5:" not in p.stdout,
          "reported: %s" % p.stdout)
    git(d, "commit", "-qam", "b_new")
    # A changed header: a.c includes it (its a.d says so), b.c does not,
    # c.c has no dependency file and is scanned to be safe.
    edit(os.path.join(d, "lib.h"), "return x > 0;", "char c = x;\n\n\treturn c < 0;")
    p = scan(d, "--diff", "HEAD")
    check(tus_scanned(p.stderr) == 2 and "1 TUs have no dependency file" in p.stderr,
          "header change scanned: %s" % p.stderr)
    check(by_line_text(p.stdout) == {("lib.h", "CS002")}, "header change reported: %s" % p.stdout)
    out = os.path.join(d, "diff.sarif")
    p = scan(d, "--diff", "HEAD~1", "-o", out, "-q")
    validate(out)
    check({(k[0], k[2]) for k in by_line(out)} == {("lib.h", "CS002"), ("b.c", "CS001")},
          "--diff HEAD~1: %s" % sorted(by_line(out)))
    # A range as CI writes it, on a branch.
    git(d, "checkout", "-q", "-b", "topic")
    git(d, "commit", "-qam", "lib change")
    git(d, "checkout", "-q", "main")
    git(d, "checkout", "-q", "topic")
    p = scan(d, "--diff", "main...topic", "-q")
    check(by_line_text(p.stdout) == {("lib.h", "CS002")}, "range: %s %s" % (p.stdout, p.stderr))
    for bad in ("--output=x", "no-such-rev"):
        p = scan(d, "--diff", bad, "-q")
        check(p.returncode == 2 and p.stderr, "--diff %s: %d %s" % (bad, p.returncode, p.stderr))
    nogit = scratch("diff-nogit")
    write(os.path.join(nogit, "compile_commands.json"), "[]")
    p = run(["-p", nogit, "--diff", "HEAD"], cwd=nogit)
    check(p.returncode == 2 and "git" in p.stderr, "not a repository: %s" % p.stderr)


@test
def diff_handles_odd_file_names():
    names = ["sp ace.c", 'quo"te.c', "t\tab.c"]
    d = project("diff-names", {n: B_C for n in names})
    for n in names:
        write(os.path.join(d, n), B_NEW, mode="a")
    out = os.path.join(d, "names.sarif")
    p = scan(d, "--diff", "HEAD", "-o", out)
    check(p.returncode == 1 and tus_scanned(p.stderr) == 3, "exit %d: %s" % (p.returncode, p.stderr))
    uris = sorted(k[0] for k in by_line(out))
    want = sorted(n.replace(" ", "%20").replace('"', "%22").replace("\t", "%09") for n in names)
    check(uris == want and all(k[1] == 11 for k in by_line(out)), "reported %s" % sorted(by_line(out)))


@test
def diff_follows_kbuild_dependency_files():
    """A kbuild-style entry: -Wp,-MMD,dir/.x.o.d at compile time, turned
    by fixdep into dir/.x.o.cmd, which is where --diff must look."""
    d = project("diff-kbuild", {"include/k.h": LIB_H, "k.c": '#include "k.h"\nint k(int x) { return lib_ok(x); }\n',
                                "other.c": "int other(void) { return 0; }\n"},
                build_db=False)
    build = os.path.join(d, "build")
    entries = []
    for f in ("k.c", "other.c"):
        obj = os.path.join(build, f[:-2] + ".o")
        argv = ["clang", "-Wp,-MMD,%s/.%s.o.d" % (build, f[:-2]), "-I", os.path.join(d, "include"),
                "-c", os.path.join(d, f), "-o", obj]
        subprocess.run(argv, check=True, capture_output=True)
        dep = open(os.path.join(build, ".%s.o.d" % f[:-2])).read()
        os.unlink(os.path.join(build, ".%s.o.d" % f[:-2]))
        deps = dep.split(":", 1)[1].replace("\\\n", " ").split()
        write(os.path.join(build, ".%s.o.cmd" % f[:-2]),
              "savedcmd_%s.o := %s\n\nsource_%s.o := %s\n\ndeps_%s.o := \\\n%s\n\n%s.o: $(deps_%s.o)\n" % (
                  f[:-2], " ".join(argv), f[:-2], deps[0], f[:-2],
                  "".join("  %s \\\n" % x for x in deps[1:]) + "  $(wildcard include/config/X) \\\n",
                  f[:-2], f[:-2]))
        entries.append({"directory": build, "file": os.path.join(d, f), "arguments": argv})
    write(os.path.join(build, "compile_commands.json"), json.dumps(entries))
    edit(os.path.join(d, "include", "k.h"), "return x > 0;", "char c = x;\n\n\treturn c < 0;")
    p = scan(d, "--diff", "HEAD")
    check(tus_scanned(p.stderr) == 1 and "no dependency file" not in p.stderr,
          "kbuild .cmd deps: %s" % p.stderr)
    check(by_line_text(p.stdout) == {("include/k.h", "CS002")}, "reported: %s" % p.stdout)


# ---- the git hook and the CI step ------------------------------------------------

def with_charscan_on_path():
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(Env.charscan) + os.pathsep + env["PATH"]
    return env


@test
def pre_commit_hook_blocks_new_findings_only():
    d = project("hook")
    hook = os.path.join(d, ".git", "hooks", "pre-commit")
    with open(os.path.join(ROOT, "premerge", "pre-commit")) as src:
        write(hook, src.read())
    os.chmod(hook, 0o755)
    env = with_charscan_on_path()
    env["CHARSCAN_DB"] = os.path.join(d, "build")

    def commit(msg):
        git(d, "add", "-A")
        return subprocess.run(["git", "-C", d, "commit", "-q", "-m", msg], capture_output=True,
                              text=True, env=env)
    # Unrelated change in a file with old findings: allowed.
    edit(os.path.join(d, "b.c"), "int b_old", "/* doc */\nint b_old")
    p = commit("doc")
    check(p.returncode == 0, "clean change rejected: %s" % p.stderr)
    write(os.path.join(d, "b.c"), B_NEW, mode="a")
    p = commit("bad")
    check(p.returncode != 0 and "b.c:12:" in p.stderr + p.stdout and "CS001" in p.stderr + p.stdout,
          "new finding not blocked: %d %s %s" % (p.returncode, p.stdout, p.stderr))
    edit(os.path.join(d, "b.c"), "char n = s[2];", "signed char n = s[2];")
    p = commit("fixed")
    check(p.returncode == 0, "fixed change rejected: %s %s" % (p.stdout, p.stderr))


@test
def ci_step_writes_sarif_and_fails_on_new_findings():
    d = project("ci")
    git(d, "checkout", "-q", "-b", "topic")
    write(os.path.join(d, "b.c"), B_NEW, mode="a")
    git(d, "commit", "-qam", "topic")
    env = with_charscan_on_path()
    env.update(CHARSCAN_DB=os.path.join(d, "build"), CHARSCAN_BASE="main",
               CHARSCAN_SARIF=os.path.join(d, "ci.sarif"))
    p = subprocess.run(["sh", os.path.join(ROOT, "premerge", "ci-step.sh")], cwd=d,
                       capture_output=True, text=True, env=env)
    check(p.returncode == 1, "CI step exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    validate(os.path.join(d, "ci.sarif"))
    check(set(by_line(os.path.join(d, "ci.sarif"))) == {("b.c", 11, "CS001")},
          "CI SARIF: %s" % sorted(by_line(os.path.join(d, "ci.sarif"))))
    git(d, "checkout", "-q", "main")
    p = subprocess.run(["sh", os.path.join(ROOT, "premerge", "ci-step.sh")], cwd=d,
                       capture_output=True, text=True, env=env)
    check(p.returncode == 0, "CI step on main: %d %s" % (p.returncode, p.stderr))


@test
def ci_step_fails_a_change_that_switches_the_check_off():
    d = project("ci-off")
    git(d, "checkout", "-q", "-b", "topic")
    write(os.path.join(d, "b.c"), B_NEW, mode="a")
    write(os.path.join(d, ".charscan"), "exclude = *\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "topic")
    env = with_charscan_on_path()
    env.update(CHARSCAN_DB=os.path.join(d, "build"), CHARSCAN_BASE="main",
               CHARSCAN_SARIF=os.path.join(d, "ci.sarif"))
    p = subprocess.run(["sh", os.path.join(ROOT, "premerge", "ci-step.sh")], cwd=d,
                       capture_output=True, text=True, env=env)
    check(p.returncode == 3 and "nothing was scanned: every TU excluded by" in p.stderr,
          "CI step exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    validate(os.path.join(d, "ci.sarif"))
    text = open(os.path.join(ROOT, "premerge", "github-actions.yml")).read()
    check("ci-step.sh" in text, "the workflow does not run ci-step.sh")


# ---- kbuild's CHECK convention -----------------------------------------------------

@test
def kbuild_mode_takes_compiler_flags_and_appends_concurrently():
    files = {"k%d.c" % i: "int k%d(const char *s)\n{\n\tchar c = s[0];\n\n\treturn c == -1;\n}\n" % i
             for i in range(8)}
    files["inc.h"] = "static inline int shared(const char *s)\n{\n\treturn s[0] < 0;\n}\n"
    for i in range(8):
        files["k%d.c" % i] = '#include "inc.h"\n' + files["k%d.c" % i]
    d = project("kbuild", files)
    out = os.path.join(d, "k.sarif")
    env = dict(os.environ, srctree=".")
    # As kbuild calls $(CHECK) $(CHECKFLAGS) $(c_flags) $<.
    flags = ["-D__linux__", "-Dlinux", "-D__STDC__", "-Dunix", "-D__unix__", "-Wbitwise",
             "-Wno-return-void", "-Wno-unknown-attribute", "-D__x86_64__", "-m64",
             "-Wp,-MMD,./.x.o.d", "-nostdinc", "-O2", "-DKBUILD_BASENAME='\"k\"'"]

    def check_one(i):
        return subprocess.run([Env.charscan, "-o", out, "--kbuild"] + flags + ["k%d.c" % i],
                              cwd=d, capture_output=True, text=True, env=env)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        procs = list(pool.map(check_one, range(8)))
    for i, p in enumerate(procs):
        check(p.returncode == 0, "k%d.c: exit %d %s" % (i, p.returncode, p.stderr))
        check("k%d.c:6:" % i in p.stderr and "[CS001]" in p.stderr and not p.stdout,
              "k%d.c: text on stderr: %r" % (i, p.stderr))
        check(all(TEXT_LINE.match(l) for l in p.stderr.splitlines()), "not gcc-style: %s" % p.stderr)
    check(not os.path.exists(os.path.join(d, ".x.o.d")), "a dependency file was written")
    validate(out)
    got = sorted(by_line(out))
    want = sorted([("k%d.c" % i, 6, "CS001") for i in range(8)] + [("inc.h", 3, "CS002")])
    check(got == want, "appended SARIF %s, want %s" % (got, want))
    check(load(out)["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + d + "/",
          "srcroot is not $srctree")
    # CHECK=charscan alone: kbuild's first flag says it is kbuild.
    p = subprocess.run([Env.charscan] + flags + ["k1.c"], cwd=d, capture_output=True, text=True, env=env)
    check(p.returncode == 0 and p.stderr == procs[1].stderr, "detected kbuild call: %d %r" % (
        p.returncode, p.stderr))
    p = subprocess.run([Env.charscan, "--fail-on", "warning", "--kbuild"] + flags + ["k0.c"],
                       cwd=d, capture_output=True, text=True, env=env)
    check(p.returncode == 1, "--fail-on in kbuild mode: %d" % p.returncode)
    p = subprocess.run([Env.charscan, "--kbuild"], cwd=d, capture_output=True, text=True)
    check(p.returncode == 2, "--kbuild without a file: %d" % p.returncode)


# ---- editors --------------------------------------------------------------------

@test
def emacs_compilation_mode_reads_the_text_output():
    d = project("emacs")
    p = scan(d, "-q")
    errs = write(os.path.join(d, "errors.txt"), p.stdout)
    e = subprocess.run(["emacs", "--batch", "-Q", "-l", os.path.join(ROOT, "tests", "emacs-compilation.el"),
                        errs, d], capture_output=True, text=True, timeout=120)
    got = [l.rsplit(":", 3) for l in e.stdout.splitlines()]
    want = [TEXT_LINE.match(l) for l in p.stdout.splitlines()]
    check(want and len(got) == len(want), "emacs read %d messages of %d: %s" % (len(got), len(want), e.stderr))
    for g, w in zip(got, want):
        kind = {"error": "2", "warning": "1", "note": "0"}[w.group(4)]
        check(g == [w.group(1), w.group(2), w.group(3), kind], "emacs %s for %r" % (g, w.group(0)))


@test
def vim_quickfix_reads_the_text_output():
    d = project("vim")
    p = scan(d, "-q")
    errs = os.path.join(d, "errors.txt")
    write(errs, p.stdout)
    qf = os.path.join(d, "qf.txt")
    # With the gcc compiler plugin, as :make users have it.
    script = ("compiler gcc\ncfile %s\nredir! > %s\nfor e in getqflist()\n"
              "echo bufname(e.bufnr) . ':' . e.lnum . ':' . e.col . ':' . e.type . ':' . e.valid\n"
              "endfor\nredir END\nqa!\n") % (errs, qf)
    write(os.path.join(d, "qf.vim"), script)
    subprocess.run(["vim", "-u", "NONE", "-N", "-es", "-S", os.path.join(d, "qf.vim")], cwd=d,
                   capture_output=True, timeout=60)
    got = [l.split(":") for l in open(qf).read().split("\n") if l.strip()]
    want = [TEXT_LINE.match(l) for l in p.stdout.splitlines()]
    check(len(got) == len(want) and want, "vim read %d entries of %d" % (len(got), len(want)))
    for g, w in zip(got, want):
        kind = {"error": "e", "warning": "w", "note": ""}[w.group(4)]
        check(g == [w.group(1), w.group(2), w.group(3), kind, "1"],
              "vim entry %s for %r" % (g, w.group(0)))


@test
def sarif_is_ready_for_viewers_and_github():
    """What GitHub code scanning and the VS Code SARIF viewer read: repo-
    relative URIs under %SRCROOT%, UTF-16 columns (a tab is one), related
    locations linked from the message, fixes as artifactChanges, rule help
    and helpUri, and the upload limits."""
    code = "int t(const char *s)\n{\n\tchar c = s[0];\n\n\t\treturn\tc == -1;\n}\n"
    d = project("viewer", {"sub/t.c": code})
    out = os.path.join(d, "t.sarif")
    scan(d, "-o", out, "-q")
    validate(out)
    run0 = load(out)["runs"][0]
    check(run0["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + d + "/", "SRCROOT")
    r = run0["results"][0]
    loc = r["locations"][0]["physicalLocation"]
    check(loc["artifactLocation"] == {"uri": "sub/t.c", "uriBaseId": "%SRCROOT%"}, "uri %s" % loc)
    line = code.splitlines()[4]
    check((loc["region"]["startLine"], loc["region"]["startColumn"]) == (5, line.index("c ==") + 1),
          "tab columns: %s" % loc["region"])
    ids = [x["id"] for x in r["relatedLocations"]]
    for i in ids:
        check("](%d)" % i in r["message"]["text"], "related %d not linked: %s" % (i, r["message"]["text"]))
    check(all(x["message"]["text"] for x in r["relatedLocations"]), "related location without message")
    change = r["fixes"][0]["artifactChanges"][0]
    check(change["artifactLocation"]["uri"] == "sub/t.c" and
          change["replacements"][0]["insertedContent"]["text"] == "signed char" and
          change["replacements"][0]["deletedRegion"]["startLine"] == 3, "fix %s" % change)
    rules = run0["tool"]["driver"]["rules"]
    for rule in rules:
        check(rule["helpUri"].endswith("/rules/%s.md" % rule["id"]), "helpUri " + rule["helpUri"])
        check(len(rule["fullDescription"]["text"]) <= 1024, rule["id"] + " fullDescription too long")
        check(len(rule["properties"]["tags"]) <= 10, rule["id"] + " more than 10 tags")
    check("primaryLocationLineHash" not in r["partialFingerprints"], "a GitHub-owned fingerprint")
    # The text output keeps the message plain.
    p = scan(d, "-q")
    check("](" not in p.stdout, "link syntax in the text output: %s" % p.stdout)


@test
def github_result_limit_is_announced():
    n = 5003
    code = "".join("int f%d(const char *s) { char c = s[0]; return c == -1; }\n" % i for i in range(n))
    d = project("limits", {"many.c": code})
    out = os.path.join(d, "many.sarif")
    p = scan(d, "-o", out)
    check(len(results(out)) == n, "%d results" % len(results(out)))
    check("GitHub code scanning keeps only 5000" in p.stderr, "no note: %s" % p.stderr[-300:])
    p = scan(d, "-o", out, "--rules", "CS004")
    check("GitHub" not in p.stderr, "note without reason: %s" % p.stderr)


@test
def github_result_limit_is_announced_by_merge():
    d = project("merge-limits", {"a.c": "int f(const char *s) { char c = s[0]; return c == -1; }\n"})
    one = os.path.join(d, "one.sarif")
    scan(d, "-o", one)
    # Shards of 12,501 results each: under the limit alone, over it merged.
    log = load(one)
    r = log["runs"][0]["results"][0]
    for half in range(2):
        log["runs"][0]["results"] = []
        for k in range(12501):
            x = json.loads(json.dumps(r))
            x["locations"][0]["physicalLocation"]["region"].update(startLine=2 + 2 * k + half,
                                                                   endLine=2 + 2 * k + half)
            log["runs"][0]["results"].append(x)
        write(os.path.join(d, "shard%d.sarif" % half), json.dumps(log))
    shards = [os.path.join(d, "shard%d.sarif" % half) for half in range(2)]
    out = os.path.join(d, "merged.sarif")
    p = run(["merge"] + shards + ["-o", out])
    check(p.returncode == 0 and len(results(out)) == 25002, "exit %d %s" % (p.returncode, p.stderr))
    check("warning: 25002 results: GitHub code scanning rejects a run of more than 25000"
          in p.stderr, "no warning: %s" % p.stderr)
    p = run(["merge", shards[0], "-o", out])
    check("GitHub code scanning keeps only 5000" in p.stderr and "rejects" not in p.stderr, p.stderr)
    p = run(["merge", one, "-o", out])
    check("GitHub" not in p.stderr, "warning without reason: %s" % p.stderr)
