"""Shared by the test modules: the test registry, running charscan,
compile databases, SARIF loading and schema validation."""
import collections
import json
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULE_TESTS = os.path.join(ROOT, "rules", "tests")
# The catalogue is the one list of rules: read it, never copy it.
CATALOGUE = [m.groups() for m in re.finditer(r'^RULE\((CS\d{3}), "([^"]+)", (\w+),',
                                             open(os.path.join(ROOT, "rules", "rules.def")).read(),
                                             re.M)]
RULE_IDS = [c[0] for c in CATALOGUE]
# /* expect: CS001 unsigned {{always true}} CS004 */ and /* ok: CS003 */:
# each rule id may be followed by the signedness it breaks under
# (signed, unsigned, either) and a fragment of its message.
EXPECT = re.compile(r"/\*\s*(expect|ok):\s*((?:CS\d{3}(?:\s+(?:signed|unsigned|either))?"
                    r"(?:\s*\{\{.*?\}\})?\s*)+)\*/")
EXPECT_ITEM = re.compile(r"(CS\d{3})(?:\s+(signed|unsigned|either))?(?:\s*\{\{(.*?)\}\})?")
TEXT_LINE = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.+?)( \[(CS\d{3})\])?$")


class Env:
    """Set by run.py's main(): the binary under test and a scratch folder."""
    charscan = None
    work = None


TESTS = []


class Tally:
    """The checks of a script CI runs on its own (kbuild-check.py,
    fix-kernel.py): an "ok"/"FAILED" line each, then "N passed, N failed"."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print("ok      " + name)
        else:
            self.failed += 1
            print("FAILED  %s\n        %s" % (name, detail[-2000:].replace("\n", "\n        ")))
        return ok

    def close(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def test(fn):
    TESTS.append(fn)
    return fn


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def run(args, **kw):
    kw.setdefault("cwd", Env.work)
    p = subprocess.run([Env.charscan] + args, capture_output=True, text=True,
                       errors="replace", **kw)
    return p


def compdb(directory, files, flags=(), path=None, command=False):
    entries = []
    for f in files:
        argv = ["clang"] + list(flags) + ["-c", f, "-o", "/dev/null"]
        e = {"directory": directory, "file": f}
        if command:
            e["command"] = " ".join(argv)
        else:
            e["arguments"] = argv
        entries.append(e)
    path = path or os.path.join(directory, "compile_commands.json")
    with open(path, "w") as out:
        json.dump(entries, out)
    return path


MULTITOOL = os.path.join(HERE, "node_modules", "@microsoft", "sarif-multitool-linux",
                         "Sarif.Multitool")


def validate(*sarif_files):
    """The official 2.1.0 schema (ajv), then the SARIF multitool's own
    rules and its GitHub code scanning ones ("Gh": what an upload needs),
    failing on any warning or error.  (The multitool exits 0 whatever it
    finds, so its report is read.)"""
    p = subprocess.run(["node", os.path.join(HERE, "validate-sarif.js")] + list(sarif_files),
                       capture_output=True, text=True)
    check(p.returncode == 0, "SARIF schema validation failed:\n" + p.stdout + p.stderr)
    for f in sarif_files:
        report = f + ".multitool"
        p = subprocess.run([MULTITOOL, "validate", "--rule-kind", "Gh;Sarif", f, "-o", report,
                            "--log", "ForceOverwrite"], capture_output=True, text=True)
        check(p.returncode == 0 and os.path.exists(report), "multitool failed: " + p.stdout + p.stderr)
        with open(report) as r:
            found = json.load(r)["runs"][0].get("results", [])
        os.unlink(report)
        bad = ["%s %s: %s" % (x.get("level", "warning"), x["ruleId"],
                              x["message"].get("text") or x["message"].get("arguments"))
               for x in found if x.get("level", "warning") in ("warning", "error")]
        check(not bad, "%s: multitool SARIF/GitHub rules:\n%s" % (f, "\n".join(bad[:10])))


def load(sarif):
    with open(sarif, encoding="utf-8") as f:
        return json.load(f)


def results(sarif):
    return load(sarif)["runs"][0]["results"]


def result_details(sarif):
    """{(uri, line, id): [(breaksWhenCharIs, message)]}"""
    got = collections.defaultdict(list)
    for r in results(sarif):
        loc = r["locations"][0]["physicalLocation"]
        got[(loc["artifactLocation"]["uri"], loc["region"]["startLine"], r["ruleId"])].append(
            (r.get("properties", {}).get("breaksWhenCharIs"), r["message"]["text"]))
    return got


def result_lines(sarif):
    """{(uri, line): sorted rule ids}"""
    got = collections.defaultdict(list)
    for r in results(sarif):
        loc = r["locations"][0]["physicalLocation"]
        got[(loc["artifactLocation"]["uri"], loc["region"]["startLine"])].append(r["ruleId"])
    return {k: sorted(v) for k, v in got.items()}


def expectations(path, detail=None, passes=None):
    """(expected {line: sorted ids}, negatives {line: ids}) from a test file;
    detail, if given, gets {(line, id): (signedness or None, fragment or None)};
    passes, if given, gets {line: [(id, fragment)]}: an "ok" with a fragment
    is a harmless widening whose --explain pass gives that reason."""
    want, neg = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            for kind, body in EXPECT.findall(line):
                items = EXPECT_ITEM.findall(body)
                (want if kind == "expect" else neg)[n] = sorted(i[0] for i in items)
                if detail is not None and kind == "expect":
                    for rule, sign, fragment in items:
                        detail[(n, rule)] = (sign or None, fragment or None)
                if passes is not None and kind == "ok":
                    passes[n] = [(rule, fragment) for rule, _, fragment in items if fragment]
                    if not passes[n]:
                        del passes[n]
    return want, neg


def scratch(name):
    d = os.path.join(Env.work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


