#!/bin/bash
# Prints which tests a `swift test` run skipped, and why, from the run's log (what `make test`
# tees to .build/test.log):
#
#     Skipped: 3 tests (and 1 suite)
#       - suite CSV corpus: shared corpus not found (…)
#       - MTK/BT747 logger CSV: 1,199 fixes, …: shared corpus not found (…)
#       - GPX and CSV of the MTK logger hold the same 1,199 fixes: shared corpus not found (…)
#       - the full 10,000-line file is used when ../shared is present: ../shared/geodesy/… not found: …
#
# or `Skipped: none`. It reads the lines Swift Testing prints for a test or suite whose
# `.enabled(if:)` / `.disabled(…)` trait turned it off, e.g.
#
#     ➜ Test "every trace of ../shared/traces: …" skipped: "../shared/traces not found (…)"
#     ➜ Suite "CSV corpus" skipped: "shared corpus not found (…)"
#
# (colour codes, when there are any, are removed first; a test named by its function, e.g.
# `sliceShape()`, is unquoted; a skip without a comment is listed with "no reason given"). Swift
# Testing also prints a line for each test of a skipped suite, so those are counted and listed
# as tests, and the suite's own line is listed too. Exit status 0, or 64 when the log cannot be
# read.
#
#     Tools/test-summary.sh .build/test.log
set -u
log=${1:-}
if [ -z "$log" ] || [ ! -r "$log" ]; then
  echo "usage: $0 LOG (the output of swift test)" >&2
  exit 64
fi

# "<kind>\t<name>\t<reason>" for each skipped test or suite, in the log's order.
entries=$(sed -e $'s/\x1b\\[[0-9;]*m//g' "$log" | awk '
  {
    # The symbol before "Test"/"Suite" differs between platforms and terminals: match from the kind.
    if ($0 !~ /^([^ ]+ )?(Test|Suite) .* skipped(: ".*"|\.)?$/) next
    match($0, /(Test|Suite) /)
    line = substr($0, RSTART)
    kind = (substr(line, 1, 4) == "Test") ? "test" : "suite"
    line = substr(line, kind == "test" ? 6 : 7)
    reason = "no reason given"
    if (match(line, / skipped: ".*"$/)) {
      reason = substr(line, RSTART + 11, RLENGTH - 12)
      line = substr(line, 1, RSTART - 1)
    } else {
      sub(/ skipped\.?$/, "", line)
    }
    # A display name is quoted; a function name (sliceShape()) is not.
    if (line ~ /^".*"$/) line = substr(line, 2, length(line) - 2)
    gsub(/\\"/, "\"", line); gsub(/\\"/, "\"", reason)
    printf "%s\t%s\t%s\n", kind, line, reason
  }')

if [ -z "$entries" ]; then
  echo "Skipped: none"
  exit 0
fi
tests=$(printf '%s\n' "$entries" | grep -c $'^test\t')
suites=$(printf '%s\n' "$entries" | grep -c $'^suite\t')
if [ "$suites" = 0 ]; then
  echo "Skipped: $tests test$([ "$tests" = 1 ] || echo s)"
else
  echo "Skipped: $tests test$([ "$tests" = 1 ] || echo s) (and $suites suite$([ "$suites" = 1 ] || echo s))"
fi
printf '%s\n' "$entries" | while IFS=$'\t' read -r kind name reason; do
  if [ "$kind" = suite ]; then
    echo "  - suite $name: $reason"
  else
    echo "  - $name: $reason"
  fi
done
