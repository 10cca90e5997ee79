#!/usr/bin/env python3
"""The compile database without a build (compile-db/dryrun.py) against
the one a real build wrote: the same TUs with the same argv (but for the
build folder), those kbuild builds after vmlinux's link (the boot image)
included.

    tests/dryrun-check.py SRC BUILT_DIR DRY_DIR

BUILT_DIR is a tree kbuild built (make boot's) (its compile_commands.json from
gen_compile_commands.py); DRY_DIR gets the same config, make prepare and
the dry run (compile-db/kernel.sh with DRYRUN=1).  Prints its figures;
exit 1 on any difference."""
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Built after vmlinux's link: the boot image and the link's timestamp.
POST_LINK = ("arch/x86/boot/", "init/version-timestamp.c")


def entries(db, src, build):
    out = {}
    for e in json.load(open(db)):
        f = e["file"]
        key = os.path.relpath(f, build) if f.startswith(build + "/") else os.path.relpath(f, src)
        argv = e.get("arguments") or shlex.split(e["command"])
        out[key] = [a.replace(build, "@BUILD@") for a in argv]
    return out


def main():
    src, built, dry = (os.path.abspath(a) for a in sys.argv[1:4])
    config = open(os.path.join(built, ".charscan-config")).read().split()
    shutil.rmtree(dry, ignore_errors=True)
    t0 = time.time()
    p = subprocess.run(["sh", os.path.join(ROOT, "compile-db", "kernel.sh"), src, dry] + config,
                       env=dict(os.environ, DRYRUN="1"), capture_output=True, text=True)
    took = time.time() - t0
    if p.returncode:
        sys.exit("kernel.sh DRYRUN=1 failed: %s%s" % (p.stdout, p.stderr))
    a = entries(os.path.join(built, "compile_commands.json"), src, built)
    b = entries(os.path.join(dry, "compile_commands.json"), src, dry)
    extra = sorted(set(b) - set(a))
    lost = sorted(set(a) - set(b))
    differ = sorted(f for f in set(a) & set(b) if a[f] != b[f])
    post_link = [f for f in b if f.startswith(POST_LINK)]
    print("dry run: %d TUs in %.0f s (configure + prepare + dry run), the build's database %d; "
          "same argv: %d (after the link: %d); differences: %d"
          % (len(b), took, len(a), len(set(a) & set(b)) - len(differ), len(post_link),
             len(extra) + len(lost) + len(differ)))
    for line in p.stderr.splitlines():
        if "will not parse" in line:	# a header only the link makes
            print(line)
    if not post_link:
        print("the objects built after the link (%s) are missing" % " ".join(POST_LINK))
        return 1
    for what, files in (("only in the dry run", extra), ("missing from the dry run", lost),
                        ("other argv", differ)):
        if files:
            print("%s: %s" % (what, " ".join(files[:10])))
    return 1 if extra or lost or differ else 0


if __name__ == "__main__":
    sys.exit(main())
