#!/usr/bin/env bash
# Every doctest case of the test suites "slow" and "slow-timing" carries CTest's `slow` label, no fast case
# does, and no case name has a ';' or a leading '--' (CTest/doctest would mangle it):
# `ctest -LE slow` (the inner loop, and CI's sanitizer stage) then leaves out exactly the
# cases marked slow in their source files. Usage: slow_labels.sh BUILD_DIR TEST_BINARY
set -uo pipefail
build=$1
bin=$2
labelled=$(ctest --test-dir "$build" -N -L slow | sed -n 's/^ *Test *#[0-9]*: //p')
slow=$("$bin" --test-suite=slow,slow-timing --list-test-cases | grep -v -e '^\[doctest\]' -e '^=*$')
fast=$("$bin" --test-suite-exclude=slow,slow-timing --list-test-cases | grep -v -e '^\[doctest\]' -e '^=*$')
failed=0
[ -n "$slow" ] || { echo "FAIL: no doctest case is in the suite 'slow'"; failed=1; }
# CTest splits names at ';' and doctest reads a leading '--' as a flag: such a case would
# run as a filter matching nothing, a test that cannot fail.
while IFS= read -r name; do
  case "$name" in
    *";"*|--*) echo "FAIL: test name unusable by CTest/doctest filters: $name"; failed=1 ;;
  esac
done <<<"$slow
$fast"
while IFS= read -r name; do
  [ -z "$name" ] && continue
  grep -qxF -- "$name" <<<"$labelled" || { echo "FAIL: slow case not labelled: $name"; failed=1; }
done <<<"$slow"
while IFS= read -r name; do
  [ -z "$name" ] && continue
  if grep -qxF -- "$name" <<<"$labelled"; then echo "FAIL: fast case labelled slow: $name"; failed=1; fi
done <<<"$fast"
echo "$(grep -c . <<<"$slow") doctest cases in the suite 'slow'; $(grep -c . <<<"$labelled") CTest tests labelled slow"
exit $failed
