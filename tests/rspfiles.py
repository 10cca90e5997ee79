"""Robustness of response files (@FILE in a compile command): a define
set only in one reaches the scan, nested ones are named from the compile
directory, a missing one costs only its entry, a cycle or nesting past
the limit is an error and not a hang or crash, a FIFO or an oversized
one is refused.  Rows of docs/robustness.md."""
import json
import os

from harness import check, load, results, run, scratch, test, validate, write
GOOD = "int f(char c) { return c == -1; }\n"


GUARDED = "#ifdef FROM_RSP\n" + GOOD + "#endif\n"


def rsp_project(name, rsp_args, files=None):
    """a.c compiled with rsp_args (its @FILE words), b.c without."""
    d = scratch(name)
    for f, text in (files or {}).items():
        os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
        write(os.path.join(d, f), text)
    write(os.path.join(d, "a.c"), GUARDED)
    write(os.path.join(d, "b.c"), GOOD)
    entries = [{"directory": d, "file": "a.c", "arguments": ["clang", "-c", "a.c"] + rsp_args},
               {"directory": d, "file": "b.c", "command": "clang -c b.c"}]
    write(os.path.join(d, "compile_commands.json"), json.dumps(entries))
    return d


def rsp_scan(d, **kw):
    out = os.path.join(d, "o.sarif")
    p = run(["-p", d, "-o", out, "-q"], **kw)
    validate(out)
    notes = load(out)["runs"][0]["invocations"][0].get("toolExecutionNotifications", [])
    return p, " | ".join(n["message"]["text"] for n in notes), results(out)


@test
def a_define_set_only_in_a_response_file_reaches_the_scan():
    d = rsp_project("rsp-define", ["@flags.rsp"],
                    {"flags.rsp": "-DFROM_RSP '-DSPACED=a b'\n\"-DQUOTED=x\\\"y\" -DESC=p\\ q\n"})
    p, notes, found = rsp_scan(d)
    check(p.returncode == 1 and not notes, "exit %d %s %s" % (p.returncode, p.stderr, notes))
    check([r["ruleId"] for r in found] == ["CS001", "CS001"], "the #ifdef in a.c was not seen: %s" % found)
    p = run(["-p", d, "--print-args", "a.c"], cwd=d)
    args = json.loads(p.stdout)["arguments"]
    check(["-DFROM_RSP", "-DSPACED=a b", '-DQUOTED=x"y', "-DESC=p q"] == args[-4:], args)
    check(not any(a.startswith("@") for a in args), args)


@test
def nested_response_files_are_named_from_the_compile_directory():
    # As clang-19 and gcc 12 do: "@inner.rsp" inside sub/outer.rsp is
    # ./inner.rsp, not sub/inner.rsp.
    d = rsp_project("rsp-nested", ["@sub/outer.rsp"],
                    {"sub/outer.rsp": "@inner.rsp\n", "inner.rsp": "-DFROM_RSP\n",
                     "sub/inner.rsp": "-DFROM_RSP -DWRONG_FOLDER\n"})
    p, notes, found = rsp_scan(d)
    check(p.returncode == 1 and not notes, "exit %d %s %s" % (p.returncode, p.stderr, notes))
    args = json.loads(run(["-p", d, "--print-args", "a.c"], cwd=d).stdout)["arguments"]
    check("-DFROM_RSP" in args and "-DWRONG_FOLDER" not in args, args)
    check(len(found) == 2, found)


@test
def a_missing_response_file_costs_only_its_entry():
    d = rsp_project("rsp-missing", ["@gone\nflags.rsp"])
    p, notes, found = rsp_scan(d)
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    check("response file %s/gone\nflags.rsp: No such file or directory" % d in notes, notes)
    check("gone\\x0aflags.rsp" in p.stderr and "gone\nflags" not in p.stderr, p.stderr)
    check([r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in found] == ["b.c"],
          "b.c not scanned: %s" % found)


@test
def a_cycle_of_response_files_is_an_error_not_a_hang():
    for args, files in ((["@a.rsp"], {"a.rsp": "-DX @a.rsp\n"}),
                        (["@b.rsp"], {"b.rsp": "@c.rsp", "c.rsp": "-DFROM_RSP @b.rsp"})):
        d = rsp_project("rsp-cycle-" + args[0][1:], args, files)
        p, notes, found = rsp_scan(d, timeout=30)
        check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
        check("includes itself (a cycle of @files)" in notes, notes)
        check(len(found) == 1, found)


@test
def response_files_nested_past_the_limit_are_an_error_not_a_crash():
    # a0.rsp names a1.rsp ... a21.rsp: the 17th level is refused before
    # it is opened (it once overwrote the table of open files).
    files = {"a%d.rsp" % i: "-DX%d @a%d.rsp" % (i, i + 1) for i in range(21)}
    files["a21.rsp"] = "-DEND"
    d = rsp_project("rsp-deep", ["@a0.rsp"], files)
    p, notes, found = rsp_scan(d, timeout=30)
    check(p.returncode == 3 and "nested too deep" in notes, "exit %d %s %s" % (p.returncode, notes, p.stderr[-300:]))
    check(len(found) == 1, found)


@test
def a_response_file_that_is_a_fifo_or_too_large_is_refused():
    d = rsp_project("rsp-fifo", ["@pipe.rsp", "@big.rsp"])
    os.mkfifo(os.path.join(d, "pipe.rsp"))
    p, notes, found = rsp_scan(d, timeout=30)
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    check("pipe.rsp: not a regular file" in notes, notes)
    d = rsp_project("rsp-big", ["@big.rsp"], {"big.rsp": "-DFROM_RSP " * 500000})
    p, notes, found = rsp_scan(d, timeout=30)
    check(p.returncode == 3 and "big.rsp: too large" in notes, "exit %d %s" % (p.returncode, notes))
