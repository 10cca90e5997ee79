#!/bin/sh
# The Debian package, end to end: built from a copy of this tree in a
# temporary folder (dpkg-buildpackage writes the .deb beside the tree, and
# nothing is to be written beside the clone), checked with lintian (an
# error fails), installed with apt-get, then the installed
# /usr/bin/charscan scans the rule cases (rules/tests): every rule id the
# cases expect must be found, and each helpUri must name an installed
# rule page.  The package is removed again at the end, also on failure.
#
#   debian/ci-check.sh        (root, or sudo)
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/charscan-deb.XXXXXX")
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
installed=0
cleanup() {
	[ "$installed" = 0 ] || $sudo apt-get remove -y -q charscan >/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "debian/ci-check: $*" >&2; exit 1; }

# The tree as it is (uncommitted changes too), without what a build or
# the tests leave in it.
mkdir "$tmp/charscan"
tar -C "$here" --exclude=./out --exclude=./work --exclude=./.git \
	--exclude=./tests/node_modules -cf - . | tar -C "$tmp/charscan" -xf -
(cd "$tmp/charscan" && dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1 || {
	tail -n 30 "$tmp/build.log" >&2
	fail "dpkg-buildpackage failed"
}
set -- "$tmp"/charscan_*_*.deb
[ -f "$1" ] || fail "no .deb in $tmp"
deb=$1
echo "built $(basename "$deb")"

lintian --fail-on error "$deb" > "$tmp/lintian.log" 2>&1 || {
	cat "$tmp/lintian.log" >&2
	fail "lintian reports errors"
}
sed 's/^/  lintian: /' "$tmp/lintian.log"

installed=1
(cd "$tmp" && $sudo env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q "./$(basename "$deb")") > "$tmp/apt.log" 2>&1 || {
	cat "$tmp/apt.log" >&2
	fail "apt-get install failed"
}
/usr/bin/charscan --version
for f in /usr/share/man/man1/charscan.1.gz /usr/share/doc/charscan/rules/CS001.md \
	/usr/share/charscan/compile-db/kernel.sh /usr/share/charscan/scale/parallel.sh; do
	[ -f "$f" ] || fail "$f not installed"
done

# The rule cases, scanned by the installed binary.
mkdir "$tmp/scan"
python3 "$here/tests/rule-db.py" "$here/rules/tests" "$tmp/scan/compile_commands.json"
rc=0
/usr/bin/charscan -p "$tmp/scan" --srcroot "$here/rules/tests" -q -o "$tmp/scan/out.sarif" || rc=$?
[ "$rc" = 1 ] || fail "scan of the rule cases: exit $rc, want 1 (findings)"
python3 - "$here/rules/tests" "$tmp/scan/out.sarif" <<'EOF'
import json, os, re, sys
cases, sarif = sys.argv[1:3]
want = set()
for f in os.listdir(cases):
    if f.endswith(".c"):
        want |= set(re.findall(r"expect: (CS\d{3})", open(os.path.join(cases, f)).read()))
run = json.load(open(sarif))["runs"][0]
got = {r["ruleId"] for r in run["results"]}
pages = [r["helpUri"] for r in run["tool"]["driver"]["rules"] if r["id"] in got]
bad = [u for u in pages if not (u.startswith("file:///usr/share/doc/charscan/rules/")
                                and os.path.isfile(u[len("file://"):]))]
if want - got or bad or not pages:
    sys.exit("debian/ci-check: rules expected but not found: %s; helpUri not installed: %s"
             % (sorted(want - got), bad))
print("installed charscan on the rule cases: %d findings, rules %s" %
      (len(run["results"]), " ".join(sorted(got))))
EOF
echo "debian package: ok"
