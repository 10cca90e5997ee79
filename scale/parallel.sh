#!/bin/sh
# A sharded scan on GNU parallel: N shards as job slots on this machine,
# or, with parallel's own options, on other hosts, then one merge.
#
#   scale/parallel.sh CHARSCAN DB OUT.sarif N [PARALLEL-OPTIONS...]
#
#   scale/parallel.sh charscan build/ out.sarif 8 -j 2
#   scale/parallel.sh charscan build/ out.sarif 64 --sshloginfile hosts
#
# Remote hosts need the same paths (the tree, this folder and a scratch
# folder on a shared file system: set TMPDIR to one), charscan, and the
# compiler's headers.  Exit status: merge-shards.sh's.
set -u
[ $# -ge 4 ] || { echo "usage: $0 CHARSCAN DB OUT.sarif N [PARALLEL-OPTIONS...]" >&2; exit 2; }
charscan=$1 db=$2 out=$3 n=$4 here=$(dirname "$0")
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/charscan-shards.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# -q: every argument quoted for the shell parallel runs each job in.
seq 1 "$n" | parallel --will-cite --halt never -q "$@" \
	sh "$here/run-shard.sh" "$charscan" "$db" "$tmp" "$n" {}
sh "$here/merge-shards.sh" "$charscan" "$tmp" "$n" "$out" "$db"
