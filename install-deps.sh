#!/bin/sh
# Install what charscan, its tests and the kernel pipeline need on Debian 12
# (libclang-rt-19-dev: libFuzzer for make check-fuzz; parallel, slurm-wlm:
# scale/ and its tests; sparse: make bench's speed anchor; quilt: the
# tests import charscan fix's mails with it; chromium: the tests render
# reports in Microsoft's SARIF viewer component; debhelper, dpkg-dev,
# fakeroot, lintian: the Debian package, debian/ci-check.sh).
# Nothing is installed when everything already is (no apt-get update).
set -eu

pkgs="make gcc git python3 xz-utils pkg-config
	libclang-dev libclang-19-dev clang-19 clang-tidy-19 llvm clang lld bear
	libclang-rt-19-dev parallel slurm-wlm sparse quilt
	libjansson-dev libssl-dev
	debhelper dpkg-dev fakeroot lintian
	linux-source-6.1 flex bison bc libelf-dev
	qemu-system-x86 busybox-static cpio man-db groff-base chromium
	vim emacs-nox"	# the editor tests read charscan's text with them
# Node and npm (for the SARIF schema validator): Debian's, unless some are
# already there (nodesource's nodejs bundles npm and conflicts with ours).
command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "install-deps: installing$missing"
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
