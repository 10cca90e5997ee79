#!/usr/bin/env python3
"""fix-kernel.py CHARSCAN REPORT.sarif DB TREE OUT: charscan fix on the kernel.

From make scan's report of the packaged tree, `charscan fix --rules CS001
--patches` must write the p4.c mail: addressed by the tree's own
get_maintainer.pl, its diff byte for byte the diff of the series' p4.c
patch (kernel/patches/0002-*: the fix make boot builds and proves), and
git am must take it.  Applied to a hard-linked copy of the tree, the
rescan of p4.c no longer reports the finding and p4.c still compiles with
kbuild's own command.  Closing line: "N passed, N failed".
"""
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

from harness import Tally

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
P4 = "arch/x86/events/intel/p4.c"
step = Tally()


def diff_part(text):
    """From the first "--- a/" to the signature."""
    body = text[text.index("\n--- a/") + 1:]
    return body[:body.index("\n-- \n") + 1] if "\n-- \n" in body else body


def main():
    charscan, report, db, tree, out = map(os.path.abspath, sys.argv[1:6])
    mails = os.path.join(out, "fix-mails")
    shutil.rmtree(mails, ignore_errors=True)
    p = subprocess.run([charscan, "fix", report, "--rules", "CS001", "--patches", mails],
                       capture_output=True, text=True)
    files = sorted(glob.glob(os.path.join(mails, "*.patch")))
    if not step("charscan fix --rules CS001 --patches: one mail", p.returncode == 0 and len(files) == 1,
                "exit %d, %s\n%s" % (p.returncode, files, p.stderr)):
        return
    mail = open(files[0]).read()
    series = open(glob.glob(os.path.join(ROOT, "kernel", "patches", "0002-*.patch"))[0]).read()
    step("the mail's diff is the series' p4.c patch, byte for byte", diff_part(mail) == diff_part(series),
         diff_part(mail) + "\nvs\n" + diff_part(series))
    step("addressed by get_maintainer.pl", "To: Peter Zijlstra <peterz@infradead.org>" in mail and
         "linux-perf-users@vger.kernel.org" in mail and "Subject: [PATCH] -funsigned-char, x86/events:" in mail,
         mail[:800])

    # git am, in a repository of just that file.
    repo = os.path.join(out, "fix-am")
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.join(repo, os.path.dirname(P4)))
    shutil.copy(os.path.join(tree, P4), os.path.join(repo, P4))
    git = ["git", "-C", repo, "-c", "user.name=CI", "-c", "user.email=ci@invalid"]
    ok = all(subprocess.run(git + a, capture_output=True).returncode == 0
             for a in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "6.1"]))
    p = subprocess.run(git + ["am", files[0]], capture_output=True, text=True)
    step("git am takes the mail", ok and p.returncode == 0, p.stdout + p.stderr)

    # A hard-linked copy: patch(1) replaces the file, the tree is untouched.
    copy = os.path.join(out, "fix-tree")
    shutil.rmtree(copy, ignore_errors=True)
    subprocess.run(["cp", "-al", tree, copy], check=True)
    p = subprocess.run(["patch", "-d", copy, "-p1", "-s", "--no-backup-if-mismatch", "-i", files[0]],
                       capture_output=True, text=True)
    step("the mail applies to a copy of the tree", p.returncode == 0, p.stdout + p.stderr)
    entry = next(e for e in json.load(open(db)) if e["file"].endswith(P4))
    entry = json.loads(json.dumps(entry).replace(tree.rstrip("/") + "/", copy.rstrip("/") + "/"))
    fixed_db = os.path.join(out, "fix-db")
    os.makedirs(fixed_db, exist_ok=True)
    json.dump([entry], open(os.path.join(fixed_db, "compile_commands.json"), "w"))
    p = subprocess.run([charscan, "-p", fixed_db, "--srcroot", copy, "--rules", "CS001", "-q"],
                       capture_output=True, text=True)
    step("the rescan of the fixed p4.c has no CS001", p.returncode == 0 and "p4.c" not in p.stdout,
         "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    argv = entry.get("arguments") or shlex.split(entry["command"])
    argv = argv[:argv.index("-o") + 1] + [os.path.join(out, "fix-p4.o")] + argv[argv.index("-o") + 2:]
    p = subprocess.run(argv, cwd=entry["directory"], capture_output=True, text=True)
    step("the fixed p4.c compiles with kbuild's command", p.returncode == 0, p.stderr[-2000:])
    shutil.rmtree(copy, ignore_errors=True)
    step("the tree is untouched", "signed char cntr[2]" not in open(os.path.join(tree, P4)).read())


if __name__ == "__main__":
    main()
    sys.exit(step.close())
