#!/bin/sh
# boot/initramfs.sh GEN_INIT_CPIO OUT.cpio.gz [EXTRA_BINARY...]
#
# busybox-static, boot/init and the given static binaries (into /bin,
# without a .static suffix).
# The archive is written by the kernel's own usr/gen_init_cpio, which
# makes the /dev/console node /init needs without mknod on this machine.
set -eu

gen=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox || echo /bin/busybox)
file "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	[ -f /bin/busybox ] || { echo "initramfs.sh: busybox-static is not installed" >&2; exit 2; }

list=$(mktemp)
{
	echo "dir /bin 0755 0 0"
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "file /init $here/init 0755 0 0"
	for b in "$@"; do
		echo "file /bin/$(basename "$b" .static) $(realpath "$b") 0755 0 0"
	done
} > "$list"
"$gen" "$list" | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
rm -f "$list"
