#!/bin/sh
# A compile database for one kselftest program, made with bear from the
# selftest's own Makefile (kselftests are not kbuild: no .cmd files).
#
#   compile-db/selftest.sh KERNEL_SRC OUT DIR PROG [REVERSE_PATCH]
#
# Copies tools/testing/selftests/{lib.mk,kselftest.h,DIR} to OUT (a scratch
# tree; KERNEL_SRC is not touched), reverse-applies REVERSE_PATCH there if
# given (seed 004: the "before" state of cmsg_sender.c), and builds PROG
# with clang under bear: OUT/tools/testing/selftests/DIR/PROG and
# OUT/compile_commands.json.  KERNEL_SRC may also be the linux-source-6.1
# tarball; only the files needed are extracted.
set -eu

src=$1 out=$2 dir=$3 prog=$4 patch=${5:+$(realpath "$5")}
sel=tools/testing/selftests
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -d "$src" ]; then
	mkdir -p "$out/$sel"
	cp -r "$src/$sel/lib.mk" "$src/$sel/kselftest.h" "$src/$sel/$dir" "$out/$sel/"
else
	tar -xJf "$src" -C "$out" --strip-components=1 \
		"linux-source-6.1/$sel/lib.mk" "linux-source-6.1/$sel/kselftest.h" \
		"linux-source-6.1/$sel/$dir"
fi
if [ -n "$patch" ]; then
	# The patch names a/tools/testing/selftests/DIR/FILE.
	patch -s -R -p1 -d "$out" < "$patch"
fi
cd "$out/$sel/$dir"
bear --output "$out/compile_commands.json" -- \
	make -s CC=clang "$prog" >"$out/build.log" 2>&1 || {
	cat "$out/build.log" >&2
	exit 1
}
