# Sourced by kernel/scan.sh and boot/boot.sh.
# stage NAME COMMAND...: run COMMAND, print its wall time and append the
# line to $times (the pipeline's .times file).
stage() {
	stage_name=$1
	shift
	stage_t0=$(date +%s.%N)
	"$@"
	printf '%-22s %6.1f s\n' "$stage_name" "$(echo "$(date +%s.%N) - $stage_t0" | bc)" |
		tee -a "$times"
}
