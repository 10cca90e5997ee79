"""make scan ARCH=...: the architecture reaches kbuild, the output names
and the summary, checked on a stub kernel tree (a Makefile that logs what
kbuild was asked and "compiles" one file for clang's --target of the
arch), never a real kernel.  The summary's "which findings break this
build" line is checked on a small report and database."""
import json
import os
import subprocess

from harness import ROOT, check, scratch, test, write

STUB_MAKEFILE = """\
MAKE := true
TARGET_arm64 := aarch64-linux-gnu
TARGET_x86_64 := x86_64-linux-gnu
log = echo "$(ARCH) $(LLVM) $@" >> $(O)/stub.log
tinyconfig:
\t@$(log)
\t@: > $(O)/.config
defconfig x86_64_defconfig allmodconfig olddefconfig:
\t@$(log)
\t@[ -f $(O)/.config ] || touch $(O)/.config
prepare:
\t@$(log)
all:
\tclang --target=$(TARGET_$(ARCH)) -Wp,-MMD,$(O)/.x.o.d -c -o $(O)/x.o $(CURDIR)/x.c
"""
# Kconfig as an arch without x86's symbols would merge the fragment.
STUB_MERGE = """#!/bin/sh
grep -v -e EARLY_PRINTK -e CPU_SUP_INTEL "$5" >> "$3/.config"
"""


def stub_tree(d):
    src = os.path.join(d, "linux")
    for a in ("arm64", "x86", "loongarch"):
        os.makedirs(os.path.join(src, "arch", a))
    os.makedirs(os.path.join(src, "scripts", "kconfig"))
    write(os.path.join(src, "Makefile"), STUB_MAKEFILE)
    write(os.path.join(src, "x.c"), "int x;\n")
    # As 6.1's: no clang target for LoongArch.
    write(os.path.join(src, "scripts", "Makefile.clang"),
          "CLANG_TARGET_FLAGS_arm64\t:= aarch64-linux-gnu\n"
          "CLANG_TARGET_FLAGS_x86\t\t:= x86_64-linux-gnu\n")
    merge = write(os.path.join(src, "scripts", "kconfig", "merge_config.sh"), STUB_MERGE)
    os.chmod(merge, 0o755)
    return src


def kernel_sh(src, build, config, arch, llvm="1"):
    env = dict(os.environ, ARCH=arch, JOBS="1", LLVM=llvm)
    return subprocess.run(["sh", os.path.join(ROOT, "compile-db", "kernel.sh"), src, build, config],
                          capture_output=True, text=True, env=env)


def stub_log(build):
    return open(os.path.join(build, "stub.log")).read().splitlines()


@test
def kernel_sh_passes_arch_to_kbuild_and_the_database():
    d = scratch("kernelarch")
    src = stub_tree(d)
    build = os.path.join(d, "arm64")
    p = kernel_sh(src, build, "defconfig", "arm64")
    check(p.returncode == 0, "kernel.sh ARCH=arm64: exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    log = stub_log(build)
    check(log[:2] == ["arm64 1 defconfig", "arm64 1 prepare"], "kbuild was asked: %s" % log)
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    check(len(db) == 1 and "--target=aarch64-linux-gnu" in db[0]["arguments"],
          "database: %s" % db)
    build = os.path.join(d, "x86")
    p = kernel_sh(src, build, "defconfig", "x86_64")
    check(p.returncode == 0, "kernel.sh ARCH=x86_64: %s%s" % (p.stdout, p.stderr))
    check(stub_log(build)[0] == "x86_64 1 x86_64_defconfig", "x86_64: %s" % stub_log(build))


@test
def kernel_sh_tiny_drops_x86_lines_on_other_arches_only():
    d = scratch("kernelarch-tiny")
    src = stub_tree(d)
    p = kernel_sh(src, os.path.join(d, "arm64"), "tiny", "arm64")
    check(p.returncode == 0, "tiny, arm64: exit %d\n%s" % (p.returncode, p.stderr))
    check("ARCH=arm64 has no CONFIG_EARLY_PRINTK=y CONFIG_CPU_SUP_INTEL=y (dropped)" in p.stdout,
          "tiny, arm64: %s" % p.stdout)
    p = kernel_sh(src, os.path.join(d, "x86"), "tiny", "x86_64")
    check(p.returncode == 1 and "not set by Kconfig" in p.stderr,
          "tiny, x86_64 missing p4.c's lines: exit %d\n%s" % (p.returncode, p.stderr))


@test
def kernel_sh_refuses_an_arch_kbuild_cannot_build_with_clang():
    d = scratch("kernelarch-refuse")
    src = stub_tree(d)
    for arch, llvm, want in (("loongarch", "1", "scripts/Makefile.clang has no clang target"),
                             ("sparc", "1", "has no arch/sparc"),
                             ("../x", "1", "not a kernel architecture name"),
                             ("arm64", "1 V=1", "LLVM=: 1, -VERSION or a folder")):
        build = os.path.join(d, "b")
        p = kernel_sh(src, build, "defconfig", arch, llvm)
        check(p.returncode == 2 and want in p.stderr,
              "ARCH=%s: exit %d, %s" % (arch, p.returncode, p.stderr))
        check(not os.path.exists(os.path.join(build, "stub.log")), "ARCH=%s ran kbuild" % arch)


@test
def kernel_outputs_are_named_after_the_arch():
    got = {}
    for arch, config in (("x86_64", "tiny"), ("arm64", "tiny"), ("riscv", "defconfig")):
        p = subprocess.run(["sh", "-c", '. kernel/stage.sh; here=/r; names /k/linux-6.1 "$1"; '
                            'echo "$name $build"', "sh", config],
                           cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, ARCH=arch))
        got[arch] = p.stdout.strip()
    check(got == {"x86_64": "linux-6.1 /r/work/kbuild/scan-linux-6.1",
                  "arm64": "linux-6.1-arm64 /r/work/kbuild/scan-linux-6.1-arm64",
                  "riscv": "linux-6.1-riscv-defconfig /r/work/kbuild/scan-linux-6.1-riscv-defconfig"},
          "names: %s" % got)


def summary(d, arch, flags):
    results = [{"ruleId": "CS001", "properties": {"breaksWhenCharIs": s},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": "kernel/a.c"}}}]}
               for s in ("unsigned", "unsigned", "either", "signed")]
    sarif = write(os.path.join(d, "r.sarif"), json.dumps({"runs": [{
        "results": results, "invocations": [{"toolExecutionNotifications": []}],
        "tool": {"driver": {"rules": [{"id": "CS001", "name": "char-compare-dead"}]}}}]}))
    host = {"directory": d, "file": "h.c", "arguments": ["clang", "-c", "h.c"]}
    kernel = {"directory": d, "file": "k.c", "arguments": ["clang"] + flags + ["-c", "k.c"]}
    db = write(os.path.join(d, "db.json"), json.dumps([host, host, kernel]))
    times = write(os.path.join(d, "times"), "scan 1.0 s\n")
    p = subprocess.run(["python3", os.path.join(ROOT, "kernel", "summary.py"), sarif, db, times, arch],
                       capture_output=True, text=True)
    check(p.returncode == 0, "summary.py: %s" % p.stderr)
    return p.stdout.splitlines()[1]


@test
def kernel_summary_says_which_findings_break_the_arch():
    d = scratch("kernelarch-summary")
    cases = [("arm64", ["--target=aarch64-linux-gnu"],
              "char is unsigned on arm64 (the default of aarch64-linux-gnu): 3 findings break "
              "this build (2 unsigned, 1 either); 1 only where char is signed"),
             ("x86_64", ["--target=x86_64-linux-gnu"],
              "char is signed on x86_64 (the default of x86_64-linux-gnu): 2 findings break "
              "this build (1 signed, 1 either); 2 only where char is unsigned"),
             ("x86_64", ["--target=x86_64-linux-gnu", "-fsigned-char", "-funsigned-char"],
              "char is unsigned on x86_64 (-funsigned-char, x86_64-linux-gnu): 3 findings")]
    for arch, flags, want in cases:
        line = summary(d, arch, flags)
        check(line.startswith(want), "%s %s:\n  got  %s\n  want %s" % (arch, flags, line, want))


@test
def kernel_sh_configures_anew_a_build_folder_made_for_another_tree():
    d = scratch("kernelarch-moved")
    old = stub_tree(os.path.join(d, "old"))
    build = os.path.join(d, "build")
    p = kernel_sh(old, build, "defconfig", "arm64")
    check(p.returncode == 0, "first tree: %s%s" % (p.stdout, p.stderr))
    new = stub_tree(os.path.join(d, "new"))
    # A copy keeps its files' times: older than the first database.
    for top, _, files in os.walk(new):
        for f in files:
            os.utime(os.path.join(top, f), (1, 1))
    p = kernel_sh(new, build, "defconfig", "arm64")
    check(p.returncode == 0, "second tree: %s%s" % (p.stdout, p.stderr))
    check("up to date" not in p.stdout, "the other tree's database was reused:\n%s" % p.stdout)
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    check(all(e["file"].startswith(new) or e["directory"].startswith(new) or
              new in " ".join(e["arguments"]) for e in db) and
          not any(old + os.sep in json.dumps(e) for e in db),
          "database still names the old tree: %s" % db)
    p = kernel_sh(new, build, "defconfig", "arm64")
    check("up to date" in p.stdout, "the same tree again is not reused: %s" % p.stdout)


@test
def kernel_summary_fails_when_every_tu_failed():
    d = scratch("kernelarch-allfailed")
    notes = [{"level": "error", "message": {"text": "x.c: TU skipped: the source file no longer "
                                                    "exists"}}] * 2
    sarif = write(os.path.join(d, "r.sarif"), json.dumps({"runs": [{
        "results": [], "invocations": [{"toolExecutionNotifications": notes}],
        "tool": {"driver": {"rules": []}}}]}))
    entry = {"directory": d, "file": "x.c", "arguments": ["clang", "-c", "x.c"]}
    db = write(os.path.join(d, "db.json"), json.dumps([entry, entry]))
    times = write(os.path.join(d, "times"), "scan 1.0 s\n")
    run = lambda s: subprocess.run(["python3", os.path.join(ROOT, "kernel", "summary.py"), s, db,
                                    times, "x86_64"], capture_output=True, text=True)
    p = run(sarif)
    check(p.returncode == 1 and "every TU failed" in p.stderr,
          "all failed: exit %d, %s" % (p.returncode, p.stderr))
    one = write(os.path.join(d, "one.sarif"), json.dumps({"runs": [{
        "results": [], "invocations": [{"toolExecutionNotifications": notes[:1]}],
        "tool": {"driver": {"rules": []}}}]}))
    p = run(one)
    check(p.returncode == 0, "one of two failed: exit %d, %s" % (p.returncode, p.stderr))


TRIAGE = """# Triage
| # | place | rule | class | why |
|---|---|---|---|---|
| 1 | kernel/a.c:10 | CS001 | **true** | a real one |
| 2 | kernel/a.c:20 | CS006 | fragile | a cosmetic print |
| 3 | kernel/b.c:5 | CS004 | harmless | only copied |
| 4 | kernel/b.c:9 | CS003 | false | guarded |
| 5 | kernel/c.c:1 | CS006 | harmless | no longer reported |
| 6 | scripts/x.c:4 | CS009 | fragile | a host program's |
| 7 | kernel/e.c:2 | CS006 | false | the first of two on the line |
| 8 | kernel/e.c:2 | CS006 | harmless | the second |

## Another config
| # | place | rule | class | why |
|---|---|---|---|---|
| 1 | kernel/d.c:1 | CS006 | true | not this report's |
"""


@test
def kernel_precision_counts_the_report_against_its_triage():
    d = scratch("kernelarch-precision")
    found = [("kernel/a.c", 10, "CS001"), ("kernel/a.c", 20, "CS006"), ("kernel/b.c", 5, "CS004"),
             ("kernel/b.c", 9, "CS003"), ("kernel/new.c", 3, "CS005"), ("kernel/d.c", 1, "CS006"),
             ("scripts/x.c", 4, "CS009"), ("kernel/e.c", 2, "CS006"), ("kernel/e.c", 2, "CS006")]
    results = [{"ruleId": r, "level": "note" if r == "CS004" else "warning",
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": u}, "region": {"startLine": n}}}]} for u, n, r in found]
    results.append({"ruleId": "CS006", "kind": "pass", "locations": [{"physicalLocation": {
        "artifactLocation": {"uri": "kernel/c.c"}, "region": {"startLine": 1}}}]})
    sarif = write(os.path.join(d, "r.sarif"), json.dumps({"runs": [{"results": results}]}))
    triage = write(os.path.join(d, "TRIAGE.md"), TRIAGE)
    p = subprocess.run(["python3", os.path.join(ROOT, "kernel", "precision.py"), sarif, triage],
                       capture_output=True, text=True)
    check(p.returncode == 0, "precision.py: %s" % p.stderr)
    out = p.stdout
    # Two findings of one rule on one line take that place's two rows.
    check("9 findings, true 1, fragile 2, harmless 2, false 2, untriaged 2" in out, out)
    check("true 1/7 = 14 %, true or fragile 3/7 = 43 %" in out, out)
    # Kernel code alone (the host program's row aside), and without notes.
    check("kernel code (not scripts/, tools/, usr/): 8 findings, true or fragile 2/6 = 33 %" in out,
          out)
    check("kernel code, warnings and errors: 7 findings, true or fragile 2/5 = 40 %" in out, out)
    check("untriaged: kernel/new.c:3 CS005" in out and "untriaged: kernel/d.c:1 CS006" in out, out)
    check("gone: kernel/c.c:1 CS006 (harmless)" in out, out)
