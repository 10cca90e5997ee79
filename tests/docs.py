"""The documentation holds together: every relative link in README.md,
SECURITY.md and docs/*.md leads to a file that exists (and to a heading
of it, when it names one), and the README's first screen says what
charscan is, how to install it and how to run it."""
import glob
import os
import re

from harness import ROOT, check, scratch, test, write

# Code is not prose: links inside it are examples, not links.
FENCE = re.compile(r"^\s*```")
INDENTED = re.compile(r"^(?: {4}|\t)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
# A first screen: a terminal's worth of lines.
FIRST_SCREEN = 40
SETUP_HEADING = "## Set-up on a fresh Debian 12 machine"
SETUP = ["    sh install-deps.sh && make scan boot",
         "    sh install-deps.sh && make check"]


def documents():
    return [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "SECURITY.md")] + \
        sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def prose(text):
    """The text without its code: fenced and indented blocks (an indented
    block opens after a blank line) and code spans."""
    kept, fenced, code, blank = [], False, False, True
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        code = not fenced and bool(INDENTED.match(line)) and (blank or code)
        if not fenced and not code:
            kept.append(line)
        blank = not line.strip()
    return CODE_SPAN.sub("", "\n".join(kept))


def anchor(heading):
    """GitHub's anchor of a heading: lowercase, spaces to '-', every
    punctuation mark but '-' and '_' removed."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_headings(text):
    """The text without its fenced blocks, where a '#' is no heading."""
    kept, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


def anchors(path):
    """Every heading's anchor, with GitHub's -1, -2 for repeats."""
    seen, out = {}, set()
    for h in HEADING.findall(prose_headings(open(path, encoding="utf-8").read())):
        a = anchor(h)
        out.add(a if a not in seen else "%s-%d" % (a, seen[a]))
        seen[a] = seen.get(a, 0) + 1
    return out


def broken_links(path):
    """Each relative link of PATH that leads nowhere, with the reason."""
    bad = []
    text = prose(open(path, encoding="utf-8").read())
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # https:, mailto: ...: not ours to check
        file, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        where = "%s: (%s)" % (os.path.relpath(path, ROOT), target)
        if not os.path.exists(dest):
            bad.append("%s: no such file" % where)
        elif fragment and (not dest.endswith(".md") or fragment not in anchors(dest)):
            bad.append("%s: no such heading" % where)
    return bad


@test
def every_readme_and_docs_link_resolves():
    bad = [b for d in documents() for b in broken_links(d)]
    check(not bad, "broken links:\n" + "\n".join(bad))
    check(len(documents()) > 3, "no docs/ pages found")
    # The check itself can fail: a missing file and a missing heading are
    # caught, a good heading and links inside code are not.
    d = scratch("links")
    write(os.path.join(d, "README.md"), "# Top\n\n## Exit status\n")
    os.makedirs(os.path.join(d, "docs"))
    probe = write(os.path.join(d, "docs", "probe.md"),
                  "# Probe\n\n[a](nowhere.md), [b](../README.md#no-such-heading),\n"
                  "[c](../README.md#exit-status), `[d](code.md)`\n\n    [e](block.md)\n")
    caught = broken_links(probe)
    check(len(caught) == 2 and "nowhere.md" in caught[0] and "no-such-heading" in caught[1],
          "a broken link went unnoticed, or a good one was refused: %s" % caught)


@test
def readme_first_screen_says_what_install_and_run():
    lines = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read().split("\n")
    screen = lines[:FIRST_SCREEN]
    headings = [i for i, l in enumerate(screen) if l.startswith("## ")]
    check(headings and screen[headings[0]] == SETUP_HEADING,
          "the first section is not %r" % SETUP_HEADING)
    at = headings[0]
    check(screen[at + 1:at + 4] == [""] + SETUP,
          "the set-up section does not start with the two commands: %s" % screen[at + 1:at + 4])
    # One paragraph, between the title and the set-up, saying what it is.
    check(screen[0].startswith("# "), "README.md does not open with its title")
    intro = "\n".join(screen[1:at]).strip().split("\n")
    check("" not in intro, "the description is not one paragraph: %s" % intro)
    check(len(" ".join(intro).split()) >= 30 and "char" in " ".join(intro),
          "no description before the set-up: %s" % intro)
    # How to run it on a project of one's own, on the same screen.
    check(any(re.match(r"^    charscan -p \S+", l) for l in screen[at + 4:]),
          "no 'charscan -p' command in the first %d lines" % FIRST_SCREEN)
