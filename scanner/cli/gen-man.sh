#!/bin/sh
# charscan.1 from `charscan --help`: the man page and --help are one text.
# A line at the left margin is a section; "    -x ARG   text" (two or
# more spaces before the text) an option, "    3  text" an exit status;
# SYNOPSIS keeps its lines; anything else is paragraph text.
#
#   gen-man.sh CHARSCAN > charscan.1
set -eu
version=$("$1" --version | sed 's/ (.*//')
"$1" --help | awk -v version="$version" '
function roff(s) {			# escape for roff
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	sub(/^[.'\'']/, "\\\\\\&&", s)
	return s
}
BEGIN {
	printf ".TH CHARSCAN 1 \"\" \"%s\" \"User Commands\"\n", version
}
/^[A-Z][A-Z ]*$/ {
	if (nofill) print ".fi"
	printf ".SH %s\n", $0
	nofill = $0 == "SYNOPSIS"	# one usage a line
	if (nofill) print ".nf"
	next
}
/^$/ { print ".PP"; next }
nofill { sub(/^ +/, ""); print roff($0); next }
/^    [-0-9]/ && match($0, /^    [-0-9][^ ]*( [^ ]+)*( ?)  +/) {
	head = substr($0, 5, RLENGTH - 4); sub(/ +$/, "", head)
	printf ".TP\n.B %s\n%s\n", roff(head), roff(substr($0, RLENGTH + 1))
	next
}
/^    -/ { printf ".TP\n.B %s\n", roff(substr($0, 5)); next }
{ sub(/^ +/, ""); print roff($0) }
'
