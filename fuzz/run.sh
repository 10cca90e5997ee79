#!/bin/sh
# make check-fuzz: each harness for SECONDS under libFuzzer, starting
# from fuzz/corpus/NAME; new inputs kept in BUILD/corpus/NAME (copy the
# ones worth keeping into fuzz/corpus/), a crash saved as
# BUILD/NAME-crash-* and the run fails.
# Usage: run.sh BUILD SECONDS NAME...
set -u
build=$1 secs=$2
shift 2
failed=0
for name; do
	mkdir -p "$build/corpus/$name" "fuzz/corpus/$name"
	log=$build/$name.log
	start=$(date +%s)
	"$build/$name" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/$name-" \
		"$build/corpus/$name" "fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	kept=$(ls "$build/corpus/$name" | wc -l)
	if [ $rc -eq 0 ]; then
		echo "fuzz  $name  ok  ${runs:-?} runs  $cov  $kept inputs  $(( $(date +%s) - start )) s"
	else
		failed=$((failed + 1))
		echo "fuzz  $name  FAILED (exit $rc), see $log:"
		grep -E 'ERROR|SUMMARY|property does not hold|Test unit written' "$log" | head -5
	fi
done
exit $failed
