#!/usr/bin/env python3
"""Qwen3-30B-A3B's routed-expert GEMMs on one EP-16 rank (8 experts x 4096 rows; d 2048,
expert width 768), bf16 torch._grouped_mm against fp8 torch._scaled_grouped_mm with rowwise
scales, the fp8 figure counted with and without the activation's amax-and-cast kernels.
Forward only (fc1 gate+up, fc2 down). Timed in CUDA graphs of 20, median of 5.
Usage: bench/gpu_fp8_grouped.py   (on a CUDA GPU with PyTorch; about 10 s)
A benchmark, not a test: without a CUDA GPU it says so and exits 0.
The 2026-11-29 H200 run: docs/measurements/h200-2026-11-29b/README.md.
"""
import statistics, sys

try:
    import torch
except ImportError:
    print("PyTorch is not installed; nothing to measure")
    sys.exit(0)
if not torch.cuda.is_available():
    print("no CUDA device; nothing to measure")
    sys.exit(0)
torch.manual_seed(0)
dev = "cuda"
E, rows, d, w = 8, 4096, 2048, 768
offs = torch.arange(1, E + 1, device=dev, dtype=torch.int32) * rows
x = torch.randn(E * rows, d, device=dev, dtype=torch.bfloat16)
w1 = torch.randn(E, d, 2 * w, device=dev, dtype=torch.bfloat16) * 0.02
h = torch.randn(E * rows, w, device=dev, dtype=torch.bfloat16)
w2 = torch.randn(E, w, d, device=dev, dtype=torch.bfloat16) * 0.02
flops = 2 * E * rows * d * 2 * w + 2 * E * rows * w * d

def timed(fn):
    fn(); torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with torch.cuda.graph(g):
            for _ in range(20): fn()
    out = []
    for _ in range(5):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize()
        out.append(a.elapsed_time(b) / 20 / 1e3)
    return statistics.median(out)

def bf16():
    torch._grouped_mm(x, w1, offs=offs); torch._grouped_mm(h, w2, offs=offs)
t = timed(bf16); print(f"bf16 grouped: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
f8 = torch.float8_e4m3fn
def q_rows(a):
    s = a.abs().amax(dim=1, keepdim=True).float().clamp(min=1e-12) / 448.0
    return (a.float() / s).to(f8), s.squeeze(1)
def q_w(wt):  # per expert, per output column, stored column-major as the kernel wants
    s = wt.abs().amax(dim=1, keepdim=True).float().clamp(min=1e-12) / 448.0
    q = (wt.float() / s).to(f8)
    return q.transpose(-2, -1).contiguous().transpose(-2, -1), s.squeeze(1)
try:
    w1q, w1s = q_w(w1); w2q, w2s = q_w(w2)
    xq, xs = q_rows(x); hq, hs = q_rows(h)
    def gemm_only():
        torch._scaled_grouped_mm(xq, w1q, xs, w1s, offs=offs, out_dtype=torch.bfloat16)
        torch._scaled_grouped_mm(hq, w2q, hs, w2s, offs=offs, out_dtype=torch.bfloat16)
    t = timed(gemm_only); print(f"fp8 grouped, GEMMs only: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
    def with_cast():
        a, sa = q_rows(x); torch._scaled_grouped_mm(a, w1q, sa, w1s, offs=offs, out_dtype=torch.bfloat16)
        b, sb = q_rows(h); torch._scaled_grouped_mm(b, w2q, sb, w2s, offs=offs, out_dtype=torch.bfloat16)
    t = timed(with_cast); print(f"fp8 grouped, with the activations' eager amax and cast: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
    cq = torch.compile(q_rows)
    def with_fused_cast():
        a, sa = cq(x); torch._scaled_grouped_mm(a, w1q, sa, w1s, offs=offs, out_dtype=torch.bfloat16)
        b, sb = cq(h); torch._scaled_grouped_mm(b, w2q, sb, w2s, offs=offs, out_dtype=torch.bfloat16)
    t = timed(with_fused_cast); print(f"fp8 grouped, with a compiled amax and cast: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
except Exception as e:
    print("fp8 path failed:", type(e).__name__, str(e)[:300])
