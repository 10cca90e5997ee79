#!/bin/sh
# Produce compile_commands.json for a kernel tree.
#
#   compile-db/kernel.sh SRC BUILD [tiny|defconfig|allmodconfig|FILE] [EXTRA_FRAGMENT]
#
# SRC is a kernel source tree (unpacked from linux-source-6.1 by the
# Makefile, or any tree given with KERNEL_SRC=), BUILD the O= directory.
# "tiny" is tinyconfig plus kernel/charscan.config, "defconfig"
# (x86_64_defconfig; the arch's defconfig for other ARCH=), "allmodconfig"
# or FILE (a .config).  Nothing is built: after make prepare,
# compile-db/dryrun.py reads kbuild's dry run.
# ARCH=x86_64 (default), arm64, riscv, powerpc, s390, mips, loongarch...:
# the kernel's ARCH.  No cross gcc: with LLVM=1 kbuild gives clang the
# arch's --target itself (scripts/Makefile.clang), so the database holds
# it and charscan parses as that target.  On another ARCH, "tiny" merges
# what of kernel/charscan.config the arch's Kconfig has (its x86 lines:
# p4.c's CPU_SUP_INTEL, EARLY_PRINTK are listed and dropped); on x86_64
# every line must stick.  LLVM= (default 1) is kbuild's: LLVM=-19 for
# clang-19's tools.
# DRYRUN=0 builds bzImage and takes the database from the build (make
# boot, which needs the kernel anyway).  LLVM=1, so that every flag in the
# database is one that libclang understands.  Each step is
# skipped when its output is newer than its inputs, and kbuild itself is
# incremental, so a second run on an unchanged tree rebuilds nothing.
set -eu

src=$(cd "$1" && pwd)
mkdir -p "$2"
build=$(cd "$2" && pwd)
config=${3:-tiny}
here=$(cd "$(dirname "$0")/.." && pwd)
fragment=$here/kernel/charscan.config
extra=${4:-}
if [ -n "$extra" ]; then
	# Kconfig fragments merge by concatenation.
	cat "$fragment" "$extra" > "$build/.charscan-fragment"
	fragment=$build/.charscan-fragment
	[ "$build/.config" -nt "$4" ] && [ "$build/.config" -nt "$here/kernel/charscan.config" ] &&
		touch -r "$build/.config" "$fragment"
fi
jobs=${JOBS:-$(nproc)}
arch=${ARCH:-x86_64}
llvm=${LLVM:-1}
case $arch in
*[!a-z0-9_]*|'') echo "kernel.sh: ARCH=: not a kernel architecture name (a-z, 0-9, _)" >&2; exit 2 ;;
esac
# kbuild's LLVM=1, LLVM=-19 or LLVM=/path/: one make argument.
case $llvm in
*[!A-Za-z0-9_./-]*|'') echo "kernel.sh: LLVM=: 1, -VERSION or a folder" >&2; exit 2 ;;
esac
# kbuild's SRCARCH: arch/ holds x86, not x86_64 or i386.
case $arch in x86_64|i386) srcarch=x86 ;; *) srcarch=$arch ;; esac
if [ ! -d "$src/arch/$srcarch" ]; then
	echo "kernel.sh: ARCH=$arch: the kernel tree has no arch/$srcarch" >&2
	exit 2
fi
# A tree whose kbuild knows no clang target for the arch (Linux 6.1 and
# LoongArch: clang builds of it came in 6.5) cannot be built with LLVM=.
if [ -f "$src/scripts/Makefile.clang" ] &&
   ! grep -q "^CLANG_TARGET_FLAGS_$srcarch[[:space:]]" "$src/scripts/Makefile.clang"; then
	echo "kernel.sh: ARCH=$arch: this kernel's scripts/Makefile.clang has no clang target" \
		"for it, so kbuild cannot build it with LLVM=$llvm" >&2
	exit 2
fi
kmake_vars="ARCH=$arch LLVM=$llvm"
kmake() { make -C "$src" O="$build" $kmake_vars -j"$jobs" "$@"; }

configure() {
	case $config in
	tiny)
		kmake tinyconfig >/dev/null
		"$src"/scripts/kconfig/merge_config.sh -m -O "$build" \
			"$build/.config" "$fragment" >/dev/null
		kmake olddefconfig >/dev/null
		# merge_config only warns; a fragment line that did not stick
		# would silently drop p4.c or a KUnit suite, so fail here
		# (another arch drops the x86 lines: said, not fatal).
		missing=$(grep '^CONFIG_.*=y$' "$fragment" |
			while read -r line; do
				grep -qx "$line" "$build/.config" || echo "$line"
			done)
		if [ -n "$missing" ] && [ "$arch" = x86_64 ]; then
			echo "kernel.sh: not set by Kconfig: $missing" >&2
			exit 1
		fi
		[ -z "$missing" ] || echo "  CONFIG  ARCH=$arch has no" $missing "(dropped)" ;;
	defconfig)
		if [ "$arch" = x86_64 ]; then
			kmake x86_64_defconfig >/dev/null
		else
			kmake defconfig >/dev/null
		fi ;;
	allmodconfig)
		kmake allmodconfig >/dev/null ;;
	*)
		if [ ! -f "$config" ]; then
			echo "kernel.sh: unknown config '$config' (tiny|defconfig|allmodconfig|FILE)" >&2
			exit 2
		fi
		cp "$config" "$build/.config"
		kmake olddefconfig >/dev/null ;;
	esac
	echo "$config${extra:+ $extra}" > "$build/.charscan-config"
	echo "$kmake_vars" > "$build/.charscan-make"
	echo "$src" > "$build/.charscan-src"
}

if [ ! -f "$build/.config" ] || [ "$fragment" -nt "$build/.config" ] ||
   [ "$(cat "$build/.charscan-config" 2>/dev/null)" != "$config${extra:+ $extra}" ] ||
   [ "$(cat "$build/.charscan-make" 2>/dev/null || echo 'ARCH=x86_64 LLVM=1')" != "$kmake_vars" ] ||
   # A build folder made for another tree (a moved or copied checkout):
   # its database names that tree's files.
   [ "$(cat "$build/.charscan-src" 2>/dev/null)" != "$src" ]; then
	echo "  CONFIG  $config (ARCH=$arch) in $build"
	# kconfig keeps a .config it would write the same, time and all:
	# the database made before belongs to what changed.
	rm -f "$build/compile_commands.json"
	configure
fi

# logged TARGET: kbuild's make TARGET, its output in build.log (the tail
# on stderr when it fails).
logged() {
	if ! kmake "$1" > "$build/build.log" 2>&1; then
		tail -n 30 "$build/build.log" >&2
		echo "kernel.sh: make $1 failed, see $build/build.log" >&2
		exit 1
	fi
}

db=$build/compile_commands.json
# The dry run's database stays valid while the config, the dry run and
# the tree's Makefiles and Kconfig files are older than it (make scan
# then make evaluate: one dry run).
dry_run_current() {
	[ -f "$db" ] && [ "$db" -nt "$build/.config" ] && [ "$db" -nt "$here/compile-db/dryrun.py" ] &&
		[ -z "$(find "$src" \( -name Makefile -o -name Kbuild -o -name 'Kconfig*' \
			-o -name '*.mk' \) -newer "$db" -print -quit)" ]
}
if [ "${DRYRUN:-1}" = 1 ] && dry_run_current; then
	echo "  COMPDB  $db ($(grep -c '"file"' "$db") entries, up to date)"
	exit 0
fi
if [ "${DRYRUN:-1}" = 1 ]; then
	echo "  PREPARE (log: $build/build.log)"
	start=$(date +%s)
	logged prepare
	# One job: with -j, long command lines of parallel sub-makes interleave.
	KMAKE_VARS="$kmake_vars" python3 "$here/compile-db/dryrun.py" "$src" "$build" "$db"
	echo "  COMPDB  $db ($(grep -c '"file"' "$db") entries, no build, $(( $(date +%s) - start )) s)"
	exit 0
fi

echo "  BUILD   bzImage (log: $build/build.log)"
start=$(date +%s)
logged bzImage
echo "  BUILT   in $(( $(date +%s) - start )) s"

if [ ! -f "$db" ] || [ -n "$(find "$build" -name '*.o.cmd' -newer "$db" -print -quit)" ]; then
	python3 "$src/scripts/clang-tools/gen_compile_commands.py" \
		-d "$build" -o "$db.tmp" "$build"
	mv "$db.tmp" "$db"
fi
echo "  COMPDB  $db ($(grep -c '"file"' "$db") entries)"
