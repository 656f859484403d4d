#!/usr/bin/env bash
# Every core source file that holds behaviour has a test file of its name (issue 47): for each
# src/<library>/.../NAME.cpp outside src/cli/ (the CLI is tested through tests/cli/), the
# config.json family files src/io/hf/family_*.cpp (tested by family in tests/io/test_hf_*.cpp)
# and src/main.cpp, some tests/<folder>/test_NAME.cpp exists. A file that has none yet is listed
# below with the reason, in this one place; a listed file that has gained its test, or no longer
# exists, fails the check too, so the list only shrinks. Usage: core_test_files.sh SOURCE_DIR
set -uo pipefail
root=$1
# NAME.cpp path relative to the source root, then why it has no test file yet.
declare -A exceptions=(
  # [src/LIBRARY/NAME.cpp]="not yet: why"
)
failed=0
checked=0
while IFS= read -r src; do
  rel=${src#"$root"/}
  case "$rel" in
    src/cli/*|src/io/hf/family_*.cpp|src/main.cpp) continue ;;
  esac
  checked=$((checked + 1))
  name=$(basename "$rel" .cpp)
  found=$(find "$root/tests" -mindepth 2 -maxdepth 2 -name "test_$name.cpp" -print -quit)
  if [ -n "${exceptions[$rel]+set}" ]; then
    if [ -n "$found" ]; then
      echo "FAIL: $rel has ${found#"$root"/} now: remove it from the exceptions in tests/core_test_files.sh"
      failed=1
    fi
    continue
  fi
  if [ -n "$found" ] && ! grep -qF "${found#"$root"/tests/}" "$root/tests/CMakeLists.txt"; then
    echo "FAIL: ${found#"$root"/} is not in tests/CMakeLists.txt"
    failed=1
  fi
  if [ -z "$found" ]; then
    echo "FAIL: $rel has no tests/<folder>/test_$name.cpp (add one, or list it with a reason in tests/core_test_files.sh)"
    failed=1
  fi
done < <(find "$root/src" -name '*.cpp' | sort)
for rel in "${!exceptions[@]}"; do
  [ -f "$root/$rel" ] || { echo "FAIL: the exception $rel is no source file (remove it)"; failed=1; }
done
echo "$checked core source files checked, ${#exceptions[@]} without a test file yet:"
for rel in "${!exceptions[@]}"; do echo "  $rel: ${exceptions[$rel]}"; done
exit $failed
