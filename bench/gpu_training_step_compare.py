#!/usr/bin/env python3
"""Measured training steps beside moeplan's step terms, term by term.

Reads a steps table written by bench/gpu_training_step.py (docs/measurements/h200-2026-11-29/
steps.csv), runs `moeplan score` on each row's model, GPU and layout with the defaults, and
prints measured / predicted for the step and for each term the row measured (gemm, attention,
memory_bound: kernel GPU time of one profiled step's forward and backward; optimizer: CUDA
events around the step's optimizer phase), > 1: the step model is too fast; then the GPU's idle
time, the step less its kernels and optimizer (the host's exposed time and the syncs'), beside
the step model's host term (which counts Megatron-Core's calls, not this stack's), in seconds. A benchmark, not a test; runs here, no GPU needed.

Usage: bench/gpu_training_step_compare.py STEPS.csv [MOEPLAN_BINARY]   (default ./build/moeplan)
"""
import csv
import json
import math
import os
import subprocess
import sys

TERMS = ["gemm", "attention", "memory_bound", "optimizer"]


def predicted(binary, row, folder):
    model = row["model"]
    if not os.path.exists(model):  # read beside the table, as `moeplan fit` reads it
        model = os.path.join(folder, model)
    tokens = int(row["global_batch"]) * int(row["seq_len"])
    args = [binary, "score", model, "--gpus", row["gpus"], "--gpu", row["gpu"],
            "--tokens", "1e9", "--seq-len", row["seq_len"], "--global-batch-tokens", str(tokens),
            "--tp", row["tp"], "--pp", row["pp"], "--ep", row["ep"],
            "--micro-batch-size", row["micro_batch_size"], *row["flags"].split(),
            "--format", "json"]
    run = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)[0]["step_time"]


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    binary = sys.argv[2] if len(sys.argv) > 2 else "./build/moeplan"
    rows = list(csv.DictReader(open(sys.argv[1])))
    print(f"{'run':<44} {'step':>6} " + " ".join(f"{t:>12}" for t in TERMS) +
          f" {'idle s / host term s':>22}")
    ratios = {}
    for row in rows:
        p = predicted(binary, row, os.path.dirname(sys.argv[1]))
        cells = []
        step = float(row["step_seconds"]) / p["step"]
        ratios.setdefault("step", []).append(step)
        for term in TERMS:
            r = float(row[f"{term}_seconds"]) / p[term]
            ratios.setdefault(term, []).append(r)
            cells.append(f"{r:>12.2f}")
        idle = float(row["step_seconds"]) - sum(float(row[f"{t}_seconds"]) for t in TERMS)
        idle_cell = f"{idle:.4f} / {p['host']:.4f}"
        print(f"{row['id']:<44} {step:>6.2f} " + " ".join(cells) + f" {idle_cell:>22}")
    for name, values in ratios.items():
        geo = math.exp(sum(math.log(v) for v in values) / len(values))
        print(f"{name}: geometric mean {geo:.2f}, range {min(values):.2f}-{max(values):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
