#!/bin/sh
# Apply or revert a quilt-style series on a kernel tree, idempotently.
#
#   kernel/patches.sh apply|unapply|status TREE [SERIES]
#
# A patch that is already applied (it reverts cleanly) is skipped; one
# that neither applies nor reverts cleanly stops everything, loudly, before
# the tree is touched by it.
set -eu

action=$1 tree=$2
dir=$(cd "$(dirname "$0")/patches" && pwd)
series=${3:-$dir/series}
patches=$(grep -v '^#' "$series" | grep .)

applied() { patch -d "$tree" -p1 -R -s -f --dry-run < "$dir/$1" >/dev/null 2>&1; }
applies() { patch -d "$tree" -p1 -N -s -f --dry-run < "$dir/$1" >/dev/null 2>&1; }

case $action in
apply)
	for p in $patches; do
		if applied "$p"; then
			echo "  applied  $p"
		elif applies "$p"; then
			patch -d "$tree" -p1 -N -s -f < "$dir/$p"
			echo "  APPLY    $p"
		else
			echo "patches.sh: $p does not apply to $tree" >&2
			patch -d "$tree" -p1 -N -f --dry-run < "$dir/$p" >&2 || true
			exit 1
		fi
	done ;;
unapply)
	for p in $(echo "$patches" | sed -n '1!G;h;$p'); do
		if applied "$p"; then
			patch -d "$tree" -p1 -R -s -f < "$dir/$p"
			echo "  REVERT   $p"
		elif applies "$p"; then
			echo "  absent   $p"
		else
			echo "patches.sh: $p is neither applied nor appliable in $tree" >&2
			exit 1
		fi
	done ;;
status)
	for p in $patches; do
		if applied "$p"; then echo "applied  $p"; else echo "absent   $p"; fi
	done ;;
*)
	echo "usage: patches.sh apply|unapply|status TREE [SERIES]" >&2
	exit 2 ;;
esac
