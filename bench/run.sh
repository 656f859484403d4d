#!/usr/bin/env bash
# Speed figures for moeplan (benchmarks, not tests): in-process timings of the pipeline and
# the layer solve, then `moeplan suggest` end to end as a process (start-up included).
# Usage: bench/run.sh [BUILD_DIR]   (default: build; configured and built if missing)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
if [ ! -x "$build/bench/moeplan_bench" ] || [ ! -x "$build/moeplan" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target moeplan moeplan_bench moeplan_layout_bench moeplan_serving_bench moeplan_time_optimal_bench moeplan_gemm_model_bench >/dev/null
fi
echo "== machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== in-process"
"$build/bench/moeplan_bench"
if [ -x "$build/bench/moeplan_layout_bench" ]; then
  "$build/bench/moeplan_layout_bench"
fi
if [ -x "$build/bench/moeplan_serving_bench" ]; then
  "$build/bench/moeplan_serving_bench"
fi
if [ -x "$build/bench/moeplan_time_optimal_bench" ]; then
  "$build/bench/moeplan_time_optimal_bench"
fi
if [ -x "$build/bench/moeplan_gemm_model_bench" ]; then
  echo "== the GEMM shape model against the H200 sweep (docs/measurements/h200-2026-11-26)"
  "$build/bench/moeplan_gemm_model_bench" "$here/docs/measurements/h200-2026-11-26/sweep.csv" h200 | grep -v '^  rows'
fi
echo
echo "== end to end: moeplan suggest --no-bench --flops C --format json > /dev/null (wall, 100 runs each)"
printf '%-14s %10s %10s %10s\n' "C" "median ms" "p10 ms" "p90 ms"
for C in 1e18 1e20 1e22 1e24; do
  for _ in $(seq 100); do
    t0=$(date +%s%N)
    "$build/moeplan" suggest --no-bench --flops "$C" --format json >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
done

echo
echo "== end to end with a cluster (plan, co-design, layout search): wall, 30 runs each"
printf '%-52s %10s %10s %10s\n' "command" "median ms" "p10 ms" "p90 ms"
for cmd in "suggest --no-bench --flops 1e24 --gpus 2048 --gpu h100" \
           "suggest --no-bench --flops 1e22 --gpus 64 --gpu h100" \
           "score deepseek-v3.1 --gpus 2048 --gpu h800 --tokens 14.8e12"; do
  for _ in $(seq 30); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$build/moeplan" $cmd --format json >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk -v c="$cmd" '{ v[NR] = $1 }
    END { printf "%-52s %10.2f %10.2f %10.2f\n", c, v[15] / 1000, v[3] / 1000, v[27] / 1000 }'
done

echo
echo "== start-up: wall time and peak RSS of commands that use no GPU (the CUDA module is not loaded)"
printf '%-40s %10s %10s\n' "command" "median ms" "max RSS MB"
[ -x /usr/bin/time ] || echo "   (GNU time is missing: apt-get install time)"
[ -x /usr/bin/time ] && for cmd in "--version" "suggest --flops 1e22 --no-bench"; do
  # shellcheck disable=SC2086
  rss=$(/usr/bin/time -f "%M" -o /dev/stdout "$build/moeplan" $cmd 2>/dev/null | tail -n1)
  for _ in $(seq 50); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$build/moeplan" $cmd >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk -v c="moeplan $cmd" -v rss="$rss" '{ t[NR] = $1 }
    END { printf "%-40s %10.2f %10.1f\n", c, t[int((NR + 1) / 2)] / 1000, rss / 1024 }'
done
if ldd "$build/moeplan" | grep -q cublas; then echo "   (!) the binary links cuBLAS at start-up"; fi

echo
echo "== GEMM benchmark (moeplan bench): the 1e22 winner and its aligned variants, CPU fp32"
echo "   (and the GPU when there is one); per-shape figures with --format json"
"$build/moeplan" suggest --flops 1e22 --align auto --bench-seconds 10 --format json 2>/dev/null |
  python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%-22s %6s %6s %6s %12s %8s %10s" % ("variant", "d", "d_m", "L_d+L_m", "dL/L", "GFLOP/s", "speed-up"))
for k, v in d.items():
    if k.startswith("aligned_"):
        print("%-22s %6d %6d %3d+%-3d %12.2e %8.1f %10.3f" % (v["variant"], v["hidden_size"], v["expert_ffn_size"],
              v["num_dense_layers"], v["num_moe_layers"], v["loss_change"], v.get("cpu_rate", 0) / 1e9, v["speedup"]))
print("chosen:", d["alignment"]["chosen"])
b = d["cpu_bench"]
peak = b["nominal_peak"]
print("square %d^3 fp32: %.1f GFLOP/s measured; hardware peak %s; model GEMMs: %.1f GFLOP/s = %s of the hardware peak" %
      (b["peak_size"], b["measured_peak"] / 1e9, "%.1f GFLOP/s" % (peak / 1e9) if peak else "unknown",
       b["rate"] / 1e9, "%.0f %%" % (100 * b["fraction_of_peak"]) if b["fraction_of_peak"] is not None else "n/a"))
print("hardware peak:", b.get("nominal_peak_reason") or "")
'
"$build/moeplan" bench deepseek-v3.1 moe-mini --seconds 10 --summary
