"""scanner/ is subsystems in folders whose dependencies point one way:
read from the #include lines, a file includes headers of its own folder,
or the door of a folder below its own (scanner/LAYERS lists the folders
from the bottom up), and no file reaches itself through includes."""
import os
import re

from harness import ROOT, check, test

SCANNER = os.path.join(ROOT, "scanner")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = {"rule_help.h"}	# made by make in the build folder


def layers():
    """scanner/LAYERS: a folder a line, bottom first; '#' comments."""
    rows = [l.split("#")[0].split() for l in open(os.path.join(SCANNER, "LAYERS"))]
    return [r[0] for r in rows if r]


def sources():
    for folder in sorted(os.listdir(SCANNER)):
        d = os.path.join(SCANNER, folder)
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if f.endswith((".c", ".h")):
                    yield folder, f


def door(folder):
    """A folder's one public header: FOLDER/FOLDER.h."""
    return "%s/%s.h" % (folder, folder)


def include_problems(order, extra=()):
    """extra: (folder, name, text) of files read as if they were there."""
    rank = {f: i for i, f in enumerate(order)}
    problems, graph = [], {}
    files = [(folder, f, open(os.path.join(SCANNER, folder, f)).read()) for folder, f in sources()]
    for folder, f, text in files + list(extra):
        me = "%s/%s" % (folder, f)
        graph[me] = []
        for inc in INCLUDE.findall(text):
            if inc.endswith(".def") or inc in GENERATED:
                continue
            if "/" not in inc:
                target = "%s/%s" % (folder, inc)
                if not os.path.exists(os.path.join(SCANNER, target)):
                    problems.append("%s includes %s, not in its folder" % (me, inc))
                graph[me].append(target)
                continue
            other = inc.split("/")[0]
            graph[me].append(inc)
            if other not in rank:
                problems.append("%s includes %s: folder %s is not in scanner/LAYERS" % (me, inc, other))
            elif inc != door(other):
                problems.append("%s includes %s, not %s's door %s" % (me, inc, other, door(other)))
            elif rank[other] >= rank.get(folder, -1):
                problems.append("%s (%s) includes %s, a folder at or above its own" % (me, folder, inc))
    return problems, graph


def circles(graph):
    """Files that reach themselves through #include."""
    state, found = {}, []

    def visit(n, path):
        state[n] = 1
        for m in graph.get(n, []):
            if state.get(m) == 1:
                found.append(" -> ".join(path[path.index(m):] + [m]) if m in path else m)
            elif not state.get(m):
                visit(m, path + [m])
        state[n] = 2

    for n in graph:
        if not state.get(n):
            visit(n, [n])
    return found


@test
def scanner_folders_depend_one_way_through_their_doors():
    order = layers()
    folders = sorted(f for f in os.listdir(SCANNER) if os.path.isdir(os.path.join(SCANNER, f)))
    check(sorted(order) == folders, "scanner/LAYERS %s vs folders %s" % (order, folders))
    check(not [f for f in os.listdir(SCANNER) if f.endswith((".c", ".h"))],
          "C files outside a subsystem folder")
    for folder in folders:
        if any(f.endswith(".c") for _, f in [x for x in sources() if x[0] == folder]) and folder != "cli":
            check(os.path.exists(os.path.join(SCANNER, door(folder))), "%s has no door %s" % (folder, door(folder)))
    problems, graph = include_problems(order)
    check(not problems, "\n".join(problems))
    found = circles(graph)
    check(not found, "include circles:\n" + "\n".join(found))


@test
def the_layout_test_catches_an_include_upwards():
    """The check above must fail on a file that includes a folder above
    its own, or another folder's inner header."""
    order = layers()
    for text, want in (('#include "%s"\n' % door(order[-2]), "at or above"),
                       ('#include "%s/zz.h"\n' % order[1], "not %s's door" % order[1])):
        problems, _ = include_problems(order, [(order[0], "zz-layout-probe.c", text)])
        check(any(want in p and "zz-layout-probe" in p for p in problems), "%s: not caught: %s" % (text, problems))


# libc calls that keep state between calls in one static place (the
# glibc manual's "MT-Unsafe race:" functions with a static buffer or
# cursor; strerror and strsignal keep theirs per thread since glibc
# 2.32): confirm's workers are threads, and two at once corrupt each
# other's heap (a strtok in fold_path() did, in its cache writes).  Each
# has a _r twin.  A member or a name of our own (ops->crypt, my_rand) is
# no call of libc's.
NOT_REENTRANT = re.compile(r"(?<![\w.>])\(?(strtok|localtime|gmtime|ctime|asctime|tmpnam|"
                           r"getpwnam|getpwuid|getgrnam|getlogin|ttyname|hsearch|"
                           r"ecvt|fcvt|mblen|mbtowc|wctomb|ptsname|crypt)\)?\s*\(")
# comments, strings and character constants ('"' opens no string)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def not_reentrant_calls(files):
    return ["%s/%s:%d: %s()" % (folder, f, text[:m.start()].count("\n") + 1, m.group(1))
            for folder, f, text in files
            for m in NOT_REENTRANT.finditer(COMMENT.sub(lambda c: re.sub(r"[^\n]", " ", c.group(0)), text))]


@test
def scanner_calls_only_reentrant_libc():
    files = [(folder, f, open(os.path.join(SCANNER, folder, f)).read()) for folder, f in sources()]
    found = not_reentrant_calls(files)
    check(not found, "not thread-safe: " + ", ".join(found))


@test
def the_reentrancy_test_catches_strtok():
    probe = ('static void f(char *s)\n{\n\t/* strtok( in a comment */ puts("localtime(");\n'
             '\tif (*s == \'"\')\n\t\tstrtok(s, "/");\n\tstrtok_r(s, "/", &p); my_ctime(s);\n'
             '\tops->crypt(s); (localtime)(&t);\n}\n')
    found = not_reentrant_calls([("core", "zz-probe.c", probe)])
    check(found == ["core/zz-probe.c:5: strtok()", "core/zz-probe.c:7: localtime()"],
          "got %s" % found)
