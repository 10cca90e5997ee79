#!/bin/sh
# The main job's scan half: kernel tree -> compile database -> charscan ->
# out/linux-6.1.sarif, out/linux-6.1.txt, out/linux-6.1-explained.sarif
# (with the passes: make evaluate reuses it), a summary and the HTML
# report out/linux-6.1-report/ (charscan report; open its index.html).
#
#   kernel/scan.sh CHARSCAN KERNEL_SRC CONFIG [BUILD_DIR [EXTRA_FRAGMENT]]
#
# BUILD_DIR and EXTRA_FRAGMENT scan a tree that make boot has built
# already (work/kbuild/unsigned with kernel/char-kunit.config): kbuild
# then rebuilds nothing, where a build of its own would cost minutes.
# The unsigned tree (work/linux-6.1-unsigned, made by make boot) is
# scanned with KERNEL_SRC=work/linux-6.1-unsigned: the before/after.
#
# KERNEL_SRC is unpacked from Debian's linux-source-6.1 when it does not
# exist yet.  Each stage's wall time is printed and kept in
# out/linux-6.1.times.  SHARDS=N (make scan SHARDS=N) scans in N shards
# on GNU parallel (scale/parallel.sh) and merges them: the same report.
# ARCH=arm64 (riscv, powerpc, s390, mips...): that architecture's
# database, clang's own cross target (compile-db/kernel.sh), and
# out/linux-6.1-arm64.sarif; both signednesses are reported, and the
# summary says which of the findings break a build of that arch.
# Each TU's answer is kept in out/cache (SCAN_CACHE=DIR elsewhere,
# SCAN_CACHE= for none): a rescan parses only the TUs whose files
# changed, with the same report.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/kernel/stage.sh"
# out/linux-6.1.sarif for the packaged tree, out/linux-6.1-unsigned.sarif
# for the patched one, ...-defconfig for CONFIG=defconfig.
pipeline "$1" "$2" "$3" ""
if [ -n "${4:-}" ] && [ "${ARCH:-x86_64}" != x86_64 ]; then
	echo "scan: a build of make boot's (BUILD_DIR) is x86_64's, not ARCH=$ARCH" >&2
	exit 2
fi
[ -z "${4:-}" ] || build=$4
fragment=${5:-}
cache=${SCAN_CACHE-$here/out/cache}

# One scan with --explain gives both reports: out/NAME-explained.sarif
# (also the harmless widenings, as passes: what make evaluate reads) and,
# merged without the passes, out/NAME.sarif and its text.
scan() {
	rc=0
	if [ "${SHARDS:-1}" -gt 1 ]; then
		# SHARDS=N: N shards as GNU parallel's job slots, merged.
		CHARSCAN_OPTIONS="--srcroot $src --explain${cache:+ --cache $cache}" \
			sh "$here/scale/parallel.sh" "$charscan" \
			"$build" "$out/$name-explained.sarif.tmp" "$SHARDS" -j "$SHARDS" || rc=$?
	else
		"$charscan" -p "$build" --srcroot "$src" --explain -q ${cache:+--cache "$cache"} \
			-o "$out/$name-explained.sarif.tmp" || rc=$?
	fi
	# 1 = findings, 3 = some TUs failed: both leave a whole report.
	case $rc in 0|1|3) ;; *) echo "scan: charscan failed ($rc)" >&2; exit "$rc" ;; esac
	"$charscan" merge "$out/$name-explained.sarif.tmp" --no-explain -o "$out/$name.sarif.tmp" \
		--format text > "$out/$name.txt"
	mv "$out/$name-explained.sarif.tmp" "$out/$name-explained.sarif"
	mv "$out/$name.sarif.tmp" "$out/$name.sarif"
}

stage unpack unpack "$src"
# A tree make boot built keeps its build's database (kbuild finds nothing
# to do); else the database comes from kbuild's dry run, nothing built.
if [ -n "${4:-}" ]; then
	stage build env DRYRUN=0 sh "$here/compile-db/kernel.sh" "$src" "$build" "$config" "$fragment"
else
	stage "compile database" sh "$here/compile-db/kernel.sh" "$src" "$build" "$config" "$fragment"
fi
stage scan scan
python3 "$here/kernel/summary.py" "$out/$name.sarif" "$build/compile_commands.json" "$times" \
	"${ARCH:-x86_64}"
echo "report: $out/$name.sarif (text: $out/$name.txt)"
# The HTML pages last: the SARIF and the text stand whatever happens to
# them; a failure is said and makes the exit status, after the rest.
html_rc=0
html_pages() {
	"$charscan" report "$out/$name.sarif" --srcroot "$src" -q -o "$out/$name-report" ||
		html_rc=$?
}
stage "html report" html_pages
if [ "$html_rc" -ne 0 ]; then
	echo "scan: charscan report failed ($html_rc): $out/$name-report/ not updated" >&2
	exit "$html_rc"
fi
echo "html: $out/$name-report/index.html"
