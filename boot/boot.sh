#!/bin/sh
# make boot: build the signed and the unsigned kernel from one tree and
# config, boot both in QEMU, compare their KUnit results.
#
#   boot/boot.sh KERNEL_SRC
#
#   signed    KERNEL_SRC + kernel/patches/series.signed (only our KUnit
#             suite, so it runs on both): char is signed, as 6.1 ships
#   unsigned  KERNEL_SRC + kernel/patches/series (-funsigned-char and the
#             fixes)
# Both trees are hard-linked copies of KERNEL_SRC (patch(1) replaces the
# files it changes, so the original is never modified).  Writes
# out/boot-report.txt and out/boot-report.json; exits 1 if the unsigned
# kernel fails.
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

tree() {	# tree NAME SERIES
	if [ ! -f "$work/linux-6.1-$1/Makefile" ]; then
		rm -rf "$work/linux-6.1-$1"
		cp -al "$src" "$work/linux-6.1-$1"
	fi
	sh "$here/kernel/patches.sh" apply "$work/linux-6.1-$1" "$2"
}

build() {	# build NAME
	DRYRUN=0 sh "$here/compile-db/kernel.sh" "$work/linux-6.1-$1" "$work/kbuild/$1" tiny \
		"$here/kernel/char-kunit.config"
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
	k=$work/kbuild/$1
	sh "$here/boot/initramfs.sh" "$k/usr/gen_init_cpio" "$k/initramfs.cpio.gz" \
		"$work/selftest-after/tools/testing/selftests/net/cmsg_sender.static"
	sh "$here/boot/qemu.sh" "$k/arch/x86/boot/bzImage" "$k/initramfs.cpio.gz" \
		"$out/boot-$1.log" "$2" > "$out/boot-$1.mode" || true
	python3 "$here/boot/ktap.py" "$out/boot-$1.log" > "$out/boot-$1.json"
}

stage "patch trees" tree signed "$here/kernel/patches/series.signed"
stage "patch trees (unsigned)" tree unsigned "$here/kernel/patches/series"
stage "build signed" build signed
stage "build unsigned" build unsigned
stage "seed 004 selftest" selftest
stage "boot signed" run signed auto
stage "boot unsigned" run unsigned "$(cat "$out/boot-signed.mode")"
rc=0
python3 "$here/boot/compare.py" "$out" "$times" || rc=$?
# The main job's time, step by step (make scan's, when it ran on this
# tree, then this one's): what README.md's figures come from.
echo "main job, wall time per step:"
cat "$out/$(basename "$src").times" "$times" 2>/dev/null |
	awk '{ print "  " $0; t += $(NF - 1) } END { printf "  %-22s %6.1f s\n", "total", t }'
exit $rc
