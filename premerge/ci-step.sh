#!/bin/sh
# A generic CI step for a change request: scan the TUs the change touches,
# write SARIF for upload, print gcc-style lines, exit 1 if a finding is
# on a line the change adds or edits (2 or 3: the scan itself failed;
# 3 also when the change switched the check off: a .charscan excluding
# every TU or disabling every rule).
#
# CHARSCAN_BASE   the branch merged into (default: origin/main)
# CHARSCAN_DB     compile_commands.json or its directory (default: build)
# CHARSCAN_SARIF  the report (default: charscan.sarif)
# CHARSCAN        the charscan binary (default: charscan on PATH)
set -u
base=${CHARSCAN_BASE:-origin/main}
top=$(git rev-parse --show-toplevel) || exit 2
# base...HEAD: what HEAD changed since it left base, as a review shows it.
exec "${CHARSCAN:-charscan}" -p "${CHARSCAN_DB:-build}" --srcroot "$top" \
	--diff "$base...HEAD" --fail-on-empty -o "${CHARSCAN_SARIF:-charscan.sarif}" --format text
