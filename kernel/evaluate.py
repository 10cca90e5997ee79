#!/usr/bin/env python3
"""evaluate.py CONFIRMED.sarif CHANGES.tsv SRCROOT NAME OUTDIR [TIMES]

What the codegen oracle (charscan confirm) says of a scan.  A changed line
is one whose instructions differ between -fsigned-char and -funsigned-char.
  explained  a changed line with a finding on it or a line next to it (or
             next to the invocation of the macro whose argument it is in:
             SARIF properties.expandedAtLine, the line debug info gives)
  accounted  explained, or covered by a harmless-widening verdict (a SARIF
             result of kind "pass", written by --explain), or a register
             move: a line whose only change is where values live (moves,
             pushes and pops, or the same operations on other registers
             and stack slots) in a function with a line accounted for
             otherwise: register allocation shifted by that change
  confirmed  a finding whose line (or a neighbour) changed; rules that only
             judge data (catalogue: judges DATA, stores of constants) are
             counted apart, since a store changes no instruction by itself
Kernel code and host tools (scripts/, tools/) are counted apart.  Writes
OUTDIR/NAME-unaccounted.tsv: the changed lines nothing accounts for.
"""
import collections
import json
import os
import re
import sys
import urllib.parse

HOST = ("scripts/", "tools/")


def part(rel):
    if rel.startswith("/"):
        return "generated"
    return "host tools" if rel.startswith(HOST) else "kernel"


def top_dir(rel):
    return rel.split("/")[0] if "/" in rel else "."


def load_results(sarif, srcroot):
    run = json.load(open(sarif))["runs"][0]
    judges = {r["id"]: r.get("properties", {}).get("charscan/judges", "code")
              for r in run["tool"]["driver"]["rules"]}
    findings, passes = [], []
    for r in run.get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        rel = urllib.parse.unquote(loc["artifactLocation"]["uri"])
        props = r.get("properties", {})
        region = loc["region"]
        item = (rel, region["startLine"], r["ruleId"], props.get("codegen"),
                props.get("expandedAtLine"), region.get("endLine", region["startLine"]),
                props.get("codegenLine"))
        (passes if r.get("kind") == "pass" else findings).append(item)
    return findings, passes, judges


def load_changes(tsv, srcroot):
    root = os.path.realpath(srcroot) + "/"
    rows = []
    with open(tsv) as f:
        next(f)
        for line in f:
            path, n, fn, insns = line.rstrip("\n").split("\t", 3)
            rel = path[len(root):] if path.startswith(root) else path
            rows.append((rel, int(n), fn, insns))
    return rows


def near(index, rel, line):
    return any((rel, line + d) in index for d in (-1, 0, 1))


def pct(n, m):
    return "%d/%d changed lines (%.1f %%)" % (n, m, 100.0 * n / m if m else 0.0)


def mnemonics(insns):
    """A change's instructions as (sign, mnemonic): "-movsbl (%r64), %r32"
    is ("-", "movsbl"); None for a part that is not an instruction."""
    out = []
    for one in insns.split(" | "):
        m = re.match(r"([-+])(\S+)", one)
        out.append((m.group(1), m.group(2)) if m else None)
    return out


def signature(insns):
    """The class of a change: its mnemonics, - and +, constants folded."""
    ops = {sign + op for sign, op in filter(None, mnemonics(insns))}
    return " ".join(sorted(ops, key=lambda o: (o[1:], o[0]))) or "(none)"


MOVES = re.compile(r"(mov[bwlq]?|movabsq|push[wlq]?|pop[wlq]?)$")


def is_register_move(insns):
    """Only where values live changed: plain moves, or the same operations
    on both sides with other operands (a spill, another register)."""
    ops = {"-": collections.Counter(), "+": collections.Counter()}
    parsed = mnemonics(insns)
    if None in parsed:
        return False
    for sign, op in parsed:
        ops[sign][op] += 1
    rest = {k: collections.Counter({o: n for o, n in c.items() if not MOVES.match(o)})
            for k, c in ops.items()}
    return rest["-"] == rest["+"]


# Where code lies, not what it computes: a branch inverted or added on
# equality (the blocks laid out in another order, a test duplicated), a
# return or jump moved.  Branches on an ordering (jl, jb...) are not here.
LAYOUT = re.compile(r"(jmp[q]?|je|jne|retq?|nop[wlq]?)$")


def is_layout(insns):
    """Only the order of the function's blocks changed, beside moves."""
    parsed = mnemonics(insns)
    if None in parsed:
        return False
    ops = [op for sign, op in parsed]
    return (any(LAYOUT.match(op) for op in ops) and
            all(LAYOUT.match(op) or MOVES.match(op) for op in ops))


def account(changes, at_finding, at_pass):
    """Each change with explained (0/1) and accounted (0/1), and the
    number accounted as register moves or block layout."""
    first = [(c, near(at_finding, c[0], c[1]), near(at_pass, c[0], c[1]),
              is_register_move(c[3]) or is_layout(c[3])) for c in changes]
    fns = {(c[0], c[2]) for c, e, p, move in first if (e or p) and not move}
    out, moves = [], 0
    for c, e, p, move in first:
        m = not (e or p) and (c[0], c[2]) in fns and move
        moves += m
        out.append((c, e, e or p or m))
    return out, moves


def places(results):
    """The lines each result covers (a switch judged as a whole covers its
    arms, which the compiler lays out anew when the dispatch changes); in
    a macro's argument, the line of the invocation: the compiler gives
    the argument's code that line; and the line charscan confirm credited
    it with (properties.codegenLine)."""
    return ({(r[0], n) for r in results for n in range(r[1], r[5] + 1)} |
            {(r[0], r[4]) for r in results if r[4]} |
            {(r[0], r[6]) for r in results if r[6]})


def main():
    sarif, tsv, srcroot, name, outdir = sys.argv[1:6]
    times = sys.argv[6] if len(sys.argv) > 6 else None
    findings, passes, judges = load_results(sarif, srcroot)
    changes = load_changes(tsv, srcroot)
    at_finding = places(findings)
    at_pass = places(passes)

    by_part = collections.defaultdict(lambda: [0, 0, 0])	# changed, explained, accounted
    by_dir = collections.defaultdict(lambda: [0, 0, 0])
    functions = collections.defaultdict(set)
    explained_fns = collections.defaultdict(set)
    unaccounted = []
    judged, moves = account(changes, at_finding, at_pass)
    for (rel, n, fn, insns), e, a in judged:
        for key, table in ((part(rel), by_part), (top_dir(rel), by_dir)):
            row = table[key]
            row[0] += 1
            row[1] += e
            row[2] += a
        functions[part(rel)].add((rel, fn))
        if e:
            explained_fns[part(rel)].add((rel, fn))
        if not a:
            unaccounted.append((rel, n, fn, insns))

    per_rule = collections.defaultdict(lambda: [0, 0, 0, 0])	# all, changed, unchanged, none
    for rel, n, rule, cg, *_ in findings:
        row = per_rule[rule]
        row[0] += 1
        row[1 + ["changed", "unchanged", "none"].index(cg if cg else "none")] += 1

    print("codegen oracle, %s: %d changed lines in %d functions" %
          (name, len(changes), sum(len(v) for v in functions.values())))
    for p in ("kernel", "host tools", "generated"):
        c, e, a = by_part[p]
        if c:
            print("  %-11s %6d changed lines, %4d functions (%d with a finding), explained %d, "
                  "accounted %d" % (p, c, len(functions[p]), len(explained_fns[p]), e, a))
    print("changed lines by top-level directory (changed, explained, accounted):")
    for d, (c, e, a) in sorted(by_dir.items(), key=lambda kv: -kv[1][0]):
        print("  %-20s %6d %6d %6d" % (d, c, e, a))
    print("findings by rule (all, on changed code, unchanged, no code):")
    for rule in sorted(per_rule):
        a, c, u, n = per_rule[rule]
        print("  %s %-5s %5d %5d %5d %5d  confirmed %.0f %%" %
              (rule, judges.get(rule, "code"), a, c, u, n, 100.0 * c / a if a else 0))
    classes = collections.Counter(signature(u[3]) for u in unaccounted)
    example = {}
    for u in unaccounted:
        example.setdefault(signature(u[3]), u)
    print("largest classes of unaccounted changes:")
    for sig, count in classes.most_common(10):
        rel, n, fn, insns = example[sig]
        print("  %5d  %s\n         e.g. %s:%d %s: %s" % (count, sig[:70], rel, n, fn, insns[:100]))
    if times and os.path.exists(times):
        print("cost:")
        sys.stdout.write("".join("  " + line for line in open(times)))

    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, name + "-unaccounted.tsv"), "w") as f:
        f.write("function\tplace\tinstructions\n")
        for rel, n, fn, insns in unaccounted:
            f.write("%s\t%s:%d\t%s\n" % (fn, rel, n, insns))

    code = [f for f in findings if judges.get(f[2], "code") == "code"]
    data = [f for f in findings if judges.get(f[2], "code") != "code"]
    kernel = [(e, a) for c, e, a in judged if part(c[0]) == "kernel"]
    print("kernel code only: explained: %s; accounted: %s" %
          (pct(sum(e for e, a in kernel), len(kernel)), pct(sum(a for e, a in kernel), len(kernel))))
    print("data-only rules: %d of %d findings on changed lines" %
          (sum(f[3] == "changed" for f in data), len(data)))
    print("explained: " + pct(sum(e for c, e, a in judged), len(changes)))
    print("accounted: %s, %d of them register moves or block layout" %
          (pct(sum(a for c, e, a in judged), len(changes)), moves))
    confirmed = sum(f[3] == "changed" for f in code)
    print("confirmed: %d/%d findings (%.1f %%)" %
          (confirmed, len(code), 100.0 * confirmed / len(code) if code else 0.0))


if __name__ == "__main__":
    main()
