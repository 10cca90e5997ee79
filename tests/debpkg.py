"""The Debian package (debian/) holds together with the tree: its version
is scanner/core/version.h's, which the binary prints, and what
debian/charscan.install ships exists.  debian/ci-check.sh builds,
lintians, installs and runs the package itself (a .ci/run step)."""
import glob
import os
import re

from harness import ROOT, check, run, test


def version_h():
    text = open(os.path.join(ROOT, "scanner", "core", "version.h")).read()
    return re.search(r'^#define CHARSCAN_VERSION "([^"]+)"$', text, re.M).group(1)


@test
def debian_changelog_version_is_version_h():
    top = open(os.path.join(ROOT, "debian", "changelog")).readline()
    m = re.match(r"charscan \(([^)]+)\) ", top)
    check(m, "debian/changelog: first line %r" % top)
    check(m.group(1) == version_h(),
          "debian/changelog says %s, scanner/core/version.h %s" % (m.group(1), version_h()))
    out = run(["--version"]).stdout
    check(out.split()[:2] == ["charscan", version_h()], "charscan --version: %r" % out)


@test
def debian_install_lists_files_that_exist():
    lines = [l.split() for l in open(os.path.join(ROOT, "debian", "charscan.install"))
             if l.strip() and not l.startswith("#")]
    check(len(lines) > 3, "debian/charscan.install: %d lines" % len(lines))
    missing = [src for src, _ in lines if not glob.glob(os.path.join(ROOT, src))]
    check(not missing, "debian/charscan.install names what is not there: %s" % missing)
