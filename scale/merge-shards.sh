#!/bin/sh
# The last step of a sharded scan: the cross-TU walk of the TUs the
# shards' records name (charscan --resolve, on DB with the shards'
# $CHARSCAN_OPTIONS), then the N shards' reports and its merged into one.
#
#   merge-shards.sh CHARSCAN DIR N OUT.sarif DB
#
# Exit status: the worst shard's (0 clean, 1 findings, 3 incomplete), or
# 2 when a shard did not write its report: then nothing is written, as a
# smaller report would pass for a whole one.
set -u
[ $# -eq 5 ] || { echo "usage: $0 CHARSCAN DIR N OUT.sarif DB" >&2; exit 2; }
charscan=$1 dir=$2 n=$3 out=$4 db=$5
worst=0 k=1
set --
while [ "$k" -le "$n" ]; do
	rc=$(cat "$dir/rc-$k" 2>/dev/null || echo none)
	case $rc in
	0|1|3) [ "$rc" -gt "$worst" ] && worst=$rc ;;
	*) echo "$0: shard $k/$n failed (exit $rc)" >&2; exit 2 ;;
	esac
	set -- "$@" "$dir/shard-$k.sarif"
	k=$((k + 1))
done
# shellcheck disable=SC2086 # split on purpose
"$charscan" -p "$db" --resolve "$dir" -j "${SLURM_CPUS_PER_TASK:-1}" -q -o "$dir/cross-tu.sarif" \
	${CHARSCAN_OPTIONS:-}
rc=$?
case $rc in
0|1|3) [ "$rc" -gt "$worst" ] && worst=$rc ;;
*) echo "$0: the cross-TU walk failed (exit $rc)" >&2; exit 2 ;;
esac
"$charscan" merge --summaries "$dir" "$@" "$dir/cross-tu.sarif" -o "$out" || exit 2
exit "$worst"
