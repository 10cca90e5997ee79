#!/bin/sh
# make evaluate: the scan of a kernel config against the codegen oracle.
#
#   kernel/evaluate.sh CHARSCAN KERNEL_SRC CONFIG
#
# Builds the tree as make scan does (compile-db/kernel.sh; incremental),
# scans it with --explain (findings and the widenings judged harmless;
# make scan's report of the same database is reused when it is newer),
# runs charscan confirm over the same database (cached in
# work/confirm-cache, so a second run only recompiles what changed) and
# kernel/evaluate.py: per rule, per directory, kernel and host tools
# apart, and last the explained / accounted / confirmed lines; for the
# main job's config, precision against kernel/TRIAGE.md (precision.py).  Writes
# out/NAME-explained.sarif, out/NAME-confirmed.sarif, out/NAME-codegen.tsv
# and out/NAME-unaccounted.tsv.  SAMPLE=N measures every Nth TU only.
# ARCH= as make scan's: the same database (its --target is what the
# oracle compiles with) and names (out/linux-6.1-arm64-confirmed.sarif).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/kernel/stage.sh"
pipeline "$1" "$2" "$3" -evaluate

scan() {
	rc=0
	"$charscan" -p "$db" --srcroot "$src" --explain -q -o "$out/$name-explained.sarif" || rc=$?
	case $rc in 0|1|3) ;; *) exit "$rc" ;; esac
}
stage unpack unpack "$src"
stage build sh "$here/compile-db/kernel.sh" "$src" "$build" "$config"
# SAMPLE=N: every Nth TU of the database (by path), for a first figure
# of a big config at 1/N of the oracle's cost; out/ names say so.
db=$build
if [ "${SAMPLE:-1}" -gt 1 ]; then
	db=$build/sample-$SAMPLE
	name=$name-sample$SAMPLE
	mkdir -p "$db"
	python3 -c 'import json, sys
e = sorted(json.load(open(sys.argv[1])), key=lambda x: x["file"])
json.dump(e[::int(sys.argv[2])], open(sys.argv[3], "w"), indent=1)' \
		"$build/compile_commands.json" "$SAMPLE" "$db/compile_commands.json"
fi
# make scan's explained report of the same database, when it is newer
# than the database and charscan, is this scan: not done twice.
if [ "${SAMPLE:-1}" -le 1 ] && [ "$out/$name-explained.sarif" -nt "$db/compile_commands.json" ] &&
   [ "$out/$name-explained.sarif" -nt "$charscan" ]; then
	echo "scan --explain: make scan's $out/$name-explained.sarif" | tee -a "$times"
else
	stage "scan --explain" scan
fi

confirm() {
	rc=0
	"$charscan" confirm -p "$db" -q --cache "$here/work/confirm-cache" \
		--changes "$out/$name-codegen.tsv" -o "$out/$name-confirmed.sarif" \
		"$out/$name-explained.sarif" || rc=$?
	# 3: some TUs did not compile; the rest is still measured.
	case $rc in 0|3) ;; *) exit "$rc" ;; esac
}
stage "confirm (oracle)" confirm
python3 "$here/kernel/evaluate.py" "$out/$name-confirmed.sarif" "$out/$name-codegen.tsv" \
	"$src" "$name" "$out" "$times" | tee "$out/$name-evaluate.txt"
# Precision, by the triage written down: kernel/TRIAGE.md's first table
# for the main job's report (the default config), TRIAGE-defconfig.md's
# for CONFIG=defconfig (a sample too), finding by finding.
base=${name%-sample*}
triage=$here/kernel/TRIAGE${base#linux-6.1}.md
if [ -f "$triage" ]; then
	python3 "$here/kernel/precision.py" "$out/$name-confirmed.sarif" "$triage" |
		tee -a "$out/$name-evaluate.txt"
fi
# The oracle's cost against a plain build: make scan's first build.
if [ -f "$out/$name.times" ]; then
	echo "make scan, for comparison:"
	sed 's/^/  /' "$out/$name.times"
fi
