#!/bin/sh
# Apply or revert a quilt-style series on a kernel tree, idempotently.
#
#   kernel/patches.sh apply|unapply|only|status TREE [SERIES]
#
# SERIES defaults to kernel/patches/series, the whole series.  "only"
# leaves the tree with SERIES applied and every other patch of the whole
# series reverted.  A patch that is already applied (it reverts cleanly)
# is skipped; one that neither applies nor reverts cleanly stops
# everything, loudly, before the tree is touched by it.  The tests apply
# with and without the fixes, at other offsets: no .orig files are kept.
set -eu

action=$1 tree=$2
dir=$(cd "$(dirname "$0")/patches" && pwd)
series=${3:-$dir/series}
list() { grep -v '^#' "$1" | grep . || true; }
patches=$(list "$series")

applied() { patch -d "$tree" -p1 -R -s -f --dry-run < "$dir/$1" >/dev/null 2>&1; }
applies() { patch -d "$tree" -p1 -N -s -f --dry-run < "$dir/$1" >/dev/null 2>&1; }

apply() {
	for p in $1; do
		if applied "$p"; then
			echo "  applied  $p"
		elif applies "$p"; then
			patch -d "$tree" -p1 -N -s -f --no-backup-if-mismatch < "$dir/$p"
			echo "  APPLY    $p"
		else
			echo "patches.sh: $p does not apply to $tree" >&2
			patch -d "$tree" -p1 -N -f --dry-run < "$dir/$p" >&2 || true
			exit 1
		fi
	done
}

unapply() {
	for p in $(echo "$1" | sed -n '1!G;h;$p'); do
		if applied "$p"; then
			patch -d "$tree" -p1 -R -s -f --no-backup-if-mismatch < "$dir/$p"
			echo "  REVERT   $p"
		elif applies "$p"; then
			echo "  absent   $p"
		else
			echo "patches.sh: $p is neither applied nor appliable in $tree" >&2
			exit 1
		fi
	done
}

case $action in
apply)
	apply "$patches" ;;
unapply)
	unapply "$patches" ;;
only)
	unapply "$(list "$dir/series" | grep -vxF "$patches" || true)"
	apply "$patches" ;;
status)
	for p in $patches; do
		if applied "$p"; then echo "applied  $p"; else echo "absent   $p"; fi
	done ;;
*)
	echo "usage: patches.sh apply|unapply|only|status TREE [SERIES]" >&2
	exit 2 ;;
esac
