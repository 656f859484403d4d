#!/usr/bin/env bash
# scripts/fuzz.sh's compiler probe agrees with the real build: for every Clang on this machine,
# a compiler the probe accepts is one CMakeLists.txt configures with MOEPLAN_FUZZ=ON, and a
# Clang older than 16 is refused by both (Debian 12 ships Clang 14: the probe once accepted
# it and the fuzz build then stopped at configure time). Exit 77 (skipped) with no Clang.
# Usage: fuzz_probe.sh SOURCE_DIR
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0
failed=0
for c in clang++-14 clang++-15 clang++-16 clang++-17 clang++-18 clang++-19 clang++; do
  command -v "$c" >/dev/null 2>&1 || continue
  major=$("$c" -dumpversion); major=${major%%.*}
  "$src/scripts/fuzz.sh" --probe "$c" >/dev/null 2>"$tmp/probe.err"
  probe=$?
  cmake -S "$src" -B "$tmp/build-$c" -G Ninja -DCMAKE_CXX_COMPILER="$c" -DMOEPLAN_FUZZ=ON \
    -DMOEPLAN_SANITIZE=address,undefined -DMOEPLAN_CUDA=OFF -DMOEPLAN_WITH_PLOTS=OFF \
    -DMOEPLAN_BUILD_BENCH=OFF -DBUILD_TESTING=OFF >"$tmp/cmake.log" 2>&1
  configure=$?
  echo "$c (Clang $major): probe exit $probe, cmake configure exit $configure"
  checked=$((checked + 1))
  if [ $probe -eq 0 ] && [ $configure -ne 0 ]; then
    echo "FAIL: the probe accepts $c but CMake refuses it:"; tail -5 "$tmp/cmake.log"; failed=1
  fi
  if [ "$major" -lt 16 ]; then
    if [ $probe -eq 0 ]; then echo "FAIL: the probe accepts Clang $major"; failed=1; fi
    if ! grep -q "Clang >= 16" "$tmp/probe.err"; then
      echo "FAIL: the probe's refusal of $c does not say why:"; cat "$tmp/probe.err"; failed=1
    fi
  fi
done
[ $checked -gt 0 ] || { echo "no Clang on this machine: nothing to check"; exit 77; }
exit $failed
