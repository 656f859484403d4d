#!/bin/sh
# Prints docs/validation.md's table: each published training or benchmark of
# bench/validation/cases.csv run through `moeplan score` as published (its layout, batch,
# sequence and precision), the prediction beside the published figure and the speed ratio
# (predicted speed over published speed: > 1 means moeplan is too fast).
# A benchmark script, not a test (tests/cli/test_validation.cpp holds the bound).
# Usage: bench/validation.sh [MOEPLAN_BINARY]   (default ./build/moeplan); run from the repo root.
set -eu
bin=$(realpath "${1:-./build/moeplan}")
cd "$(dirname "$0")/.."
cases=bench/validation/cases.csv
printf '%-4s %-9s %-9s %-16s %12s %12s %7s  %s\n' id split class figure published predicted speed layout
tail -n +2 "$cases" | while IFS=, read -r id split class expect published figure args source; do
  # shellcheck disable=SC2086 # args is a word list on purpose
  json=$("$bin" score $args --format json 2>/dev/null) || { printf '%-4s %-9s %-9s %-16s %12s %12s %7s  %s\n' "$id" "$split" "$class" "$figure" "$published" "error" "-" "-"; continue; }
  printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)[0]
fig, pub = sys.argv[1], float(sys.argv[2])
t, c = d["step_time"], d["cluster"]
pred = {"gpu_hours": t["gpu_hours"], "step_s": t["step"],
        "tokens_per_gpu_s": t["tokens_per_second"] / c["gpus"]}[fig]
layout = c["layout"]
speed = pred / pub if fig == "tokens_per_gpu_s" else pub / pred  # > 1: moeplan too fast
print(f"{sys.argv[3]:<4} {sys.argv[4]:<9} {sys.argv[5]:<9} {fig:<16} {pub:12.4g} {pred:12.4g} {speed:7.3f}  {layout}")
' "$figure" "$published" "$id" "$split" "$class"
done
