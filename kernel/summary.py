#!/usr/bin/env python3
"""summary.py REPORT.sarif compile_commands.json TIMES [ARCH]: what a scan
found, and which of it breaks this build.

Every finding says under which signedness of plain char it misbehaves
(properties.breaksWhenCharIs); whether that is the build's own comes from
the database's kernel entries (those with kbuild's --target): the last
-fsigned-char / -funsigned-char on their command line, else what clang's
default is for that target (Linux 6.1 sets neither on any arch: arm64,
powerpc, s390 and riscv get unsigned char, x86, mips signed)."""
import collections
import json
import subprocess
import sys

SIGN_FLAGS = {"-fsigned-char": "signed", "-fno-unsigned-char": "signed",
              "-funsigned-char": "unsigned", "-fno-signed-char": "unsigned"}


def target_of(argv):
    for k, a in enumerate(argv):
        if a.startswith("--target="):
            return a[len("--target="):]
        if a == "-target" and k + 1 < len(argv):
            return argv[k + 1]
    return None


def build_char(entries):
    """(signedness, why) of plain char in the kernel's own TUs: the most
    common target and signedness flag among the entries that name a
    target (host programs name none), or (None, why)."""
    seen = collections.Counter()
    for e in entries:
        argv = e.get("arguments") or e.get("command", "").split()
        target = target_of(argv)
        if target:
            flags = [SIGN_FLAGS[a] for a in argv if a in SIGN_FLAGS]
            seen[(argv[0], target, flags[-1] if flags else None)] += 1
    if not seen:
        return None, "no --target in the database"
    (cc, target, flag), _ = seen.most_common(1)[0]
    if flag:
        return flag, "-f%s-char, %s" % (flag, target)
    try:
        p = subprocess.run([cc, "--target=" + target, "-E", "-dM", "-x", "c", "/dev/null"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None, "%s not found to ask about %s" % (cc, target)
    if p.returncode:
        return None, "%s does not know %s" % (cc, target)
    sign = "unsigned" if "#define __CHAR_UNSIGNED__ 1" in p.stdout else "signed"
    return sign, "the default of %s" % target


def breaks_line(results, arch, entries):
    """Which findings misbehave in this build, by their breaksWhenCharIs."""
    per_sign = collections.Counter(r.get("properties", {}).get("breaksWhenCharIs")
                                   for r in results)
    sign, why = build_char(entries)
    if sign is None:
        return "char on %s: unknown (%s); findings signed %d, unsigned %d, either %d" % (
            arch, why, per_sign["signed"], per_sign["unsigned"], per_sign["either"])
    other = "unsigned" if sign == "signed" else "signed"
    return ("char is %s on %s (%s): %d findings break this build (%d %s, %d either); "
            "%d only where char is %s" % (sign, arch, why, per_sign[sign] + per_sign["either"],
                                          per_sign[sign], sign, per_sign["either"],
                                          per_sign[other], other))


def main():
    sarif, db, times = sys.argv[1:4]
    arch = sys.argv[4] if len(sys.argv) > 4 else "x86_64"
    run = json.load(open(sarif))["runs"][0]
    entries = json.load(open(db))
    failed = [n for n in run["invocations"][0]["toolExecutionNotifications"]
              if n["level"] == "error"]
    per_rule = collections.Counter(r["ruleId"] for r in run["results"])
    per_dir = collections.Counter(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].split("/")[0]
        for r in run["results"])
    names = {r["id"]: r["name"] for r in run["tool"]["driver"]["rules"]}

    print("TUs scanned %d, failed %d, findings %d" % (len(entries), len(failed),
                                                      len(run["results"])))
    print(breaks_line(run["results"], arch, entries))
    for rule in sorted(per_rule):
        print("  %s %-24s %5d" % (rule, names[rule], per_rule[rule]))
    print("by top-level directory:")
    for d, n in per_dir.most_common():
        print("  %-24s %5d" % (d, n))
    for n in failed[:10]:
        print("failed: " + n["message"]["text"][:200])
    print("wall time:")
    sys.stdout.write("".join("  " + l for l in open(times)))
    # A report of nothing is not a scan: every TU failed (a database
    # made for another tree, a broken toolchain) fails the pipeline.
    if entries and len(failed) >= len(entries):
        sys.stderr.write("scan: every TU failed (%d): the database does not fit this tree "
                         "or this compiler\n" % len(entries))
        sys.exit(1)


if __name__ == "__main__":
    main()
