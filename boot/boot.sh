#!/bin/sh
# make boot: four kernels from one tree and config, booted in QEMU; their
# KUnit results prove each fix of the series.
#
#   boot/boot.sh KERNEL_SRC
#
#   signed          KERNEL_SRC + kernel/patches/series.signed: 6.1 as
#                   shipped (char is signed) plus the tests
#   signed-fixed    + the fixes (series.signed-fixed)
#   unsigned        + -funsigned-char and the tests (series.unfixed)
#   unsigned-fixed  + the fixes (series: the whole series)
# The two trees are hard-linked copies of KERNEL_SRC (patch(1) replaces
# the files it changes, so the original is never modified).  Each fixed
# kernel is built after its unfixed one in the same O= folder, so only
# the fixed files are compiled again; the images are kept in work/boot/.
# The signed tree goes back to its unfixed state for the checks that
# compare it with the packaged kernel's scan; the unsigned one keeps the
# whole series, built (make scan SCAN_BUILD=work/kbuild/unsigned).  Writes out/boot-report.txt
# and out/boot-report.json (boot/compare.py: the matrix, "fixes proven:
# N/M" and the verdict); exits 1 unless the verdict is PASS.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
work=$here/work
out=$here/out
seed004=$here/kernel/selftest/cmsg_sender-char-signedness.patch
mkdir -p "$out"
times=$out/boot.times
: > "$times"

. "$here/kernel/stage.sh"

patches=$here/kernel/patches

tree() {	# tree NAME SERIES: the tree with exactly SERIES applied
	if [ ! -f "$work/linux-6.1-$1/Makefile" ]; then
		rm -rf "$work/linux-6.1-$1"
		cp -al "$src" "$work/linux-6.1-$1"
	fi
	sh "$here/kernel/patches.sh" only "$work/linux-6.1-$1" "$2"
}

# build TREE: kbuild's O= folder work/kbuild/TREE, for x86_64 (what QEMU
# boots) whatever ARCH= make was given.
build() {
	ARCH=x86_64 LLVM=1 DRYRUN=0 sh "$here/compile-db/kernel.sh" "$work/linux-6.1-$1" "$work/kbuild/$1" tiny \
		"$here/kernel/char-kunit.config"
}

keep() {	# keep NAME TREE: the image just built, kept for booting as NAME
	mkdir -p "$work/boot/$1"
	cp "$work/kbuild/$2/arch/x86/boot/bzImage" "$work/boot/$1/bzImage"
}

# fixed TREE NAME SERIES [BACK]: kernel NAME is tree TREE with SERIES,
# built incrementally in TREE's own O= folder, so that only what the
# fixes change is compiled again.  BACK (a series): the tree goes back to
# it afterwards; its reverted files are newer than their objects, so the
# next build of TREE compiles them again.
fixed() {
	tree "$1" "$3"
	build "$1"
	keep "$2" "$1"
	[ -z "${4:-}" ] || tree "$1" "$4"
}

# Seed 004: cmsg_sender.c before and after its fix.  The fixed one must
# build with -fsigned-char -Werror=constant-conversion, the old one not;
# the fixed one, static, goes into the initramfs.
selftest() {
	st=tools/testing/selftests/net
	sh "$here/compile-db/selftest.sh" "$src" "$work/selftest-before" net cmsg_sender "$seed004"
	sh "$here/compile-db/selftest.sh" "$src" "$work/selftest-after" net cmsg_sender
	for state in before after; do
		if (cd "$work/selftest-$state/$st" &&
		    clang -fsigned-char -Werror=constant-conversion -fsyntax-only cmsg_sender.c \
			> "$work/selftest-$state/werror.log" 2>&1); then
			echo "$state: builds" ; else echo "$state: fails"; fi
	done > "$out/seed004-werror.txt"
	cat "$out/seed004-werror.txt"
	(cd "$work/selftest-after/$st" && clang -static -O2 -o cmsg_sender.static cmsg_sender.c 2>/dev/null)
	[ "$(cat "$out/seed004-werror.txt")" = "before: fails
after: builds" ] || { echo "boot: seed 004 -Werror check went the wrong way" >&2; exit 1; }
}

run() {	# run NAME MODE -> prints the mode used
	k=$work/boot/$1
	sh "$here/boot/initramfs.sh" "$work/kbuild/signed/usr/gen_init_cpio" "$k/initramfs.cpio.gz" \
		"$work/selftest-after/tools/testing/selftests/net/cmsg_sender.static"
	sh "$here/boot/qemu.sh" "$k/bzImage" "$k/initramfs.cpio.gz" \
		"$out/boot-$1.log" "$2" > "$out/boot-$1.mode" || true
	python3 "$here/boot/ktap.py" "$out/boot-$1.log" > "$out/boot-$1.json"
}

stage "patch trees" tree signed "$patches/series.signed"
stage "patch trees (unsigned)" tree unsigned "$patches/series.unfixed"
stage "build signed" build signed
keep signed signed
stage "build unsigned" build unsigned
keep unsigned unsigned
stage "build signed-fixed" fixed signed signed-fixed "$patches/series.signed-fixed" \
	"$patches/series.signed"
stage "build unsigned-fixed" fixed unsigned unsigned-fixed "$patches/series"
stage "seed 004 selftest" selftest
stage "boot signed" run signed auto
mode=$(cat "$out/boot-signed.mode")
stage "boot signed-fixed" run signed-fixed "$mode"
stage "boot unsigned" run unsigned "$mode"
stage "boot unsigned-fixed" run unsigned-fixed "$mode"
rc=0
python3 "$here/boot/compare.py" "$out" "$times" "$patches/proofs" || rc=$?
# The main job's time, step by step (make scan's, when it ran on this
# tree, then this one's): what docs/kernel.md's figures come from.
echo "main job, wall time per step:"
cat "$out/$(basename "$src").times" "$times" 2>/dev/null |
	awk '{ print "  " $0; t += $(NF - 1) } END { printf "  %-22s %6.1f s\n", "total", t }'
exit $rc
