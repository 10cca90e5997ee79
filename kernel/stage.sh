# Sourced by the kernel pipeline's scripts (scan, evaluate, boot).
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

# unpack SRC: Debian's linux-source-6.1 into SRC, unless it is there.
unpack() {
	[ -f "$1/Makefile" ] && return
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || { echo "$tarball missing (apt-get install linux-source-6.1)" >&2; exit 2; }
	mkdir -p "$(dirname "$1")"
	unpack_tmp=$(mktemp -d "$(dirname "$1")/unpack.XXXXXX")
	tar -xJf "$tarball" -C "$unpack_tmp"
	mv "$unpack_tmp"/linux-source-6.1 "$1"
	rmdir "$unpack_tmp"
}

# names SRC CONFIG: $name, what out/ calls this tree, arch and config
# (linux-6.1, linux-6.1-unsigned, linux-6.1-defconfig, ARCH=arm64:
# linux-6.1-arm64, linux-6.1-arm64-defconfig), and $build, its kbuild O=
# folder.  Needs $here.
names() {
	name=$(basename "$1")
	case ${ARCH:-x86_64} in
	*[!a-z0-9_]*) echo "ARCH=: not a kernel architecture name (a-z, 0-9, _)" >&2; exit 2 ;;
	x86_64) ;;
	*) name=$name-$ARCH ;;
	esac
	# CONFIG=FILE: named after the file (linux-6.1-debian.config).
	[ "$2" = tiny ] || name=$name-$(basename "$2")
	build=$here/work/kbuild/scan-$name
}

# pipeline CHARSCAN SRC CONFIG SUFFIX: scan.sh's and evaluate.sh's
# arguments as $charscan $src $config, and $out, $name, $build, and
# $times (out/$name$SUFFIX.times, emptied).
pipeline() {
	charscan=$(realpath "$1")
	src=$2
	config=$3
	case $config in */*) config=$(realpath "$config") ;; esac
	out=$here/out
	names "$src" "$config"
	mkdir -p "$out"
	times=$out/$name$4.times
	: > "$times"
}
