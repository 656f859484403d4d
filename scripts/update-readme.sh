#!/usr/bin/env bash
# README.md's `suggest` example is the binary's own output, never typed by hand: this script
# writes it between the markers <!-- suggest-example:begin/end -->. With --check it changes
# nothing and exits 1 when the README differs from what the binary prints (a CTest case runs
# that). Usage: scripts/update-readme.sh [--check] [MOEPLAN_BINARY]   (default ./build/moeplan)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
bin=${1:-./build/moeplan}
args=(suggest --flops 1e22 --no-bench)
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.out"' EXIT
NO_COLOR=1 "$bin" "${args[@]}" >"$tmp.out" 2>/dev/null
awk -v cmd="moeplan ${args[*]}" -v out="$tmp.out" '
  /<!-- suggest-example:begin -->/ {
    print; print "```console"; print "$ " cmd
    while ((getline line < out) > 0) print line
    print "```"; skipping = 1; next
  }
  /<!-- suggest-example:end -->/ { skipping = 0 }
  !skipping { print }
' README.md >"$tmp"
grep -q 'suggest-example:begin' README.md || { echo "README.md has no suggest-example markers" >&2; exit 2; }
if [ $check -eq 1 ]; then
  if ! diff -u README.md "$tmp"; then
    echo "README.md's suggest example is stale: run scripts/update-readme.sh" >&2
    exit 1
  fi
  exit 0
fi
cp "$tmp" README.md
