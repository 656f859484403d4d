#!/usr/bin/env python3
"""Routed-expert GEMMs: moeplan's GPU path beside PyTorch on the same shapes, in one run.

For the 1e22 plan and the DeepSeek-V3.1, Qwen3-30B-A3B and gpt-oss-120b presets, runs
`moeplan bench --no-cpu --format json`, takes the routed-expert GEMMs (gate+up and down,
balanced routing) and times the same shapes with torch.bmm in bf16 (each expert its own
weights, like moeplan), printing TF/s, the share of the datasheet peak moeplan reports and
the ratio moeplan / torch. Needs a CUDA GPU and PyTorch; without them it says so and
exits 0 (a benchmark, not a test).

Usage: bench/expert_reference.py [MOEPLAN_BINARY]   (default ./build/moeplan)
"""
import json
import os
import subprocess
import sys
import tempfile

binary = sys.argv[1] if len(sys.argv) > 1 else "./build/moeplan"
try:
    import torch
except ImportError:
    print("expert_reference: PyTorch is not installed; nothing to compare")
    sys.exit(0)
if not torch.cuda.is_available():
    print("expert_reference: no CUDA device; nothing to compare")
    sys.exit(0)


def moeplan_json(args):
    out = subprocess.run([binary, *args, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def configs():
    # The 1e22 plan as a config file, then the presets.
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(subprocess.run([binary, "suggest", "--flops", "1e22", "--emit", "toml"], check=True,
                               capture_output=True, text=True).stdout)
        plan = f.name
    yield "suggest 1e22", plan
    os.unlink(plan)
    for preset in ("deepseek-v3.1", "qwen3-30b-a3b", "gpt-oss-120b"):
        yield preset, preset


def parse_shape(text):  # "288 x 228..229x3376x3664" or "288 x 228x3376x3664"
    experts, rest = text.split(" x ")
    m, n, k = rest.split("x")
    m = int(m.split("..")[-1])
    return int(experts), m, int(n), int(k)


def torch_tflops(experts, m, n, k, reps=20):
    a = torch.randn(experts, m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(experts, k, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        torch.bmm(a, b)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        torch.bmm(a, b)
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    times.sort()
    return 2.0 * experts * m * n * k / times[len(times) // 2] / 1e12


print(f"{'config':<16} {'op':<15} {'shape':<26} {'moeplan TF/s':>12} {'% peak':>7} "
      f"{'torch.bmm TF/s':>14} {'ratio':>6}")
for name, config in configs():
    d = moeplan_json(["bench", config, "--no-cpu"])[0]
    for op in ("expert_gate_up", "expert_up", "expert_down"):  # *_up: an ungated FFN
        ungated = "gpu_moe_expert_up" in d
        if (op == "expert_up") != ungated and op != "expert_down":
            continue
        sec = d.get(f"gpu_moe_{op}")
        if sec is None:
            print(f"{name:<16} {op:<15} (no GPU run: {d['gemm']['gpu_status']})")
            continue
        experts, m, n, k = parse_shape(sec["shape"])
        ref = torch_tflops(experts, m, n, k)
        mine = sec["rate"] / 1e12
        print(f"{name:<16} {op:<15} {sec['shape']:<26} {mine:12.0f} {100 * (sec['fraction_of_peak'] or 0):6.0f}% "
              f"{ref:14.0f} {mine / ref:6.2f}")
