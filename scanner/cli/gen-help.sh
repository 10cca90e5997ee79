#!/bin/sh
# Turn rules/<id>.md into C string constants help_<id> (rule_help.h), so
# the SARIF help text and the docs are one source.
set -eu
for md in "$@"; do
	id=$(basename "$md" .md)
	printf 'static const char help_%s[] =\n' "$id"
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$md"
	printf ';\n'
done
