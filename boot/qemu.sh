#!/bin/sh
# boot/qemu.sh BZIMAGE INITRD LOG [kvm|tcg|auto]
#
# Boots on the serial console (-nographic -no-reboot) until /init powers
# off, or TIMEOUT seconds (default 300).  "auto" tries KVM with a short
# trial boot and falls back to TCG: /dev/kvm can exist and still not
# work.  Prints the mode used.  Nothing is loaded into this machine's
# kernel.
set -u

kernel=$1 initrd=$2 log=$3 mode=${4:-auto}
timeout=${TIMEOUT:-300}
marker="charscan-boot: done"

boot() {	# boot ACCEL_ARGS... : 0 if the marker was printed
	limit=$1
	shift
	timeout "$limit" qemu-system-x86_64 "$@" -m 512 -smp 1 -nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic" \
		< /dev/null > "$log" 2>&1
	grep -q "$marker" "$log"
}

if [ "$mode" = auto ]; then
	mode=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && boot 20 -enable-kvm -cpu host; then
		mode=kvm
		echo "$mode"
		exit 0
	fi
fi
case $mode in
kvm) boot "$timeout" -enable-kvm -cpu host ;;
tcg) boot "$timeout" -accel tcg -cpu qemu64 ;;
esac
rc=$?
echo "$mode"
exit $rc
