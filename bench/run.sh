#!/usr/bin/env bash
# Speed figures for moeplan (benchmarks, not tests): in-process timings of the pipeline and
# the layer solve, then `moeplan suggest` end to end as a process (start-up included).
# Usage: bench/run.sh [BUILD_DIR]   (default: build; configured and built if missing)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
if [ ! -x "$build/bench/moeplan_bench" ] || [ ! -x "$build/moeplan" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target moeplan moeplan_bench >/dev/null
fi
echo "== machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== in-process"
"$build/bench/moeplan_bench"
echo
echo "== end to end: moeplan suggest --flops C --format json > /dev/null (wall, 100 runs each)"
printf '%-14s %10s %10s %10s\n' "C" "median ms" "p10 ms" "p90 ms"
for C in 1e18 1e20 1e22 1e24; do
  for _ in $(seq 100); do
    t0=$(date +%s%N)
    "$build/moeplan" suggest --flops "$C" --format json >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
done
