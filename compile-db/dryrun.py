#!/usr/bin/env python3
"""compile_commands.json for a configured kernel tree without building it.

    compile-db/dryrun.py SRC BUILD OUT [TARGET...]      (default: all)

After `make prepare` in BUILD (the O= folder), kbuild's own dry run
(`make -n -k`) prints the command of every object the configuration
builds that is not up to date (a second one those built after vmlinux's
link); objects that are come from their .cmd
files, as scripts/clang-tools/gen_compile_commands.py reads them.  Each
command is split as the shell would split it, never run by one; the
compiler invocations (`-c`, a C source) become entries.  A source kbuild
generates (a keymap, a table, certificates) that does not exist yet is
made on demand with kbuild's rule for that file; one that cannot be made
is listed on stderr and left out of the database, never silently.  A
generated header a TU includes (crc32table.h) is made with the TU's
object; one only a link makes is named on stderr.
"""
import json
import os
import re
import shlex
import subprocess
import sys

SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "{", "}", "\n"}
CMD_LINE = re.compile(r"^(?:saved)?cmd_(\S+\.o) := (.*)$")


def simple_commands(script):
    """The simple commands of a shell line, as argv lists."""
    lex = shlex.shlex(script, posix=True, punctuation_chars=";&|()")
    lex.whitespace_split = True
    lex.commenters = ""
    argv = []
    try:
        for tok in lex:
            if tok in SEPARATORS:
                if argv:
                    yield argv
                argv = []
            else:
                argv.append(tok)
    except ValueError:		# an unbalanced quote: not a command we know
        return
    if argv:
        yield argv


def compile_entry(argv, build):
    """An entry for a compiler invocation of kbuild's that compiles one C
    file, else None.  kbuild's own compiles write their dependencies with
    -Wp,-MMD (fixdep turns them into the .cmd files); the tools that
    bring their own build system (objtool) do not, and run elsewhere."""
    if not argv or not re.search(r"(^|/)(clang|gcc|cc)(-\d+)?$", argv[0]) or "-c" not in argv:
        return None
    if not any(a.startswith(("-Wp,-MMD,", "-Wp,-MD,")) for a in argv):
        return None
    sources = [a for a in argv[1:] if a.endswith(".c") and not a.startswith("-")]
    if len(sources) != 1:
        return None
    out = argv[argv.index("-o") + 1] if "-o" in argv[:-1] else None
    return {"directory": build, "arguments": argv,
            "file": os.path.normpath(os.path.join(build, sources[0])),
            "output": os.path.normpath(os.path.join(build, out)) if out else None}


# What kbuild compiles after vmlinux's link: the boot image (the arch
# Makefile's $(boot) and $(KBUILD_IMAGE)) and the link's timestamp.  A dry
# run of `all` cannot reach them: their rules need a vmlinux that only a
# real link makes.  A second dry run asks for them by name, through rules
# GNU make reads from $MAKEFILES in every sub-make of kbuild's (where
# $(build) and the arch's variables are defined); there, `vmlinux:` with
# neither prerequisites nor recipe stands for the missing file, so what
# is made from it (the decompressor's offsets header) counts as made and
# the objects that wait for it are listed.  In the top Makefile the line
# only adds to vmlinux's own rule.
POST_LINK_RULE = """vmlinux:
charscan-post-link:
\t-$(Q)$(MAKE) $(build)=$(boot) $(KBUILD_IMAGE)
\t-$(Q)$(MAKE) $(build)=init init/version-timestamp.o
"""


# kbuild's quiet-mode echo of a recipe, "  CPUSTR  arch/x86/boot/cpustr.h",
# or of one that makes several ("  GEN     security/selinux/flask.h
# security/selinux/av_permissions.h"): what a dry run would generate.
GENERATED = re.compile(r"'  [A-Z0-9_]+ +([^']+)'")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def dry_run(src, build, targets, env):
    """The compile entries of `make -n -k TARGETS`, the sources and
    headers it would generate (absolute paths), and make's stderr."""
    # Nor a -j or jobserver from a make that runs this one (make scan).
    env = {k: v for k, v in env.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-C", src, "O=" + build, "-n", "-k"] + make_vars() + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    entries = []
    for line in p.stdout.splitlines():
        for argv in simple_commands(line):
            e = compile_entry(argv, build)
            if e:
                entries.append(e)
    made = {os.path.normpath(os.path.join(build, g)) for echo in GENERATED.findall(p.stdout)
            for g in echo.split() if g.endswith((".c", ".h"))}
    return entries, made, p.stderr


def from_dry_run(src, build, targets):
    entries, made, err = dry_run(src, build, targets, os.environ)
    if "all" not in targets:
        return entries, made
    rule = os.path.join(build, ".charscan-post-link.mk")
    with open(rule, "w") as f:
        f.write(POST_LINK_RULE)
    post, post_made, _ = dry_run(src, build, ["charscan-post-link"],
                                 dict(os.environ, MAKEFILES=rule))
    os.unlink(rule)
    if not post and "No rule to make target" in err:
        print("dryrun.py: the dry run stops at vmlinux's link and the objects after it "
              "(the boot image) could not be listed; they are missing", file=sys.stderr)
    return entries + post, made | post_made


def from_cmd_files(build):
    """Objects kbuild built already: their saved commands."""
    entries = []
    for root, dirs, files in os.walk(build):
        if root == build and "tools" in dirs:
            dirs.remove("tools")	# objtool & co.: their own build system
        for f in files:
            if not (f.startswith(".") and f.endswith(".o.cmd")):
                continue
            with open(os.path.join(root, f), errors="replace") as fh:
                m = CMD_LINE.match(fh.readline().rstrip("\n"))
            if m:
                for argv in simple_commands(m.group(2)):
                    e = compile_entry(argv, build)
                    if e:
                        entries.append(e)
    return entries


def make_vars():
    """kbuild's variables; never -j: the dry run's long lines would
    interleave (a compile command cut in two is a TU lost)."""
    return [a for a in os.environ.get("KMAKE_VARS", "ARCH=x86_64 LLVM=1").split()
            if a and not a.startswith(("-j", "--jobs"))]


def make_objects(src, build, objects):
    """Build these objects (and so their generated prerequisites) with
    their own directory's Makefile, as kbuild's descent does: a single
    target from the top would use the wrong flags for arch/x86/boot/."""
    rule = os.path.join(build, ".charscan-generate.mk")
    with open(rule, "w") as f:
        f.write("charscan-generate:\n")
        for o in objects:
            f.write("\t-$(Q)$(MAKE) $(build)=%s %s\n" % (os.path.dirname(o), o))
    subprocess.run(["make", "-C", src, "O=" + build, "-k"] + make_vars() + ["charscan-generate"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, MAKEFILES=rule))
    os.unlink(rule)


def includes(e):
    """What entry e's TU includes by name: #include lines and -include."""
    a = e["arguments"]
    forced = [a[k + 1] for k in range(len(a) - 1) if a[k] == "-include"]
    try:
        with open(e["file"], errors="replace") as f:
            return INCLUDE.findall(f.read()) + forced
    except OSError:
        return forced


def generate_headers(src, build, entries, made):
    """Files kbuild generates for TUs to include (crc32table.h, cpustr.h,
    inat-tables.c) that do not exist
    yet: each TU that includes one by name has its object made, which
    makes the header first (kbuild declares it a prerequisite).  Returns
    the TUs whose header still does not exist: only a real build (a
    link) makes it."""
    missing = {os.path.basename(g): g for g in made if not os.path.exists(g)}
    if not missing:
        return []
    needy = [(e, [missing[os.path.basename(i)] for i in includes(e)
                  if os.path.basename(i) in missing]) for e in entries]
    needy = [(e, hs) for e, hs in needy if hs and e["output"] and e["output"].startswith(build + "/")]
    objects = sorted({os.path.relpath(e["output"], build) for e, _ in needy})
    # Twice: a header one directory makes (utsversion.h, in init/) may
    # be what another directory's object waits for.
    for _ in range(2 if objects else 0):
        make_objects(src, build, objects)
    return [(e, [h for h in hs if not os.path.exists(h)]) for e, hs in needy
            if not all(os.path.exists(h) for h in hs)]


def generate_missing(src, build, entries):
    """Generated sources that do not exist yet: made with kbuild's rule;
    the entries whose source cannot be made are returned."""
    # kbuild makes single objects, not single sources: the object's rule
    # generates its source first.
    targets = sorted({os.path.relpath(e["output"], build) for e in entries
                      if not os.path.exists(e["file"]) and e["output"] and
                      e["output"].startswith(build + "/")})
    if targets:
        subprocess.run(["make", "-C", src, "O=" + build, "-k"] + make_vars() + targets,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [e for e in entries if not os.path.exists(e["file"])]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, build, out = (os.path.abspath(a) for a in sys.argv[1:4])
    targets = sys.argv[4:] or ["all"]
    dry, made = from_dry_run(src, build, targets)
    built = from_cmd_files(build)
    by_output = {}
    for e in built + dry:			# a dry-run command wins: it is newer
        by_output[e["output"] or e["file"]] = e
    entries = sorted(by_output.values(), key=lambda e: e["file"])
    lost = generate_missing(src, build, entries)
    for e in lost:
        print("dryrun.py: %s: a generated source kbuild could not make; left out"
              % os.path.relpath(e["file"], build), file=sys.stderr)
    for e, headers in generate_headers(src, build, entries, made):
        print("dryrun.py: %s: includes %s, which kbuild generates only in a real build; "
              "the TU will not parse" % (os.path.relpath(e["file"], build) if e["file"].startswith(build)
                                         else os.path.relpath(e["file"], src),
                                         ", ".join(os.path.relpath(h, build) for h in headers)),
              file=sys.stderr)
    entries = [{k: v for k, v in e.items() if v is not None} for e in entries if e not in lost]
    with open(out + ".tmp", "w") as f:
        json.dump(entries, f, indent=1)
    os.replace(out + ".tmp", out)
    print("dryrun.py: %d entries (%d from the dry run, %d already built, %d generated sources "
          "left out)" % (len(entries), len(dry), len(built), len(lost)), file=sys.stderr)


if __name__ == "__main__":
    main()
