#!/bin/sh
# One shard of a sharded scan: a GNU parallel job or a Slurm array task.
#
#   run-shard.sh CHARSCAN DB DIR N [K]     (K: $SLURM_ARRAY_TASK_ID)
#
# Writes DIR/shard-K.sarif, its cross-TU records DIR/shard-K-of-N.sum
# and DIR/rc-K, charscan's exit status, which merge-shards.sh reads: the
# engines' own status says only that a job ran.  Uses $SLURM_CPUS_PER_TASK workers when Slurm gives several.
# $CHARSCAN_OPTIONS: more options for every shard (--srcroot DIR, --rules
# ...), split at blanks (parallel: --env CHARSCAN_OPTIONS for remote hosts;
# Slurm exports the environment).
set -u
[ $# -ge 4 ] || { echo "usage: $0 CHARSCAN DB DIR N [K]" >&2; exit 2; }
k=${5:-${SLURM_ARRAY_TASK_ID:-}}
[ -n "$k" ] || { echo "$0: no K and no SLURM_ARRAY_TASK_ID" >&2; exit 2; }
# shellcheck disable=SC2086 # split on purpose
"$1" -p "$2" --shard "$k/$4" -j "${SLURM_CPUS_PER_TASK:-1}" -q -o "$3/shard-$k.sarif" \
	--summaries "$3" ${CHARSCAN_OPTIONS:-}
rc=$?
echo "$rc" >"$3/rc-$k"
# 0 clean, 1 findings, 3 incomplete: the shard did its job.
case $rc in 0|1|3) exit 0 ;; *) exit "$rc" ;; esac
