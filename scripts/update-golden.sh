#!/usr/bin/env bash
# Golden outputs: `moeplan suggest` at two budgets (1e20, inside the fitted range; 1e22,
# extrapolated) in all four formats, kept in tests/data/golden/ so that any change of the
# plan or of its formatting shows up as a reviewed diff. A CTest case runs --check.
#   scripts/update-golden.sh [--check] [MOEPLAN_BINARY]   (default ./build/moeplan)
# Without --check it rewrites the files: review `git diff tests/data/golden` before
# committing. With --check it changes nothing and exits 1 on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
bin=${1:-./build/moeplan}
dir=tests/data/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for flops in 1e20 1e22; do
  for format in table json csv toml; do
    name="suggest-$flops.$format"
    NO_COLOR=1 "$bin" suggest --flops "$flops" --no-bench --format "$format" >"$tmp/$name" 2>/dev/null
    if [ $check -eq 1 ]; then
      if ! diff -u "$dir/$name" "$tmp/$name"; then
        echo "$dir/$name differs from what the binary prints: if the change is intended," \
             "run scripts/update-golden.sh and review the diff" >&2
        status=1
      fi
    else
      mkdir -p "$dir"
      cp "$tmp/$name" "$dir/$name"
    fi
  done
done
exit $status
