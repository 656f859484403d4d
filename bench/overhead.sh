#!/usr/bin/env bash
# Issue 31's figures: process wall time (median of N runs) of a plan with a cluster and of
# the --days search, against the plain plan measured the same way, and start-up. Prints
# figures, asserts nothing. Usage: bench/overhead.sh [MOEPLAN_BINARY] [RUNS]
set -euo pipefail
bin=${1:-build/moeplan}
runs=${2:-5}
median_ms() {  # median_ms ARGS...: median wall ms of $runs runs of "$bin ARGS"
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    "$bin" "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}
echo "== $bin: $(nproc) cores, median of $runs runs (process wall time, ms)"
plain=$(median_ms suggest --flops 1e24 --no-bench)
printf '%-60s %8s\n' "suggest --flops 1e24 --no-bench" "$plain"
for cmd in "suggest --flops 1e24 --gpus 2048 --gpu h100 --no-bench" \
           "suggest --gpus 1024 --gpu h100 --days 30 --no-bench" \
           "score deepseek-v3.1 --gpus 2048 --gpu h800"; do
  # shellcheck disable=SC2086
  t=$(median_ms $cmd)
  printf '%-60s %8s  (%.1fx the plain plan)\n' "$cmd" "$t" "$(echo "$t / $plain" | bc -l)"
done
for cmd in "--version" "suggest --flops 1e22 --no-bench"; do
  # shellcheck disable=SC2086
  printf '%-60s %8s\n' "$cmd (start-up)" "$(median_ms $cmd)"
done
printf 'shared libraries mapped at start-up: %s\n' "$(ldd "$bin" | grep -c '=>')"
