#!/bin/sh
# A sharded scan on Slurm: a job array of N shards, then a merge job that
# runs when the array is done (afterany: a failed shard makes the merge
# fail, not wait for ever).
#
#   scale/slurm.sh CHARSCAN DB OUT.sarif N [SBATCH-OPTIONS...]
#
#   scale/slurm.sh charscan build/ out.sarif 64 -p batch -c 2
#   scale/slurm.sh charscan build/ out.sarif 8 --wait     # block; exit: the merge's
#
# Shard reports and logs go to OUT.sarif.shards/ (next to the report: on
# a shared file system, as the tree).  SBATCH-OPTIONS go to both
# submissions; -c C gives each shard C workers.  Exit status: sbatch's,
# or with --wait the merge's (see merge-shards.sh).
set -u
[ $# -ge 4 ] || { echo "usage: $0 CHARSCAN DB OUT.sarif N [SBATCH-OPTIONS...]" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
charscan=$1 db=$(abs "$2") out=$(abs "$3") n=$4
case $charscan in */*) charscan=$(abs "$charscan") ;; esac	# else found in PATH
here=$(cd "$(dirname "$0")" && pwd)
shift 4
dir=$out.shards
rm -rf "$dir" && mkdir -p "$dir" || exit 2
array=$(sbatch --parsable "$@" --array="1-$n" --job-name=charscan-shard \
	--output="$dir/shard-%a.log" "$here/run-shard.sh" "$charscan" "$db" "$dir" "$n") || exit 2
echo "charscan: shards: job ${array%%;*}, $n tasks; logs in $dir" >&2
exec sbatch --parsable "$@" --dependency="afterany:${array%%;*}" --job-name=charscan-merge \
	--output="$dir/merge.log" "$here/merge-shards.sh" "$charscan" "$dir" "$n" "$out" "$db"
