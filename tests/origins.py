"""Value origins: how sure each finding is that a byte 0x80-0xff reaches
the use (SARIF rank, properties.confidence and valueOrigin, the level it
gives, --min-confidence), and plain char fields settled by every write a
scan sees across TUs.  The cases are rule cases: a finding's line carries
"/* confidence: LEVEL {{origin fragment}} */" after its expectation."""
import json
import os
import re
import shutil

from harness import ROOT, check, compdb, run, scratch, test, validate, write

RULE_TESTS = os.path.join(ROOT, "rules", "tests")
CONFIDENCE = re.compile(r"/\*\s*confidence:\s*(low|medium|high)(?:\s*\{\{(.*?)\}\})?\s*\*/")
RANKS = {"low": 20.0, "medium": 50.0, "high": 90.0}
LEVELS = {"low": "note", "medium": "warning", "high": "error"}


def marked():
    """{(file, line): (confidence, fragment)} over the rule cases."""
    want = {}
    for f in sorted(os.listdir(RULE_TESTS)):
        if f.endswith(".c"):
            for n, line in enumerate(open(os.path.join(RULE_TESTS, f)), 1):
                m = CONFIDENCE.search(line)
                if m:
                    want[(f, n)] = (m.group(1), m.group(2))
    return want


def scan(d, files, *args):
    db = compdb(RULE_TESTS, files, ["-fsigned-char"], path=os.path.join(d, "compile_commands.json"))
    out = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", out, "--srcroot", RULE_TESTS, "-q"] + list(args))
    check(p.returncode in (0, 1), "scan: exit %d\n%s" % (p.returncode, p.stderr))
    return out, p


def by_line(sarif):
    got = {}
    for r in json.load(open(sarif))["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        got.setdefault((loc["artifactLocation"]["uri"], loc["region"]["startLine"]), []).append(r)
    return got


def case_files():
    """Every rule case: a field's writes may be in another file."""
    return sorted(f for f in os.listdir(RULE_TESTS) if f.endswith(".c"))


@test
def each_finding_says_how_sure_it_is_and_where_its_bytes_come_from():
    want = marked()
    check(len(want) >= 10, "too few confidence cases: %d" % len(want))
    check({c for c, _ in want.values()} == set(RANKS), "cases miss a confidence level")
    out, _ = scan(scratch("origins"), case_files())
    validate(out)
    got = by_line(out)
    bad = []
    for (f, n), (conf, fragment) in sorted(want.items()):
        rs = [r for r in got.get((f, n), []) if r.get("kind") != "pass"]
        if len(rs) != 1:
            bad.append("%s:%d: %d findings" % (f, n, len(rs)))
            continue
        r = rs[0]
        props = r.get("properties", {})
        if (props.get("confidence"), r.get("rank"), r["level"]) != (conf, RANKS[conf], LEVELS[conf]):
            bad.append("%s:%d: confidence %s rank %s level %s, want %s" % (
                f, n, props.get("confidence"), r.get("rank"), r["level"], conf))
        if fragment and fragment not in props.get("valueOrigin", ""):
            bad.append("%s:%d: origin %r lacks %r" % (f, n, props.get("valueOrigin"), fragment))
    check(not bad, "\n".join(bad))


@test
def min_confidence_keeps_only_findings_as_sure_as_asked():
    want = marked()
    d = scratch("origins-min")
    for level, keep in (("medium", {"medium", "high"}), ("high", {"high"})):
        out, _ = scan(d, case_files(), "--min-confidence", level)
        got = by_line(out)
        lines = {k for k, (c, _) in want.items() if c in keep}
        gone = {k for k, (c, _) in want.items() if c not in keep}
        check(all(k in got for k in lines), "--min-confidence %s dropped %s" % (
            level, sorted(k for k in lines if k not in got)))
        check(not any(k in got for k in gone), "--min-confidence %s kept %s" % (
            level, sorted(k for k in gone if k in got)))
        check(all(r["properties"].get("confidence") in keep
                  for rs in got.values() for r in rs if r.get("kind") != "pass"),
              "--min-confidence %s kept a finding below it" % level)
    p = run(["-p", d, "--min-confidence", "sure"])
    check(p.returncode == 2 and "low, medium or high" in p.stderr,
          "a bad --min-confidence: exit %d %s" % (p.returncode, p.stderr))


@test
def a_config_level_wins_over_the_confidence_level():
    d = scratch("origins-config")
    shutil.copy(os.path.join(RULE_TESTS, "CS006-origins.c"), d)
    write(os.path.join(d, ".charscan"), "level.CS006 = note\n")
    db = compdb(d, ["CS006-origins.c"], ["-fsigned-char"])
    out = os.path.join(d, "out.sarif")
    p = run(["-p", db, "-o", out, "--srcroot", d, "-q"])
    check(p.returncode in (0, 1), "scan: %s" % p.stderr)
    levels = {r["level"] for r in json.load(open(out))["runs"][0]["results"]
              if r["ruleId"] == "CS006"}
    check(levels == {"note"}, "CS006 levels with 'level CS006 note': %s" % levels)


FIELD_CASES = ["CS003-field-origins.c", "CS003-field-origins-writes.c"]


@test
def fields_are_settled_by_every_write_the_scan_sees():
    d = scratch("origins-fields")
    out, _ = scan(d, FIELD_CASES, "--explain")
    got = by_line(out)
    src = open(os.path.join(RULE_TESTS, FIELD_CASES[0])).read().splitlines()
    line = {name: next(i for i, l in enumerate(src, 1) if name in l and "return" in l)
            for name in ("d->level", "d->flag", "c > 5", "d->inited", "fo_global_ok", "d->raw")}
    for name in ("d->level", "d->flag", "c > 5", "d->inited", "fo_global_ok"):
        rs = got.get((FIELD_CASES[0], line[name]), [])
        check(rs and all(r.get("kind") == "pass" and "every write the scan sees" in
                         r["message"]["text"] for r in rs),
              "%s: not settled: %s" % (name, [r["message"]["text"] for r in rs]))
    raw = [r for r in got.get((FIELD_CASES[0], line["d->raw"]), []) if r.get("kind") != "pass"]
    check(raw and "cannot bound at %s:" % FIELD_CASES[1] in raw[0]["properties"]["valueOrigin"],
          "d->raw: %s" % raw)
    # One TU alone does not see the writes: nothing is settled.
    out, _ = scan(scratch("origins-fields-part"), FIELD_CASES, os.path.join(RULE_TESTS, FIELD_CASES[0]))
    got = by_line(out)
    check((FIELD_CASES[0], line["d->level"]) in got,
          "a scan of one file of the database settled a field written in another")
