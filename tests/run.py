#!/usr/bin/env python3
"""charscan test suite: rule cases, CLI, bad input, SARIF schema, determinism.

Every test runs the real charscan binary on real C files and checks what it
reports (rule id and line), what it writes (SARIF, validated against the
official 2.1.0 schema) and how it exits.  Closing line: "N passed, N failed".
"""
import argparse
import collections
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from harness import *  # noqa: F401,F403 (the shared helpers)
from harness import Env


# ---- the rule catalogue's own cases ---------------------------------------

def rule_files():
    return sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))


def scan_rule_tests(signedness_flag):
    d = scratch("rules" + signedness_flag)
    db = compdb(RULE_TESTS, rule_files(), [signedness_flag], path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", out, "--srcroot", RULE_TESTS, "-q"])
    check(p.returncode == 1, "rule tests: exit %d, want 1 (findings)\n%s" % (p.returncode, p.stderr))
    validate(out)
    return out


def rule_case_test(flag):
    def t():
        out = scan_rule_tests(flag)
        got, details = result_lines(out), result_details(out)
        problems = []
        for f in rule_files():
            detail = {}
            want, _ = expectations(os.path.join(RULE_TESTS, f), detail)
            lines = set(want) | {l for (u, l) in got if u == f}
            for l in sorted(lines):
                w, g = want.get(l, []), got.get((f, l), [])
                if w != g:
                    problems.append("%s:%d: want %s, got %s" % (f, l, w or "nothing", g or "nothing"))
            for (l, rule), (sign, fragment) in sorted(detail.items()):
                found = details.get((f, l, rule), [])
                if sign and not any(s == sign for s, _ in found):
                    problems.append("%s:%d: %s breaks when char is %s, not %s" %
                                    (f, l, rule, [s for s, _ in found], sign))
                if fragment and not any(fragment in m for _, m in found):
                    problems.append("%s:%d: %s message lacks {{%s}}: %s" %
                                    (f, l, rule, fragment, [m for _, m in found]))
        check(not problems, "\n".join(problems))
    t.__name__ = "rule cases, parsed with %s" % flag
    return t


test(rule_case_test("-fsigned-char"))
test(rule_case_test("-funsigned-char"))


@test
def every_verdict_is_reached_by_a_rule_case():
    """rules/verdicts.def is the one table from verdicts to messages: each
    FINDING row must be rendered (placeholders filled) and each PASS row
    explained for some annotated case, under the row's rule; a row no
    case reaches is untested or dead."""
    rows = re.findall(r'^(FINDING|PASS)\((\w+), (CS\d{3}), "(.*)"\)$',
                      open(os.path.join(ROOT, "rules", "verdicts.def")).read(), re.M)
    check(len(rows) > 20, "verdicts.def: %d rows read" % len(rows))
    d = scratch("verdicts")
    seen = []
    for flag in ("-fsigned-char", "-funsigned-char"):
        db = compdb(RULE_TESTS, rule_files(), [flag], path=os.path.join(d, "compile_commands.json"))
        out = os.path.join(d, "out.sarif")
        run(["-p", db, "-o", out, "--srcroot", RULE_TESTS, "--explain", "-q"])
        seen += [(r["ruleId"], r.get("kind", "fail"), r["message"]["text"])
                 for r in json.load(open(out))["runs"][0]["results"]]
    missing = []
    for kind, name, rule, text in rows:
        if kind == "PASS":
            pattern = re.compile(r"'.*': " + re.escape(text) + r"( \(see .*)?$")
        else:
            check("{" in text or "'" in text, "%s: a message with nothing of the case in it" % name)
            pattern = re.compile("^" + re.sub(r"\\\{\w+\\\}", ".*", re.escape(text)) + r"( \(see .*)?$")
        want = "pass" if kind == "PASS" else "fail"
        if not any(r == rule and k == want and pattern.match(m) for r, k, m in seen):
            missing.append("%s %s (%s): %s" % (kind, name, rule, text))
        if any("{" in m and "}" in m and k == want and r == rule for r, k, m in seen
               if pattern.match(m) and re.search(r"\{[a-z_]+\}", m)):
            missing.append("%s: placeholder left unfilled" % name)
    check(not missing, "verdicts no rule case reaches:\n" + "\n".join(missing))


@test
def readme_rule_table_matches_the_catalogue():
    rows = re.findall(r"^\| \[(CS\d{3})\]\(rules/CS\d{3}\.md\) \| ([\w-]+) \| (\w+) \|",
                      open(os.path.join(ROOT, "README.md")).read(), re.M)
    check(rows == [tuple(c) for c in CATALOGUE],
          "README's rule table drifted from rules/rules.def:\n%s\n%s" % (rows, CATALOGUE))


@test
def every_rule_has_positive_and_negative_cases():
    pos, neg = collections.Counter(), collections.Counter()
    for f in rule_files():
        want, no = expectations(os.path.join(RULE_TESTS, f))
        for ids in want.values():
            pos.update(ids)
        for ids in no.values():
            neg.update(ids)
    short = [r for r in RULE_IDS if pos[r] < 3 or neg[r] < 2]
    check(not short, "need >= 3 positive and >= 2 negative cases: " +
          ", ".join("%s (%d/%d)" % (r, pos[r], neg[r]) for r in short))
    docs = [r for r in RULE_IDS if not os.path.exists(os.path.join(ROOT, "rules", r + ".md"))]
    check(not docs, "rules without a page: %s" % docs)


@test
def p4_finding_has_declaration_and_fix():
    out = scan_rule_tests("-fsigned-char")
    src = open(os.path.join(RULE_TESTS, "CS001-compare-dead.c")).read().splitlines()
    cmp_line = next(i for i, l in enumerate(src, 1) if "j != -1" in l)
    decl_line = next(i for i, l in enumerate(src, 1) if "char cntr[2]" in l)
    hit = [r for r in results(out) if r["ruleId"] == "CS001" and
           r["locations"][0]["physicalLocation"]["region"]["startLine"] == cmp_line]
    check(len(hit) == 1, "p4 comparison not reported once: %d" % len(hit))
    r = hit[0]
    rel = [x["physicalLocation"]["region"]["startLine"] for x in r.get("relatedLocations", [])]
    check(decl_line in rel, "cntr declaration (line %d) not among related %s" % (decl_line, rel))
    fix = r["fixes"][0]["artifactChanges"][0]
    rep = fix["replacements"][0]
    check(rep["insertedContent"]["text"] == "signed char", "fix is %r" % rep["insertedContent"])
    reg = rep["deletedRegion"]
    col = src[decl_line - 1].index("char") + 1
    check((reg["startLine"], reg["startColumn"], reg["endColumn"]) == (decl_line, col, col + 4),
          "fix replaces %r, want line %d col %d-%d" % (reg, decl_line, col, col + 4))
    check(r["properties"]["breaksWhenCharIs"] == "unsigned", "direction %r" % r["properties"])


@test
def macro_findings_point_at_expansion_with_definition():
    out = scan_rule_tests("-fsigned-char")
    src = open(os.path.join(RULE_TESTS, "CS004-store-out-of-range.c")).read().splitlines()
    line = next(i for i, l in enumerate(src, 1) if "= clamp_t(char" in l)
    defn = next(i for i, l in enumerate(src, 1) if l.startswith("#define clamp_t"))
    hit = [r for r in results(out) if r["ruleId"] == "CS004" and
           r["locations"][0]["physicalLocation"]["region"]["startLine"] == line]
    check(hit, "clamp_t store not reported")
    reg = hit[0]["locations"][0]["physicalLocation"]["region"]
    check(reg["startColumn"] == src[line - 1].index("clamp_t") + 1, "column %r" % reg)
    msgs = [(x["physicalLocation"]["region"]["startLine"], x["message"]["text"])
            for x in hit[0].get("relatedLocations", [])]
    check((defn, "in expansion of macro 'clamp_t'") in msgs, "macro definition missing: %s" % msgs)


@test
def signedness_option_restricts_direction():
    d = scratch("signedness")
    db = compdb(RULE_TESTS, rule_files(), path=os.path.join(d, "compile_commands.json"))
    seen = {}
    for s in ("signed", "unsigned", "both"):
        out = os.path.join(d, s + ".sarif")
        p = run(["-p", db, "-o", out, "--signedness", s, "-q"])
        check(p.returncode == 1, "exit %d" % p.returncode)
        validate(out)
        seen[s] = [r["properties"]["breaksWhenCharIs"] for r in results(out)]
    check("unsigned" not in seen["signed"] and "signed" not in seen["unsigned"],
          "direction filter leaks")
    check(len(seen["signed"]) + len(seen["unsigned"]) - seen["signed"].count("either")
          == len(seen["both"]), "signed + unsigned != both")
    check(seen["signed"] and seen["unsigned"], "one direction is empty")


@test
def rules_option_selects_rules():
    d = scratch("rulesopt")
    db = compdb(RULE_TESTS, rule_files(), path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "--rules", "CS001,char-index", "-q"])
    check(p.returncode == 1, "exit %d" % p.returncode)
    check({r["ruleId"] for r in results(out)} == {"CS001", "CS005"}, "rules %s" %
          {r["ruleId"] for r in results(out)})
    p = run(["-p", db, "-o", out, "--rules", "-CS003", "-q"])
    ids = {r["ruleId"] for r in results(out)}
    check("CS003" not in ids and "CS001" in ids, "subtractive --rules: %s" % ids)
    p = run(["-p", db, "--rules", "CS999"])
    check(p.returncode == 2 and "unknown rule" in p.stderr, "unknown rule: %d %s" % (p.returncode, p.stderr))


# ---- output ---------------------------------------------------------------

@test
def output_identical_for_any_jobs():
    d = scratch("jobs")
    db = compdb(RULE_TESTS, rule_files(), path=os.path.join(d, "compile_commands.json"))
    outs = []
    for j in ("1", "2", "8"):
        out = os.path.join(d, "j%s.sarif" % j)
        run(["-p", db, "-o", out, "-j", j, "-q"])
        outs.append(open(out, "rb").read())
    check(outs[0] == outs[1] == outs[2], "SARIF differs between -j1, -j2 and -j8")
    t1 = run(["-p", db, "-j", "1", "-q"]).stdout
    t2 = run(["-p", db, "-j", "2", "-q"]).stdout
    check(t1 == t2 and t1, "text differs between -j1 and -j2")


@test
def text_output_is_gcc_style():
    d = scratch("text")
    db = compdb(RULE_TESTS, rule_files(), path=os.path.join(d, "compile_commands.json"))
    p = run(["-p", db, "-q"], cwd=RULE_TESTS)
    lines = p.stdout.splitlines()
    check(lines, "no text output")
    bad = [l for l in lines if not TEXT_LINE.match(l)]
    check(not bad, "not gcc-style: %s" % bad[:3])
    firsts = [TEXT_LINE.match(l) for l in lines]
    check(all(m.group(7) for m in firsts if m.group(4) != "note"), "warning without [rule]")
    # A note with [rule] is a finding of a note-level rule; the others
    # (related locations, fixes) carry none.
    levels = {c[0]: c[2] for c in CATALOGUE}
    check(all(levels[m.group(7)] == "note" for m in firsts if m.group(4) == "note" and m.group(7)),
          "a related note with [rule]")
    check(all(os.path.exists(os.path.join(RULE_TESTS, m.group(1))) for m in firsts),
          "paths not relative to the current directory")
    n_sarif = len(results(scan_rule_tests("-fsigned-char")))
    check(sum(1 for m in firsts if m.group(7)) == n_sarif, "text and SARIF disagree")


@test
def sarif_has_rules_taxonomies_and_fingerprints():
    out = scan_rule_tests("-fsigned-char")
    run0 = load(out)["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    check([r["id"] for r in rules] == RULE_IDS, "rules[] %s" % [r["id"] for r in rules])
    for r in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            check(r[key]["text"].strip(), "%s lacks %s" % (r["id"], key))
        check(any(t.startswith("external/cwe/cwe-") for t in r["properties"]["tags"]), r["id"] + " no CWE tag")
        check(r["helpUri"].endswith(r["id"] + ".md"), "helpUri " + r["helpUri"])
    check({t["name"] for t in run0["taxonomies"]} == {"CWE", "CERT C"}, "taxonomies")
    base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    check(base == "file://" + RULE_TESTS + "/", "SRCROOT %s" % base)
    for r in run0["results"]:
        check(r["ruleIndex"] == RULE_IDS.index(r["ruleId"]), "ruleIndex")
        check(re.fullmatch(r"[0-9a-f]{32}", r["partialFingerprints"]["charscan/v1"]), "fingerprint")
        check(not re.search(r"\bline \d", r["message"]["text"]), "line number in message")
    fps = [r["partialFingerprints"]["charscan/v1"] for r in run0["results"]]
    check(len(fps) == len(set(fps)), "fingerprints not unique")


@test
def fingerprints_survive_line_shifts_and_columns_count_utf16():
    d = scratch("shift")
    code = open(os.path.join(RULE_TESTS, "CS001-compare-dead.c")).read()
    write(os.path.join(d, "a.c"), code)
    db = compdb(d, ["a.c"])
    run(["-p", db, "-o", os.path.join(d, "1.sarif"), "-q"])
    # Three lines above, and the comparison line re-indented.
    write(os.path.join(d, "a.c"), "/* moved */\n\n\n" + code.replace(
        "\t\tif (j != -1 &&", "\t\t   if (j != -1 &&"))
    run(["-p", db, "-o", os.path.join(d, "2.sarif"), "-q"])
    a = {r["partialFingerprints"]["charscan/v1"] for r in results(os.path.join(d, "1.sarif"))}
    b = {r["partialFingerprints"]["charscan/v1"] for r in results(os.path.join(d, "2.sarif"))}
    check(a == b and a, "fingerprints changed: %d common of %d/%d" % (len(a & b), len(a), len(b)))
    # SARIF columns are UTF-16 code units; libclang counts bytes.
    write(os.path.join(d, "a.c"), "int f(char c)\n{\n/* \u00e9\U0001F600 */\treturn c == -1;\n}\n")
    run(["-p", db, "-o", os.path.join(d, "3.sarif"), "-q"])
    validate(os.path.join(d, "3.sarif"))
    reg = results(os.path.join(d, "3.sarif"))[0]["locations"][0]["physicalLocation"]["region"]
    line = "/* \u00e9\U0001F600 */\treturn c == -1;"
    want = len(line[:line.index("c ==")].encode("utf-16-le")) // 2 + 1
    check((reg["startLine"], reg["startColumn"], reg["endColumn"]) == (3, want, want + 7),
          "region %r, want line 3 columns %d-%d" % (reg, want, want + 7))


@test
def header_findings_reported_once():
    d = scratch("header")
    write(os.path.join(d, "h.h"), "static inline int neg(char c) { return c < 0; }\n")
    for n in ("a", "b", "c"):
        write(os.path.join(d, n + ".c"), '#include "h.h"\nint %s(char x) { return neg(x); }\n' % n)
    db = compdb(d, ["a.c", "b.c", "c.c"])
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q"])
    check(p.returncode == 1, "exit %d" % p.returncode)
    r = results(out)
    check(len(r) == 1 and r[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "h.h",
          "header finding count %d" % len(r))


@test
def clean_code_exits_zero():
    d = scratch("clean")
    write(os.path.join(d, "a.c"), "int f(unsigned char c) { return c == 0xff; }\nint g(char c) { return c == 'x'; }\n")
    p = run(["-p", compdb(d, ["a.c"]), "-o", os.path.join(d, "o.sarif")])
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    validate(os.path.join(d, "o.sarif"))
    check(results(os.path.join(d, "o.sarif")) == [], "findings in clean code")
    p = run(["-p", compdb(RULE_TESTS, ["CS003-relational.c"], path=os.path.join(d, "w.json")),
             "--fail-on", "error", "-q"])
    check(p.returncode == 0, "--fail-on error with only warnings: exit %d" % p.returncode)


@test
def command_strings_are_never_run_by_a_shell():
    d = scratch("shell")
    marker = os.path.join(d, "pwned")
    write(os.path.join(d, "a b.c"), "int f(char c) { return c < 0 && X; }\n")
    entry = [{"directory": d, "file": "a b.c",
              "command": "clang -DX='1' \"-DY=a b\" -c 'a b.c' -o /dev/null $(touch %s) `touch %s`" % (marker, marker)}]
    write(os.path.join(d, "compile_commands.json"), json.dumps(entry))
    p = run(["-p", d, "-o", os.path.join(d, "o.sarif"), "-q"])
    check(not os.path.exists(marker), "a shell ran the command")
    r = results(os.path.join(d, "o.sarif"))
    check([x["ruleId"] for x in r] == ["CS002"], "quoted arguments not split right: %s %s" % (r, p.stderr))


@test
def print_args_shows_the_filtered_argv():
    d = scratch("printargs")
    write(os.path.join(d, "a.c"), "int f(void) { return 0; }\n")
    entry = [{"directory": d, "file": "a.c", "command":
              "clang -Wp,-MMD,./.a.o.d -Werror -DX='1 2' -c a.c -o a.o -MD -MF a.d"}]
    write(os.path.join(d, "compile_commands.json"), json.dumps(entry))
    p = run(["-p", d, "--print-args"])
    check(p.returncode == 0, "exit %d %s" % (p.returncode, p.stderr))
    got = [json.loads(l) for l in p.stdout.splitlines()]
    check(len(got) == 1 and got[0]["file"] == os.path.join(d, "a.c"), "entries %s" % got)
    check(got[0]["arguments"] == ["clang", "-w", "-working-directory", d, "-DX=1 2", "-c", "a.c"],
          "argv %s" % got[0]["arguments"])
    check(not os.path.exists(os.path.join(d, "a.d")) and not os.path.exists(os.path.join(d, ".a.o.d")),
          "a dependency file was written")


@test
def cli_help_version_list():
    p = run(["--help"])
    check(p.returncode == 0 and "EXIT STATUS" in p.stdout and "SYNOPSIS" in p.stdout, "--help")
    p = run(["--version"])
    check(p.returncode == 0 and p.stdout.startswith("charscan "), "--version")
    p = run(["--list-rules"])
    check(p.returncode == 0 and [l.split()[0] for l in p.stdout.splitlines()] == RULE_IDS, "--list-rules")
    for bad in (["-j", "0", "-p", "."], ["--format", "xml", "-p", "."], ["--bogus"], []):
        p = run(bad)
        check(p.returncode == 2 and p.stderr.startswith("charscan: "), "usage error %s: %d" % (bad, p.returncode))


@test
def man_page_is_the_help_text_and_installs():
    # make builds BUILD/charscan.1 from --help (scanner/gen-man.sh): every
    # option and exit status of --help is an entry of the page, groff
    # warns about nothing, and make install puts it in man1.
    page = os.path.join(os.path.dirname(Env.charscan), "charscan.1")
    check(os.path.exists(page), "%s not built" % page)
    env = dict(os.environ, MANWIDTH="200", MAN_KEEP_FORMATTING="0")
    p = subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True, env=env)
    check(p.returncode == 0 and not p.stderr.strip(), "man: %s" % p.stderr)
    shown = re.sub(r".\x08", "", p.stdout)
    helptext = run(["--help"]).stdout
    opts = re.findall(r"^    (-[-\w]+(?:, --[-\w]+)?(?: [A-Z][\w./]*)?)  ", helptext, re.M)
    check(len(opts) >= 20, opts)
    for o in opts:
        check(re.search(r"^ {7}" + re.escape(o) + r"\b", shown, re.M), "option %r not an entry" % o)
    for section in re.findall(r"^([A-Z][A-Z ]+)$", helptext, re.M):
        check(re.search(r"^" + section + "$", shown, re.M), "section %s lost" % section)
    for code in ("129, 130, 143", "0", "3"):
        check(re.search(r"^ {7}" + re.escape(code) + r"\b", shown, re.M), "exit status %s" % code)
    dest = scratch("install")
    p = subprocess.run(["make", "-s", "-C", ROOT, "install", "DESTDIR=" + dest, "PREFIX=/usr",
                        "BUILD=" + os.path.dirname(Env.charscan)], capture_output=True, text=True)
    check(p.returncode == 0, p.stderr)
    check(open(os.path.join(dest, "usr/share/man/man1/charscan.1")).read() == open(page).read(),
          "make install did not install the page")
    check(os.access(os.path.join(dest, "usr/bin/charscan"), os.X_OK), "make install: no binary")


@test
def file_arguments_restrict_the_scan():
    d = scratch("files")
    db = compdb(RULE_TESTS, rule_files(), path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "o.sarif")
    p = run(["-p", db, "-o", out, "-q", "--srcroot", RULE_TESTS,
             os.path.join(RULE_TESTS, "CS007-switch-case.c")])
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results(out)}
    check(uris == {"CS007-switch-case.c"}, "files %s" % uris)
    p = run(["-p", db, "nothere.c"])
    check(p.returncode == 2 and "not in the compile database" in p.stderr, "unknown FILE: %s" % p.stderr)


# ---- bad input --------------------------------------------------------------

def no_leftovers(d, name):
    left = [f for f in os.listdir(d) if f.startswith(name)]
    check(not left, "left behind: %s" % left)


@test
def missing_database():
    d = scratch("missing")
    p = run(["-p", os.path.join(d, "nope"), "-o", os.path.join(d, "o.sarif")])
    check(p.returncode == 2, "exit %d" % p.returncode)
    check("cannot open compile database" in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr)
    no_leftovers(d, "o.sarif")


@test
def malformed_database():
    d = scratch("malformed")
    write(os.path.join(d, "compile_commands.json"), '[{"directory": "/tmp", "file": "a.c",\n "arguments": [}]')
    p = run(["-p", d, "-o", os.path.join(d, "o.sarif")])
    check(p.returncode == 2, "exit %d" % p.returncode)
    check(re.search(r"compile_commands.json:2:\d+: malformed compile database", p.stderr), p.stderr)
    no_leftovers(d, "o.sarif")
    write(os.path.join(d, "compile_commands.json"), '{"not": "an array"}')
    p = run(["-p", d])
    check(p.returncode == 2 and "must be a JSON array" in p.stderr, p.stderr)


@test
def empty_database():
    d = scratch("empty")
    write(os.path.join(d, "compile_commands.json"), "[]")
    p = run(["-p", d, "-o", os.path.join(d, "o.sarif")])
    check(p.returncode == 2 and "has no entries" in p.stderr, "%d %s" % (p.returncode, p.stderr))
    no_leftovers(d, "o.sarif")


def scan_with_problem(name, good_code, entries_extra, files_extra):
    d = scratch(name)
    write(os.path.join(d, "good.c"), good_code)
    for f, text in files_extra.items():
        write(os.path.join(d, f), text)
    entries = [{"directory": d, "file": "good.c", "arguments": ["clang", "-c", "good.c"]}] + entries_extra
    write(os.path.join(d, "compile_commands.json"), json.dumps(entries))
    out = os.path.join(d, "o.sarif")
    p = run(["-p", d, "-o", out, "-q"])
    validate(out)
    return d, p, load(out)["runs"][0]


GOOD = "int f(char c) { return c == -1; }\n"


@test
def vanished_file_is_reported_and_rest_scanned():
    d, p, r = scan_with_problem("vanished", GOOD,
                                [{"directory": "/tmp", "file": "/tmp/charscan-gone/x.c",
                                  "arguments": ["clang", "-c", "/tmp/charscan-gone/x.c"]}], {})
    check(p.returncode == 3, "exit %d" % p.returncode)
    check("no longer exists" in p.stderr, p.stderr)
    inv = r["invocations"][0]
    check(inv["executionSuccessful"] is False, "executionSuccessful")
    n = inv["toolExecutionNotifications"]
    check(len(n) == 1 and "no longer exists" in n[0]["message"]["text"], n)
    check([x["ruleId"] for x in r["results"]] == ["CS001"], "good TU not scanned")


@test
def syntax_error_tu_is_reported_and_rest_scanned():
    d, p, r = scan_with_problem("syntax", GOOD,
                                [{"directory": "/tmp", "file": "bad.c", "arguments": ["clang", "-c", "bad.c"]}],
                                {})
    # directory /tmp: bad.c does not exist there; make a real broken one too
    d2 = scratch("syntax2")
    write(os.path.join(d2, "good.c"), GOOD)
    write(os.path.join(d2, "bad.c"), "int g(char c) { return c < 0 }\nint h( {\n")
    compdb(d2, ["good.c", "bad.c"])
    out = os.path.join(d2, "o.sarif")
    p = run(["-p", d2, "-o", out, "-q"])
    check(p.returncode == 3, "exit %d" % p.returncode)
    validate(out)
    run0 = load(out)["runs"][0]
    n = run0["invocations"][0]["toolExecutionNotifications"]
    check(len(n) == 1 and "does not compile" in n[0]["message"]["text"] and "bad.c" in n[0]["message"]["text"], n)
    check("bad.c" in p.stderr and "error" in p.stderr, p.stderr)
    check("CS001" in [x["ruleId"] for x in run0["results"]], "good TU lost")


@test
def malformed_entry_is_skipped_with_notice():
    d, p, r = scan_with_problem("entry", GOOD, [{"directory": "/tmp"}, {"file": 3}], {})
    check(p.returncode == 3, "exit %d" % p.returncode)
    n = r["invocations"][0]["toolExecutionNotifications"]
    check(len(n) == 2 and all("skipped" in x["message"]["text"] for x in n), n)
    check([x["ruleId"] for x in r["results"]] == ["CS001"], "good TU lost")


@test
def unwritable_output_fails_before_scanning():
    d = scratch("unwritable")
    write(os.path.join(d, "a.c"), GOOD)
    db = compdb(d, ["a.c"])
    for target in (os.path.join(d, "no", "such", "dir", "o.sarif"), "/proc/charscan.sarif"):
        p = run(["-p", db, "-o", target])
        check(p.returncode == 2, "exit %d for %s" % (p.returncode, target))
        check("cannot write " + target in p.stderr and p.stdout == "", p.stderr)
    # An existing report is kept whole when the new one cannot be finished.
    keep = write(os.path.join(d, "keep.sarif"), "old\n")
    os.chmod(d, 0o555)
    try:
        p = run(["-p", db, "-o", keep])
    finally:
        os.chmod(d, 0o755)
    if os.geteuid() != 0:
        check(p.returncode == 2 and open(keep).read() == "old\n", "old report damaged")
    # No temporary; keep.sarif.lock, the lock --kbuild appends and whole
    # scans share, may stay (removing it would break the lock).
    no_leftovers(d, "keep.sarif.charscan-")
    check(set(os.listdir(d)) <= {"a.c", "compile_commands.json", "keep.sarif", "keep.sarif.lock"},
          "left behind: %s" % os.listdir(d))


@test
def odd_paths_non_utf8_and_quotes():
    d = scratch("odd")
    names = [b"caf\xe9.c", b'say "hi".c', "ünï cödé.c".encode()]
    for n in names:
        with open(os.path.join(d.encode(), n), "w") as f:
            f.write(GOOD)
    # The database holds the Latin-1 byte as it is, like a build would.
    raw = b"[" + b",".join(
        b'{"directory": "%s", "file": "%s", "arguments": ["clang", "-c", "%s"]}'
        % (d.encode(), n.replace(b'"', b'\\"'), n.replace(b'"', b'\\"')) for n in names) + b"]"
    with open(os.path.join(d, "compile_commands.json"), "wb") as f:
        f.write(raw)
    out = os.path.join(d, "o.sarif")
    p = subprocess.run([Env.charscan, "-p", d, "-o", out, "--format", "text", "-q"], capture_output=True, cwd=d)
    check(p.returncode == 1, "exit %d: %s" % (p.returncode, p.stderr))
    validate(out)
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results(out))
    check(uris == sorted(["caf%E9.c", "say%20%22hi%22.c", "%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.c"]),
          "uris %s" % uris)
    check(b"caf\xe9.c:1:" in p.stdout, "text output lost the raw path")


@test
def reports_render_in_microsofts_sarif_viewer():
    import viewer
    out = scan_rule_tests("-funsigned-char")
    d = scratch("viewer")
    png = os.path.join(ROOT, "out", "viewer-rule-cases.png")
    os.makedirs(os.path.dirname(png), exist_ok=True)
    dom = viewer.render(out, d, png)
    problems = viewer.problems(out, dom)
    check(not problems, "\n".join(problems[:20]))
    check(os.path.getsize(png) > 10000, "no screenshot")
    # The check can fail: a report the page did not show is caught.
    log = json.load(open(out))
    log["runs"][0]["results"][0]["message"]["text"] = "a message nobody rendered"
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "https://example.org/not-linked"
    other = write(os.path.join(d, "other.sarif"), json.dumps(log))
    caught = viewer.problems(other, dom)
    check(any("a message nobody rendered" in p for p in caught) and any("not-linked" in p for p in caught),
          "a result or rule the viewer did not show went unnoticed: %s" % caught)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--charscan", required=True)
    ap.add_argument("-k", help="run tests whose name contains this")
    ap.add_argument("-j", "--jobs", type=int, default=len(os.sched_getaffinity(0)),
                    help="tests run at once (default: the CPUs this process may use)")
    a = ap.parse_args()
    Env.charscan = os.path.abspath(a.charscan)
    Env.work = tempfile.mkdtemp(prefix="charscan-tests.")
    import premerge  # noqa: F401 (registers its tests)
    import selfcontained  # noqa: F401
    import confirm  # noqa: F401
    import robust  # noqa: F401
    import scale  # noqa: F401
    import cache  # noqa: F401
    import fixes  # noqa: F401
    import security  # noqa: F401
    import layout  # noqa: F401
    import docs  # noqa: F401
    import debpkg  # noqa: F401
    import kernelarch  # noqa: F401
    import htmlreport  # noqa: F401
    import kernelseries  # noqa: F401
    import rspfiles  # noqa: F401
    import origins  # noqa: F401
    import benchrows  # noqa: F401
    CHOSEN[:] = [t for t in TESTS if not a.k or a.k in t.__name__.replace("_", " ")]
    base = Env.work
    passed = failed = 0
    # Each test in a forked worker with its own scratch folder and its
    # output kept; results are printed in the suite's order as they come.
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(max(1, a.jobs)) as pool:
        for ok, text in pool.imap(run_one, [(base, i) for i in range(len(CHOSEN))]):
            passed += ok
            failed += not ok
            sys.stdout.write(text)
            sys.stdout.flush()
    shutil.rmtree(base, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


CHOSEN = []	# the tests this run: the workers find theirs by index


def run_one(job):
    """One test in this worker: its scratch folder apart from every other
    test's (helpers name folders by purpose, and two tests may share a
    name), its stdout and stderr, the child processes' too, kept and
    returned with the verdict line."""
    base, i = job
    t = CHOSEN[i]
    Env.work = os.path.join(base, "t%03d" % i)
    os.makedirs(Env.work)
    name = t.__name__.replace("_", " ")
    with tempfile.TemporaryFile(mode="w+", errors="replace") as log:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        t0 = time.monotonic()
        try:
            t()
            ok, verdict = True, "ok      %s" % name
        except Failure as e:
            ok, verdict = False, "FAILED  %s\n        %s" % (name, str(e).replace("\n", "\n        "))
        except Exception:
            ok, verdict = False, "FAILED  %s (exception)\n%s" % (name, traceback.format_exc())
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        seconds = time.monotonic() - t0
        log.seek(0)
        text = log.read()
    return ok, "%s%s  [%.0f s]\n" % (text, verdict, seconds)


if __name__ == "__main__":
    sys.exit(main())
