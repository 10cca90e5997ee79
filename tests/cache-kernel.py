#!/usr/bin/env python3
"""cache-kernel.py CHARSCAN DB TREE CACHE EXPLAINED.sarif: the warm rescan.

make scan scanned the packaged kernel with --cache CACHE and wrote
EXPLAINED.sarif.  The same scan again, nothing changed, must parse no TU
that compiled (every answer comes from the cache; a TU that does not
compile is never kept, and is tried again) and write the same report
byte for byte; one source file touched (its bytes the same) still parses
nothing more.
Closing line: "N passed, N failed".
"""
import os
import re
import subprocess
import sys
import tempfile
import time

from harness import Tally

step = Tally()


def rescan(charscan, db, tree, cache, out):
    t0 = time.monotonic()
    p = subprocess.run([charscan, "-p", db, "--srcroot", tree, "--explain", "--cache", cache,
                        "-o", out], capture_output=True, text=True, errors="replace")
    return p, time.monotonic() - t0


def main():
    charscan, db, tree, cache, explained = sys.argv[1:6]
    out = os.path.join(tempfile.mkdtemp(prefix="charscan-warm."), "warm.sarif")
    p, secs = rescan(charscan, db, tree, cache, out)
    m = re.search(r"(\d+) TUs, (\d+) from the cache, (\d+) parsed, (\d+) failed", p.stderr)
    print("warm rescan: %.1f s; %s" % (secs, m.group(0) if m else p.stderr[-300:]))
    step("the warm rescan exits as the cold scan did", p.returncode in (0, 1, 3), p.stderr[-2000:])
    tus, cached, parsed, failed = map(int, m.groups()) if m else (0, 0, -1, 0)
    step("the warm rescan parses only the TUs that do not compile (%d)" % failed,
         parsed == failed and cached == tus - failed and failed < 10, p.stderr[-2000:])
    step("the warm report is the cold one byte for byte",
         os.path.exists(out) and open(out, "rb").read() == open(explained, "rb").read(), out)
    os.utime(os.path.join(tree, "arch/x86/events/intel/p4.c"))
    p, secs = rescan(charscan, db, tree, cache, out)
    m2 = re.search(r"(\d+) parsed", p.stderr)
    step("a touched file with the same bytes parses nothing more",
         bool(m2) and int(m2.group(1)) == parsed, p.stderr[-2000:])
    return step.close()


if __name__ == "__main__":
    sys.exit(main())
