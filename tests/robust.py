"""Robustness: hostile input and faults never cost a report, the machine
or the user's files.  One test per row of the table in docs/robustness.md
("What was tried"): where the report may go, workers that crash, hang
or grow, signals, deep and long code, and our own small parsers."""
import json
import os
import signal
import stat
import subprocess
import time

from harness import (ROOT, RULE_IDS, Env, check, compdb, load, results, run, scratch, test,
                     validate, write)

GOOD = "int f(char c) { return c == -1; }\n"


def project(name, files=None):
    d = scratch(name)
    files = files or {"a.c": GOOD}
    for f, text in files.items():
        write(os.path.join(d, f), text)
    return d, compdb(d, sorted(files))


def leftovers(d):
    return [f for f in os.listdir(d) if ".charscan-" in f]


# ---- where the report may go ----------------------------------------------

@test
def output_is_written_only_to_regular_files():
    d, db = project("out-kinds")
    os.mkfifo(os.path.join(d, "fifo"))
    os.mkdir(os.path.join(d, "dir"))
    os.symlink("dir", os.path.join(d, "link-to-dir"))
    os.symlink("nowhere/x.sarif", os.path.join(d, "dangling"))
    cases = [("/dev/null", "character device"), (os.path.join(d, "fifo"), "FIFO"),
             (os.path.join(d, "dir"), "directory"), (os.path.join(d, "link-to-dir"), "directory"),
             (os.path.join(d, "dangling"), "")]
    null = os.stat("/dev/null")
    for target, kind in cases:
        p = run(["-p", db, "-o", target, "-q"], timeout=60)
        check(p.returncode == 2, "-o %s: exit %d %s" % (target, p.returncode, p.stderr))
        check("will not write %s: it is " % target in p.stderr and kind in p.stderr, p.stderr)
        check("TU" not in p.stderr, "refused only after scanning: " + p.stderr)
    now = os.stat("/dev/null")
    check(stat.S_ISCHR(now.st_mode) and now.st_rdev == null.st_rdev, "/dev/null was replaced")
    check(stat.S_ISFIFO(os.lstat(os.path.join(d, "fifo")).st_mode), "FIFO replaced")
    check(os.path.islink(os.path.join(d, "dangling")), "dangling link replaced")
    check(not leftovers(d) and not leftovers(os.path.join(d, "dir")), leftovers(d))
    # A symlink to a regular file: the file gets the report, the link stays.
    real = write(os.path.join(d, "real.sarif"), "old\n")
    os.symlink("real.sarif", os.path.join(d, "link.sarif"))
    p = run(["-p", db, "-o", os.path.join(d, "link.sarif"), "-q"])
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    check(os.path.islink(os.path.join(d, "link.sarif")), "the symlink was replaced")
    validate(real)
    check([r["ruleId"] for r in results(real)] == ["CS001"], "report not in the link's target")


@test
def output_never_replaces_an_input_of_the_scan():
    d, db = project("out-input", {"a.c": GOOD, "b.c": GOOD})
    cfg = write(os.path.join(d, "charscan.conf"), "rules = CS001\n")
    before = {f: open(os.path.join(d, f)).read() for f in ("a.c", "b.c", "compile_commands.json")}
    for target, extra in ((db, []), (d + "/./b.c", []), (os.path.join(d, "a.c"), [os.path.join(d, "b.c")]),
                          (cfg, ["--config", cfg])):
        p = run(["-p", db, "-o", target, "-q"] + extra)
        check(p.returncode == 2 and "it is an input of the scan" in p.stderr,
              "-o %s: exit %d %s" % (target, p.returncode, p.stderr))
    after = {f: open(os.path.join(d, f)).read() for f in before}
    check(before == after, "an input was overwritten")
    check(not leftovers(d), leftovers(d))


@test
def dash_output_is_standard_output():
    d, db = project("out-dash")
    p = run(["-p", db, "-o", "-", "-q"], cwd=d)
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    check(not os.path.exists(os.path.join(d, "-")), "wrote a file named -")
    out = write(os.path.join(d, "stdout.sarif"), p.stdout)
    validate(out)
    check([r["ruleId"] for r in results(out)] == ["CS001"], p.stdout[:200])
    p = run(["-p", db, "-o", "-", "--format", "text"], cwd=d)
    check(p.returncode == 2 and "standard output" in p.stderr, p.stderr)


@test
def an_existing_report_keeps_its_mode():
    d, db = project("out-mode")
    out = write(os.path.join(d, "o.sarif"), "old\n")
    os.chmod(out, 0o600)
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 1, p.stderr)
    check(stat.S_IMODE(os.stat(out).st_mode) == 0o600, "mode %o" % os.stat(out).st_mode)
    validate(out)


def file_size_limit(size):
    """A child whose writes past size bytes fail with EFBIG (the tests
    run as root: no read-only folder stops them; a full disk cannot be
    made without mounting one)."""
    def limit():
        import resource
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@test
def every_cannot_write_message_says_why():
    d, db = project("write-errors")
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q"], preexec_fn=file_size_limit(500))
    check(p.returncode == 2 and "cannot write %s: %s" % (out, os.strerror(27)) in p.stderr,
          "exit %d %s" % (p.returncode, p.stderr))
    check(not os.path.exists(out) and not leftovers(d), os.listdir(d))
    good = os.path.join(d, "good.sarif")
    check(run(["-p", db, "-o", good, "-q"]).returncode == 1, "scan failed")
    enospc = os.strerror(28)
    for args in (["-p", db, "-q"], ["merge", good, "-o", out, "--format", "text"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([Env.charscan] + args, stdout=full, stderr=subprocess.PIPE,
                               text=True, cwd=Env.work)
        check(p.returncode == 2 and "cannot write the text report: " + enospc in p.stderr,
              "%s: exit %d %s" % (args, p.returncode, p.stderr))


@test
def stale_temporaries_of_dead_runs_are_removed():
    d, db = project("out-stale")
    out = os.path.join(d, "o.sarif")
    dead = subprocess.Popen(["true"])
    dead.wait()		# its pid is free now (and very unlikely to be reused at once)
    stale = write("%s.charscan-%d-AbC123" % (out, dead.pid), "partial")
    alive = write("%s.charscan-%d-XyZ789" % (out, os.getpid()), "someone else's")
    other = write(os.path.join(d, "notes.charscan-1-zz"), "not ours: another name")
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 1, p.stderr)
    check(not os.path.exists(stale), "stale temporary kept")
    check(os.path.exists(alive) and os.path.exists(other), "removed a live run's or a foreign file")


KBUILD_FLAGS = ["-D__linux__", "-nostdinc", "-O2"]
CHAR_TU = "int %s(const char *s)\n{\n\tchar c = s[0];\n\n\treturn c == -1;\n}\n"


@test
def a_whole_scan_and_kbuild_appends_on_one_report_lose_nothing():
    # Enough TUs that appends land while the whole scan runs.
    files = {"p%d.c" % i: "".join(CHAR_TU % ("p%d_%d" % (i, k)) for k in range(40))
             for i in range(6)}
    files.update({"k%d.c" % i: CHAR_TU % ("k%d" % i) for i in range(4)})
    d, _ = project("shared-report", files)
    db = compdb(d, sorted(f for f in files if f.startswith("p")))
    out = os.path.join(d, "shared.sarif")
    env = dict(os.environ, srctree=".")
    for trial in range(3):
        if os.path.exists(out):
            os.unlink(out)
        whole = subprocess.Popen([Env.charscan, "-p", db, "-o", out, "-j", "1", "-q"], cwd=d,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        appends = []
        for i in range(4):
            time.sleep(0.1)
            appends.append(subprocess.run([Env.charscan, "-o", out, "--kbuild"] + KBUILD_FLAGS +
                                          ["k%d.c" % i], cwd=d, capture_output=True, text=True,
                                          env=env, timeout=120))
        whole.wait(timeout=300)
        check(whole.returncode == 1, "whole scan: exit %d %s" % (whole.returncode, whole.stderr.read()))
        check(all(p.returncode == 0 for p in appends), [p.stderr for p in appends])
        validate(out)
        files_seen = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                      for r in results(out)}
        check(files_seen == set(files), "trial %d lost %s" % (trial, sorted(set(files) - files_seen)))


@test
def the_report_lock_does_not_follow_a_symlink():
    d, db = project("lock-symlink", {"k0.c": CHAR_TU % "k0"})
    out = os.path.join(d, "k.sarif")
    target = write(os.path.join(d, "precious"), "not a lock\n")
    os.symlink(target, out + ".lock")
    os.chmod(target, 0o644)
    env = dict(os.environ, srctree=".")
    for argv in ([Env.charscan, "-o", out, "--kbuild"] + KBUILD_FLAGS + ["k0.c"],
                 [Env.charscan, "-p", db, "-o", out, "-q"]):
        p = subprocess.run(argv, cwd=d, capture_output=True, text=True, env=env)
        check(p.returncode == 2 and "will not lock %s.lock: it is a symbolic link" % out in p.stderr,
              "%s: exit %d %s" % (argv[1:3], p.returncode, p.stderr))
        check(open(target).read() == "not a lock\n" and os.path.islink(out + ".lock"),
              "the lock's symlink was followed")
        check(not os.path.exists(out), "a report written without the lock")


# ---- signals ----------------------------------------------------------------

def hanging_project(name):
    """b.c includes a FIFO nobody writes: its worker blocks in the parse."""
    d, db = project(name, {"a.c": GOOD, "b.c": '#include "pipe.h"\nint g;\n'})
    os.mkfifo(os.path.join(d, "pipe.h"))
    return d, db


def no_reader(fifo):
    """True when no process has the FIFO open for reading (the worker is gone)."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return True
    os.close(fd)
    return False


@test
def signals_remove_the_temporary_and_say_how_far_the_scan_got():
    for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)):
        d, db = hanging_project("signal-%d" % sig)
        out = write(os.path.join(d, "o.sarif"), "old report\n")
        p = subprocess.Popen([Env.charscan, "-p", db, "-o", out, "-j", "2", "--tu-timeout", "60"], cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        if p.poll() is not None:
            check(False, "the scan ended by itself: %s" % (p.communicate(),))
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
        check(p.returncode == code, "%s: exit %d %s" % (sig, p.returncode, err))
        check("interrupted after 1 of 2 TUs; no report written" in err, err)
        check(open(out).read() == "old report\n", "the old report was touched")
        check(not leftovers(d), "temporaries left: %s" % leftovers(d))
        for _ in range(50):
            if no_reader(os.path.join(d, "pipe.h")):
                break
            time.sleep(0.1)
        check(no_reader(os.path.join(d, "pipe.h")), "a worker outlived the scan")


# ---- workers that hang, grow or crash ---------------------------------------

@test
def a_tu_over_its_time_or_memory_limit_is_reported_and_the_rest_scanned():
    d, db = hanging_project("limits")
    write(os.path.join(d, "c.c"), '#include "/dev/zero"\n')
    db = compdb(d, ["a.c", "b.c", "c.c"])
    out = os.path.join(d, "o.sarif")
    t0 = time.time()
    p = run(["-p", db, "-o", out, "-q", "--tu-timeout", "3", "--tu-memory", "512"], timeout=120)
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    check(time.time() - t0 < 60, "limits did not stop the workers in time")
    validate(out)
    run0 = load(out)["runs"][0]
    notes = {n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: n["message"]["text"]
             for n in run0["invocations"][0]["toolExecutionNotifications"]}
    check("not done after 3 s" in notes.get("b.c", ""), notes)
    # /dev/zero: libclang either runs out of its 512 MB or refuses the file;
    # either way c.c is named and the scan goes on.
    check("c.c" in notes and "TU skipped" in notes["c.c"], notes)
    check([r["ruleId"] for r in run0["results"]] == ["CS001"], "a.c lost")
    check(no_reader(os.path.join(d, "pipe.h")), "the timed-out worker is still running")


def workers_of(pid):
    """Child processes of pid (the scan's workers), from /proc."""
    kids = []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            kids.append(int(entry))
    return kids


def opening_fifo(pid):
    """True when a thread of pid (libclang parses on a thread of its own)
    is blocked opening a file: the FIFO (open/openat, x86-64)."""
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return False
    for t in tasks:
        try:
            with open("/proc/%d/task/%s/syscall" % (pid, t)) as f:
                if f.read().split()[0] in ("2", "257"):
                    return True
        except (OSError, IndexError):
            continue
    return False


@test
def a_worker_that_crashes_costs_only_its_tu():
    # What a segfault in libclang or in our walk does: the worker of b.c
    # (blocked on its FIFO) dies of SIGSEGV; b.c is reported, a.c kept.
    # a.c's worker waits for another TU meanwhile.
    d, db = hanging_project("crash")
    out = os.path.join(d, "o.sarif")
    p = subprocess.Popen([Env.charscan, "-p", db, "-o", out, "-j", "2", "-q"], cwd=d,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids = []
    for _ in range(60):	# b.c's worker, blocked in the FIFO's open for a second
        time.sleep(0.5)
        kids = [k for k in workers_of(p.pid) if opening_fifo(k)]
        if len(kids) == 1:
            time.sleep(1)
            if [k for k in workers_of(p.pid) if opening_fifo(k)] == kids:
                break
    check(len(kids) == 1, "expected b.c's worker blocked on its FIFO, found %s" % kids)
    os.kill(kids[0], signal.SIGSEGV)
    _, err = p.communicate(timeout=60)
    check(p.returncode == 3, "exit %d %s" % (p.returncode, err))
    validate(out)
    run0 = load(out)["runs"][0]
    notes = [n["message"]["text"] for n in run0["invocations"][0]["toolExecutionNotifications"]]
    check(len(notes) == 1 and "b.c: TU skipped: its worker died of signal 11" in notes[0], notes)
    check([r["ruleId"] for r in run0["results"]] == ["CS001"], "a.c lost")


@test
def limits_are_checked_as_options():
    d, db = project("limit-options")
    for args, words in ((["--tu-timeout", "-1"], "--tu-timeout"), (["--tu-timeout", "x"], "--tu-timeout"),
                        (["--tu-memory", "10"], "--tu-memory"), (["--rules", ""], "names no rule"),
                        (["--tu-memory", "64"], "at least 256"), (["--tu-memory", "255"], "at least 256"),
                        (["--rules", " , "], "names no rule")):
        p = run(["-p", db] + args)
        check(p.returncode == 2 and words in p.stderr, "%s: exit %d %s" % (args, p.returncode, p.stderr))


@test
def tu_memory_below_what_libclang_needs_is_refused():
    d, db = project("tu-memory-min")
    for mb in ("64", "224", "255"):
        p = run(["-p", db, "--tu-memory", mb, "-q"])
        check(p.returncode == 2 and "--tu-memory" in p.stderr and "256" in p.stderr,
              "%s: exit %d %s" % (mb, p.returncode, p.stderr))
        check("signal" not in p.stderr, "scanned before refusing: " + p.stderr)
    for mb in ("0", "256"):
        p = run(["-p", db, "--tu-memory", mb, "-q"])
        check(p.returncode == 1, "%s: exit %d %s" % (mb, p.returncode, p.stderr))


@test
def expressions_thousands_of_operands_deep_are_scanned():
    n = 6000
    deep = "int deep(char c)\n{\n\treturn c == -1 ? 0 : %s;\n}\n" % " + ".join(["c"] * n)
    table = "const int tab[] = { %s };\nint look(char c) { return tab[c]; }\n" % \
        ", ".join("(%d << 1) | 1" % i for i in range(n))
    d, db = project("deep", {"deep.c": deep, "table.c": table})
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q"], timeout=300)
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr[-500:]))
    got = sorted((r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"])
                 for r in results(out))
    check(("deep.c", "CS001") in got and ("table.c", "CS005") in got, got)


@test
def condition_chains_are_judged_to_the_last_term():
    ascii_terms = " || ".join("c == '%s'" % ch for ch in "abcdefghijklmnopqrst")
    code = ("int late(char c)\n{\n\treturn %s || c == -1;\n}\n"
            "int all_ascii(char c)\n{\n\treturn %s;\n}\n") % (ascii_terms, ascii_terms)
    d, db = project("chain", {"chain.c": code})
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    got = [(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]) for r in results(out)]
    # The chain is judged as a whole (CS003: its result differs for 0xff).
    check(got == [(3, "CS003")], "the 21st term was not judged, or ASCII terms reported: %s" % got)


@test
def snippets_of_long_lines_are_windows():
    terms = ", ".join(["0"] * 3000)
    code = "int g(char c) { int t[] = { %s }; return t[0] + (c == -1) + (c < 0); }\n" % terms
    d, db = project("long-line", {"long.c": code})
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 1, p.stderr)
    validate(out)
    rs = results(out)
    check(len(rs) >= 2, rs)
    for r in rs:
        reg = r["locations"][0]["physicalLocation"]["region"]
        snip = reg["snippet"]["text"]
        check(len(snip) <= 250 and snip.startswith("...") and "c == -1" in snip or "c < 0" in snip,
              "snippet %r" % snip[:300])
        check(reg["startColumn"] > 6000, reg)


# ---- our own inputs -------------------------------------------------------

@test
def parse_failures_say_what_is_wrong():
    d = scratch("parse-errors")
    write(os.path.join(d, "a.c"), GOOD)
    write(os.path.join(d, "b.c"), GOOD)
    os.mkdir(os.path.join(d, "sub.c"))
    entries = [{"directory": d, "file": "a.c", "arguments": ["clang", "-c", "a.c"]},
               {"directory": d, "file": "sub.c", "arguments": ["clang", "-c", "sub.c"]},
               {"directory": d, "file": "b.c", "command": "clang -c 'b.c"}]
    write(os.path.join(d, "compile_commands.json"), json.dumps(entries))
    out = os.path.join(d, "o.sarif")
    p = run(["-p", d, "-o", out, "-q"])
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    validate(out)
    text = " | ".join(n["message"]["text"] for n in
                      load(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"])
    check("a directory, not a source file" in text, text)
    check("quote in \"command\" is never closed" in text, text)
    check("error 4" not in text and "(error" not in text, text)
    check([r["ruleId"] for r in results(out)] == ["CS001"], "a.c lost")


@test
def relative_database_path_gives_well_formed_uris():
    d, db = project("relative")
    entries = json.load(open(db)) + [{"directory": d}]
    write(db, json.dumps(entries))
    out = os.path.join(d, "o.sarif")
    p = run(["-p", os.path.basename(d), "-o", out, "-q", "--srcroot", "/"],
            cwd=os.path.dirname(d))
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    validate(out)
    n = load(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    uris = [x["locations"][0]["physicalLocation"]["artifactLocation"] for x in n]
    check(uris and all(u.get("uriBaseId") == "%SRCROOT%" and not u["uri"].startswith("/") or
                       u["uri"].startswith("file:///") for u in uris), uris)


@test
def suppressions_count_only_in_comments():
    code = ('const char *s = "charscan-ignore CS001: in a string";\n'
            'int a(char c) { return c == -1; } /* charscan-ignore CS001: ok, a comment */\n'
            "int b(char c) { return c == -1 && '\"' /* x */; } "
            '// "charscan-ignore CS001" after a quote char is still a comment\n'
            'int d(char c) { const char *t = "/* charscan-ignore CS001 */"; return c == -1; }\n'
            'int e(char c) { return c == -1; } // charscan-ignore CS0O1, CS001: a typo beside\n')
    d, db = project("suppress-lexer", {"s.c": code})
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out])
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    validate(out)
    state = sorted((r["locations"][0]["physicalLocation"]["region"]["startLine"], bool(r.get("suppressions")))
                   for r in results(out))
    check(state == [(2, True), (3, True), (4, False), (5, True)], state)
    warn = [n["message"]["text"] for n in load(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]]
    check(len(warn) == 1 and "s.c:5: charscan-ignore names 'CS0O1', which is no rule" in warn[0], warn)
    check("CS0O1" in p.stderr, p.stderr)


@test
def config_errors_name_the_file_and_line():
    d, db = project("config-errors")
    for body, words in (("rules = CS001, CS999\n", "CS999"), ("rules =\n", "no rule"),
                        ("exclude =\n", "exclude"), ("exclude = ../outside/*\n", ".."),
                        ("exclude = /abs/*\n", "relative"), ("signedness = maybe\n", "signedness")):
        cfg = write(os.path.join(d, "bad.conf"), "# settings\n# a comment\n" + body)
        p = run(["-p", db, "--config", cfg, "-o", os.path.join(d, "o.sarif")])
        check(p.returncode == 2 and "bad.conf:3:" in p.stderr and words in p.stderr,
              "%r: exit %d %s" % (body, p.returncode, p.stderr))
        check(not os.path.exists(os.path.join(d, "o.sarif")), "report written for a bad config")


@test
def a_config_with_a_byte_order_mark_is_read():
    d, db = project("config-bom")
    cfg = write(os.path.join(d, ".charscan"), b"\xef\xbb\xbfrules = CS001\nlevel.CS001 = note\n", "wb")
    p = run(["-p", db, "-o", os.path.join(d, "o.sarif"), "--fail-on", "note"])
    check(p.returncode == 1, "exit %d %s" % (p.returncode, p.stderr))
    check([r["level"] for r in results(os.path.join(d, "o.sarif"))] == ["note"], "level not applied")
    # Only at the start of the file: elsewhere it is no setting.
    write(cfg, b"rules = CS001\n\xef\xbb\xbflevel.CS001 = note\n", "wb")
    p = run(["-p", db, "-q"])
    check(p.returncode == 2 and ".charscan:2:" in p.stderr, p.stderr)


def notification_texts(sarif):
    return [n["message"]["text"] for inv in load(sarif)["runs"][0]["invocations"]
            for n in inv["toolExecutionNotifications"] if n["level"] == "warning"]


@test
def a_scan_of_nothing_says_so_and_can_fail():
    d, db = project("switched-off", {"a.c": GOOD, "b.c": GOOD})
    out = os.path.join(d, "o.sarif")
    every_rule = "--rules=" + ",".join("-" + r for r in RULE_IDS)
    cases = (("# a pull request's change\nexclude = *\n", [], "every TU excluded by %s/.charscan:2" % d),
             ("exclude = a.c\nexclude = b.c\n", [], "every TU excluded by the excludes of %s/.charscan" % d),
             ("", [every_rule], "every rule disabled (by --rules)"),
             ("rules = " + ",".join("-" + r for r in RULE_IDS) + "\n", [],
              "every rule disabled (by %s/.charscan)" % d))
    for cfg, args, words in cases:
        write(os.path.join(d, ".charscan"), cfg)
        p = run(["-p", db, "-o", out] + args)
        check(p.returncode == 0, "%r: exit %d %s" % (cfg, p.returncode, p.stderr))
        check("warning: nothing was scanned: " + words in p.stderr, "%r: %s" % (cfg, p.stderr))
        validate(out)
        check(notification_texts(out) == ["nothing was scanned: " + words], notification_texts(out))
        p = run(["-p", db, "-o", out, "--fail-on-empty", "-q"] + args)
        check(p.returncode == 3 and words in p.stderr, "%r: exit %d %s" % (cfg, p.returncode, p.stderr))
    # A partial exclude, or a scan of something, is no warning, and
    # --fail-on-empty does not fail it.
    write(os.path.join(d, ".charscan"), "exclude = b.c\n")
    p = run(["-p", db, "-o", out, "--fail-on-empty", "--fail-on", "none"])
    check(p.returncode == 0 and "nothing was scanned" not in p.stderr, p.stderr)
    check(notification_texts(out) == [], notification_texts(out))


@test
def only_whole_charscan_reports_are_read_back():
    d, db = project("read-back")
    good = os.path.join(d, "good.sarif")
    check(run(["-p", db, "-o", good, "-q"]).returncode == 1, "scan failed")
    log = load(good)
    foreign = json.loads(json.dumps(log))
    foreign["runs"][0]["tool"]["driver"]["name"] = "CodeQL"
    damaged = []
    for damage in (lambda r: r.pop("message"), lambda r: r.update(level="fatal"),
                   lambda r: r["locations"][0]["physicalLocation"]["region"].update(startLine="3"),
                   lambda r: r.update(locations=[]), lambda r: r.update(suppressions=[7]),
                   lambda r: r.update(partialFingerprints={"charscan/v1": 1})):
        x = json.loads(json.dumps(log))
        damage(x["runs"][0]["results"][0])
        damaged.append(x)
    # Well-formed SARIF that still is not what charscan wrote.
    alien = []
    for damage, words in ((lambda r: r.update(ruleId="CS999"), "a ruleId that is none of this charscan's rules"),
                          (lambda r: r["properties"].update(codegen="maybe"), "malformed properties.codegen"),
                          (lambda r: r["locations"][0]["physicalLocation"]["artifactLocation"]
                           .update(uriBaseId="%OTHER%"), "a uriBaseId other than %SRCROOT%"),
                          (lambda r: r["message"].update(text="no links"), "message.text without links"),
                          (lambda r: r.update(fixes=[{"description": {"text": "x"}}]), "fixes other than one replacement")):
        x = json.loads(json.dumps(log))
        damage(x["runs"][0]["results"][0])
        alien.append((x, "run 0, result 0: " + words))
    out = os.path.join(d, "merged.sarif")
    for n, (bad, words) in enumerate([(foreign, "written by 'CodeQL', not by charscan")] +
                                     [(x, "run 0, result 0: malformed") for x in damaged] + alien):
        path = write(os.path.join(d, "bad%d.sarif" % n), json.dumps(bad))
        p = run(["merge", good, path, "-o", out])
        check(p.returncode == 2 and words in p.stderr and path in p.stderr,
              "merge %d: exit %d %s" % (n, p.returncode, p.stderr))
        check(not os.path.exists(out), "merge wrote a report from a bad input")
        p = run(["-p", db, "--baseline", path, "-o", out, "-q"])
        check(p.returncode == 2 and words in p.stderr, "baseline %d: exit %d %s" % (n, p.returncode, p.stderr))
        check(not os.path.exists(out), "scan wrote a report against a bad baseline")
    p = run(["merge", good, good, "-o", out])
    check(p.returncode == 0, p.stderr)
    validate(out)


@test
def a_report_read_back_and_written_again_is_the_same():
    # Everything sarif.c writes (fixes, related locations, codeFlows,
    # passes, suppressions, baseline states, absent results, odd bytes in
    # paths and messages) survives sarif-read.c: merge of one log is that log.
    weird = "we ird [x](1) \\ \u00e9.c"
    files = {"a.c": "int f(char c) { return c == -1; }\n"
                    "int g(char c) { return c < 0; } /* charscan-ignore CS002: on purpose */\n"
                    "int h(char c) { return c == 'a'; }\n",
             weird: "void s(char *p) { *p = 200; }\nint t(char c) { return c == -1; }\n"}
    d, db = project("round-trip", files)
    old = os.path.join(d, "old.sarif")
    check(run(["-p", db, "-o", old, "-q"]).returncode == 1, "scan failed")
    write(os.path.join(d, "a.c"), "int f(char c) { return c == -1; }\n"
                                  "int k(char c) { return c == 200; }\n")
    rules = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "rules", "tests"))
    rules_db = compdb(rules, sorted(f for f in os.listdir(rules) if f.endswith(".c")),
                      path=os.path.join(scratch("round-trip-rules"), "compile_commands.json"))
    seen = set()
    for args in (["-p", db, "--baseline", old, "--explain"], ["-p", rules_db, "--explain"]):
        a, b = os.path.join(d, "a.sarif"), os.path.join(d, "b.sarif")
        run(args + ["-o", a, "-q"])
        p = run(["merge", a, "-o", b])
        check(p.returncode == 0, p.stderr)
        check(load(a) == load(b), "merge changed the log of %s" % args)
        validate(b)
        for r in results(a):
            seen |= set(r) | {r.get("baselineState")}
    for k in ("fixes", "relatedLocations", "codeFlows", "kind", "suppressions", "absent", "new",
              "unchanged"):
        check(k in seen, "nothing with %s was read back" % k)


@test
def bytes_that_are_not_utf8_lose_no_suppression():
    # Found by fuzz/writers.c: a justification (or fix text) with a
    # Latin-1 byte made jansson refuse the member, and the result lost its
    # suppression; then a surrogate (ED A0 80), which a UTF-8 check by
    # lead byte alone let through, lost a related location.  Every byte
    # that is not well-formed UTF-8 becomes U+FFFD; the suppression stays.
    d = scratch("latin1")
    with open(os.path.join(d, "a.c"), "wb") as f:
        f.write(b"int f(char c) { return c == -1; } /* charscan-ignore CS001: caf\xe9 \xed\xa0\x80 */\n")
    db = compdb(d, ["a.c"])
    out = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 0, "exit %d %s" % (p.returncode, p.stderr))
    validate(out)
    sup = [r.get("suppressions") for r in results(out)]
    check(sup == [[{"kind": "inSource", "status": "accepted", "justification": "caf\ufffd \ufffd\ufffd\ufffd"}]], sup)


@test
def fuzz_corpora_replay_clean():
    # Every input in fuzz/corpus/NAME (seeds, and each crash or leak the
    # fuzzers found, kept as a regression) through the harness, built
    # with this charscan's objects and flags (ASan and UBSan under
    # SANITIZE=1): each property of fuzz/NAME.c must hold.
    corpora = os.path.join(ROOT, "fuzz", "corpus")
    names = sorted(os.listdir(corpora))
    check(len(names) >= 6, names)
    for name in names:
        replay = os.path.join(os.path.dirname(Env.charscan), "replay-" + name)
        inputs = sorted(os.path.join(corpora, name, f) for f in os.listdir(os.path.join(corpora, name)))
        check(os.access(replay, os.X_OK), "%s not built (make check builds it)" % replay)
        p = subprocess.run([replay] + inputs, capture_output=True, text=True, timeout=300)
        check(p.returncode == 0 and "%d inputs replayed" % len(inputs) in p.stdout,
              "%s: exit %d %s" % (name, p.returncode, p.stderr[-2000:]))
