"""The kernel series and its proof, checked without a kernel build: seed
004's cmsg_sender found before its fix and not after (bear's database of
a two-file selftest), the patch series applying idempotently and
reverting, the KTAP parser and the boot verdict over four kernels' logs."""
import json
import os
import re
import shutil
import subprocess

from harness import ROOT, Env, check, results, run, scratch, test, validate, write  # noqa: F401


SEED_004 = os.path.join(ROOT, "kernel", "selftest", "cmsg_sender-char-signedness.patch")


@test
def seed_004_cmsg_sender_found_before_fix_and_not_after():
    tree = os.path.join(ROOT, "work", "linux-6.1")
    src = tree if os.path.isdir(tree) else "/usr/src/linux-source-6.1.tar.xz"
    found = {}
    for state, patch in (("before", [SEED_004]), ("after", [])):
        d = os.path.join(Env.work, "seed004-" + state)
        p = subprocess.run(["sh", os.path.join(ROOT, "compile-db", "selftest.sh"), src, d,
                            "net", "cmsg_sender"] + patch, capture_output=True, text=True)
        check(p.returncode == 0, "selftest.sh %s: %s" % (state, p.stderr))
        entries = json.load(open(os.path.join(d, "compile_commands.json")))
        check(any("-cc1" in e["arguments"] for e in entries), "bear recorded no -cc1 entry (test premise)")
        out = os.path.join(d, "o.sarif")
        p = run(["-p", d, "-o", out, "--srcroot", d, "-q"])
        check(p.returncode in (0, 1), "exit %d: %s" % (p.returncode, p.stderr))
        validate(out)
        found[state] = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
                         r["locations"][0]["physicalLocation"]["region"]["startColumn"])
                        for r in results(out)]
    # The seed's compiler error: cmsg_sender.c:455:12, 128 into char.
    check(found["before"] == [("CS004", 455, 12)], "before: %s" % found["before"])
    check(found["after"] == [], "after the fix: %s" % found["after"])


# ---- kernel patch series and boot verdict ----------------------------------

@test
def patch_series_applies_idempotently_and_reverts():
    d = scratch("series")
    files = ["Makefile", "arch/x86/events/intel/p4.c", "arch/x86/kernel/early_printk.c",
             "fs/ext4/xattr.c", "lib/Makefile", "lib/Kconfig.debug"]
    tree = os.path.join(ROOT, "work", "linux-6.1")
    if os.path.isdir(tree):
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
            shutil.copy(os.path.join(tree, f), os.path.join(d, f))
    else:
        p = subprocess.run(["tar", "-xJf", "/usr/src/linux-source-6.1.tar.xz", "-C", d,
                            "--strip-components=1"] + ["linux-source-6.1/" + f for f in files],
                           capture_output=True, text=True)
        check(p.returncode == 0, p.stderr)
    orig = {f: open(os.path.join(d, f)).read() for f in files}
    sh = ["sh", os.path.join(ROOT, "kernel", "patches.sh")]
    for _ in range(2):
        p = subprocess.run(sh + ["apply", d], capture_output=True, text=True)
        check(p.returncode == 0, "apply: " + p.stdout + p.stderr)
    check("-funsigned-char" in open(os.path.join(d, "Makefile")).read(), "kbuild patch not applied")
    check("signed char cntr[2]" in open(os.path.join(d, "arch/x86/events/intel/p4.c")).read(), "p4 patch")
    check(os.path.exists(os.path.join(d, "lib/char_signedness_kunit.c")), "KUnit suite not added")
    st = subprocess.run(sh + ["status", d], capture_output=True, text=True).stdout
    series = [l for l in open(os.path.join(ROOT, "kernel", "patches", "series")) if l.strip()]
    check(st.count("applied") == len(series), st)
    # "only": the unsigned kernel without fixes, from the whole series.
    p = subprocess.run(sh + ["only", d, os.path.join(ROOT, "kernel", "patches", "series.unfixed")],
                       capture_output=True, text=True)
    check(p.returncode == 0, "only: " + p.stdout + p.stderr)
    p4 = open(os.path.join(d, "arch/x86/events/intel/p4.c")).read()
    check("signed char cntr[2]" not in p4 and '#include "p4_kunit.c"' in p4, "only: fix kept or test lost")
    check("-funsigned-char" in open(os.path.join(d, "Makefile")).read(), "only: kbuild patch lost")
    for _ in range(2):
        p = subprocess.run(sh + ["unapply", d], capture_output=True, text=True)
        check(p.returncode == 0, "unapply: " + p.stdout + p.stderr)
    check(all(open(os.path.join(d, f)).read() == orig[f] for f in files), "unapply did not restore the tree")
    # A tree the series does not fit: loud failure, nothing half-applied.
    write(os.path.join(d, "arch/x86/events/intel/p4.c"), "/* something else */\n")
    p = subprocess.run(sh + ["apply", d], capture_output=True, text=True)
    check(p.returncode != 0 and "does not apply" in p.stderr, "bad tree accepted: " + p.stdout)
    check(not any(n.endswith((".rej", ".orig")) for _, _, fs in os.walk(d) for n in fs), "rejects left")


KTAP_LOG = """\
[    0.100000] Linux version 6.1.192
[    0.500000] KTAP version 1
[    0.500001] 1..3
[    0.500002]     KTAP version 1
[    0.500003]     # Subtest: alpha
[    0.500004]     1..2
[    0.500005]     ok 1 alpha_one
[    0.500006]         KTAP version 1
[    0.500007]         # Subtest: alpha_param
[    0.500008]         ok 1 first
[    0.500009]         not ok 2 second
[    0.500010]     not ok 2 alpha_param
[    0.500011] not ok 1 alpha
[    0.600000]     # Subtest: beta
[    0.600001]     1..1
[    0.600002]     ok 1 beta_one # SKIP not here
[    0.600003] ok 2 beta
[    0.700000]     # Subtest: gamma
[    0.700001]     1..1
[    0.700002]     ok 1 - gamma_one
[    0.700003] ok 3 - gamma
charscan-boot: done
"""


@test
def ktap_parser_counts_suites_and_cases():
    d = scratch("ktap")
    log = write(os.path.join(d, "boot.log"), KTAP_LOG)
    p = subprocess.run(["python3", os.path.join(ROOT, "boot", "ktap.py"), log], capture_output=True, text=True)
    check(p.returncode == 0, p.stderr)
    r = json.loads(p.stdout)
    check(r["summary"] == {"suites": 3, "suites_failed": 1, "cases": 4, "passed": 2, "failed": 1, "skipped": 1},
          "summary %s" % r["summary"])
    check(r["suites"]["alpha"]["cases"] == {"alpha_one": "pass", "alpha_param": "fail"}, r["suites"]["alpha"])
    check(r["suites"]["gamma"]["cases"] == {"gamma_one": "pass"}, r["suites"]["gamma"])


BOOT_KERNELS = ("signed", "signed-fixed", "unsigned", "unsigned-fixed")


def boot_verdict(d, logs, proofs):
    """compare.py over one log per kernel: (exit status, report text)."""
    for n in BOOT_KERNELS:
        text = logs[n].replace("# Subtest: beta", "# Subtest: char_signedness")
        log = write(os.path.join(d, "boot-%s.log" % n), text)
        write(os.path.join(d, "boot-%s.mode" % n), "tcg\n")
        p = subprocess.run(["python3", os.path.join(ROOT, "boot", "ktap.py"), log], capture_output=True, text=True)
        write(os.path.join(d, "boot-%s.json" % n), p.stdout)
    times = write(os.path.join(d, "times"), "boot 1.0 s\n")
    proofs = write(os.path.join(d, "proofs"), proofs)
    p = subprocess.run(["python3", os.path.join(ROOT, "boot", "compare.py"), d, times, proofs],
                       capture_output=True, text=True)
    report = open(os.path.join(d, "boot-report.txt")).read()
    verdict = json.load(open(os.path.join(d, "boot-report.json")))["verdict"]
    check((p.returncode == 0) == ("verdict: PASS" in report) == (verdict == "pass"),
          "exit %d, verdict %s:\n%s" % (p.returncode, verdict, report + p.stderr))
    return p.returncode, report


@test
def boot_verdict_proves_each_fix_on_four_kernels():
    d = scratch("verdict")
    base = KTAP_LOG.replace("charscan-boot: done", "    # char_signedness_of_this_build: plain char is %s\n"
                            "charscan-selftest: cmsg_sender icmpv6 rc=0\ncharscan-boot: done")
    fails = base.replace("ok 1 - gamma_one", "not ok 1 - gamma_one")
    proofs = "# case fails fix\ngamma.gamma_one\tunsigned\t0002-fix.patch\n"

    def logs(**over):
        return {n: over.get(n.replace("-", "_"), base) % n.split("-")[0] for n in BOOT_KERNELS}
    for case, kernels, want, proven in (
            ("proven: fails only unfixed unsigned", logs(unsigned=fails), 0, "1/1"),
            ("not proven: passes without the fix", logs(), 1, "0/1"),
            ("not proven: fails with the fix too", logs(unsigned=fails, unsigned_fixed=fails), 1, "0/1"),
            ("not proven: skipped", logs(unsigned=base.replace("ok 1 - gamma_one", "ok 1 - gamma_one # SKIP")),
             1, "0/1"),
            ("regression in another suite", logs(unsigned=fails, signed_fixed=base.replace(
                "ok 1 alpha_one", "not ok 1 alpha_one")), 1, "1/1"),
            ("no marker", logs(unsigned=fails.replace("charscan-boot: done", "")), 1, "1/1"),
            ("wrong signedness", logs(unsigned=fails, signed_fixed=base.replace("is %s", "is unsigned%.0s")),
             1, "1/1")):
        rc, report = boot_verdict(d, kernels, proofs)
        check(rc == want, "%s: exit %d, want %d\n%s" % (case, rc, want, report))
        check("fixes proven: %s" % proven in report, "%s: want fixes proven: %s\n%s" % (case, proven, report))
