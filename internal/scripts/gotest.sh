#!/usr/bin/env bash
# gotest.sh LOG CMD...: runs a `go test` command, its output both shown and
# kept in LOG; when it fails, repeats at the end what a reader of a long CI
# log needs first: the failing tests with their messages and the first lines of each data race
# report (the race detector prints both goroutines' stacks, and the
# report's head — which access, where — is what scrolls out of a log's tail).
set -uo pipefail
log=$1
shift
mkdir -p "$(dirname "$log")"
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
	echo "=== gotest: '$*' failed (exit $rc); full output in $log"
	# each failing test with its messages (the indented lines after it)
	awk '/^(--- FAIL|panic:)/ {p=1; print; next} p && /^    / {print; next} {p=0} /^FAIL/ {print}' "$log" | head -60
	# each race report, its first 24 lines (the two accesses' stacks' tops), at most three
	awk '/^WARNING: DATA RACE/ {n++; left=24} left>0 && n<=3 {print; left--}' "$log"
fi
exit "$rc"
