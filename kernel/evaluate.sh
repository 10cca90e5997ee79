#!/bin/sh
# make evaluate: the scan of a kernel config against the codegen oracle.
#
#   kernel/evaluate.sh CHARSCAN KERNEL_SRC CONFIG
#
# Runs kernel/scan.sh (build, database, scan; incremental), then
# charscan confirm over the same database (cached in work/confirm-cache,
# so a second run only recompiles what changed) and kernel/evaluate.py:
# per rule, per directory, kernel and host tools apart, and last the
# explained / accounted / confirmed lines.  Writes out/NAME-confirmed.sarif,
# out/NAME-codegen.tsv and out/NAME-unaccounted.tsv.
set -eu

charscan=$(realpath "$1")
src=$2
config=$3
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/out
name=$(basename "$src")
[ "$config" = tiny ] || name=$name-$config
build=$here/work/kbuild/scan-$name

sh "$here/kernel/scan.sh" "$charscan" "$src" "$config"
times=$out/$name.times
. "$here/kernel/stage.sh"

confirm() {
	rc=0
	"$charscan" confirm -p "$build" -q --cache "$here/work/confirm-cache" \
		--changes "$out/$name-codegen.tsv" -o "$out/$name-confirmed.sarif" \
		"$out/$name.sarif" || rc=$?
	# 3: some TUs did not compile; the rest is still measured.
	case $rc in 0|3) ;; *) exit "$rc" ;; esac
}
stage "confirm (oracle)" confirm
python3 "$here/kernel/evaluate.py" "$out/$name-confirmed.sarif" "$out/$name-codegen.tsv" \
	"$src" "$name" "$out" "$times" | tee "$out/$name-evaluate.txt"
