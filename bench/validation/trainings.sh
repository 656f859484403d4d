#!/bin/sh
# Prints the whole-training class of docs/validation.md: each row of
# bench/validation/trainings.csv run through `moeplan score` as published, the prediction its
# `wall_figure` column names (training.wall_gpu_hours for a whole-run figure,
# step_time.gpu_hours for a throughput-derived one) beside the published GPU-hours, the ratio
# published / predicted (> 1: moeplan too fast) and the row's first prediction's ratio
# (bench/validation/trainings_first_predictions.md), then each class's geometric mean.
# A benchmark script, not a test. Usage: bench/validation/trainings.sh [MOEPLAN_BINARY]
# (default ./build/moeplan); run from anywhere.
set -eu
bin=$(realpath "${1:-./build/moeplan}")
cd "$(dirname "$0")/../.."
python3 - "$bin" <<'PY'
import csv, json, math, subprocess, sys
binary = sys.argv[1]
rows = list(csv.DictReader(open("bench/validation/trainings.csv")))
print(f"{'id':<4} {'class':<6} {'published':>11} {'predicted':>11} {'ratio':>6} {'first':>6}  layout")
ratios = {}
for r in rows:
    published = float(r["published"])
    first = r["first_prediction"]
    first_ratio = "error"
    if not first.startswith("error"):
        parts = dict(p.split("=") for p in first.split(";"))
        first_ratio = f"{published / float(parts[r['wall_figure']]):.2f}"
    run = subprocess.run([binary, "score", *r["args"].split(), "--format", "json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        why = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit {run.returncode}"
        print(f"{r['id']:<4} {r['class']:<6} {published:>11.4g} {'error':>11} {'-':>6} {first_ratio:>6}  {why[:110]}")
        continue
    d = json.loads(run.stdout)[0]
    key = d["training"]["wall_gpu_hours"] if r["wall_figure"] == "wall" else d["step_time"]["gpu_hours"]
    ratio = published / key
    ratios.setdefault(r["class"], []).append(ratio)
    print(f"{r['id']:<4} {r['class']:<6} {published:>11.4g} {key:>11.4g} {ratio:>6.2f} {first_ratio:>6}  {d['cluster']['layout']}")
every = [x for v in ratios.values() for x in v]
for name, v in [*sorted(ratios.items()), ("all", every)]:
    if not v:
        continue
    geo = math.exp(sum(math.log(x) for x in v) / len(v))
    inside = sum(1 for x in v if 0.67 <= x <= 1.5)
    print(f"{name}: {len(v)} rows, geometric mean {geo:.3f}, {inside} within x0.67-1.5, "
          f"range {min(v):.2f}-{max(v):.2f}")
PY
