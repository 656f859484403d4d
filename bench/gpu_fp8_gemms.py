#!/usr/bin/env python3
"""Expert and dense GEMM shapes of the fp8 validation rows, bf16 (torch.mm per group, cuBLAS)
against fp8 with per-tensor scales (torch._scaled_mm per group, cuBLASLt: the library
Transformer Engine's fp8 GEMMs call; fast accumulation for the forward GEMM only, as TE's
default recipe), each pass of training: forward (m,n,k), data gradient (m,k,n), weight
gradient (n,k,m). Each timed as one CUDA graph of 10 replays of all its groups, median of 7.
Writes gemm_model_bench's sweep columns to argv[1]. Then times Qwen3-30B-A3B's expert GEMMs
as one grouped call, bf16 against row-wise fp8 with and without the activations' casts.
Usage: bench/gpu_fp8_gemms.py OUT.csv   (on a CUDA GPU with PyTorch; about 20 s)
A benchmark, not a test: without a CUDA GPU it says so and exits 0.
The 2026-11-29 H200 run: docs/measurements/h200-2026-11-29b/README.md.
"""
import statistics, sys

if len(sys.argv) != 2:
    sys.exit("usage: bench/gpu_fp8_gemms.py OUT.csv")
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
f8 = torch.float8_e4m3fn
# name, groups, rows per group, n (out), k (in)
sets = [
    ("qwen3-30b-a3b fc1", 8, 4096, 1536, 2048), ("qwen3-30b-a3b fc2", 8, 4096, 2048, 768),
    ("qwen3-235b fc1", 4, 8192, 3072, 4096), ("qwen3-235b fc2", 4, 8192, 4096, 1536),
    ("deepseek-v3 fc1", 4, 8192, 4096, 7168), ("deepseek-v3 fc2", 4, 8192, 7168, 2048),
    ("llama3-8b fc1", 1, 8192, 28672, 4096), ("llama3-8b fc2", 1, 8192, 4096, 14336),
    ("llama3-8b qkv", 1, 8192, 6144, 4096),
]
def timed(fn, reps=10, rounds=7):
    fn(); torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph(); s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with torch.cuda.graph(g):
            for _ in range(reps): fn()
    out = []
    for _ in range(rounds):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize()
        out.append(a.elapsed_time(b) / reps / 1e3)
    return statistics.median(out)
def colmajor(t): return t.t().contiguous().t()
one = torch.ones((), device=dev)
csv = open(sys.argv[1], "w"); csv.write("kind,precision,groups,m,n,k,seconds,rate\n")
print(f"{'shape':<20} {'pass':<6} {'m':>6} {'n':>6} {'k':>6} {'bf16 TF/s':>10} {'fp8 TF/s':>9} {'fp8/bf16':>8}")
for name, E, rows, n, k in sets:
    for pas, (m, nn, kk), fast in (("fwd", (rows, n, k), True), ("dgrad", (rows, k, n), False), ("wgrad", (n, k, rows), False)):
        A = [torch.randn(m, kk, device=dev, dtype=torch.bfloat16) for _ in range(E)]
        B = [torch.randn(kk, nn, device=dev, dtype=torch.bfloat16) * 0.02 for _ in range(E)]
        tb = timed(lambda: [torch.mm(a, b) for a, b in zip(A, B)])
        Aq = [a.to(f8) for a in A]; Bq = [colmajor((b * 50).to(f8)) for b in B]
        del A, B
        tf = timed(lambda: [torch._scaled_mm(a, b, one, one, out_dtype=torch.bfloat16, use_fast_accum=fast) for a, b in zip(Aq, Bq)])
        fl = 2.0 * E * m * nn * kk
        print(f"{name:<20} {pas:<6} {m:>6} {nn:>6} {kk:>6} {fl/tb/1e12:>10.0f} {fl/tf/1e12:>9.0f} {tb/tf:>8.2f}", flush=True)
        csv.write(f"gemm,bf16,{E},{m},{nn},{kk},{tb:.6e},{fl/tb:.6e}\n")
        csv.write(f"gemm,fp8,{E},{m},{nn},{kk},{tf:.6e},{fl/tf:.6e}\n")
        del Aq, Bq; torch.cuda.empty_cache()

def grouped_qwen3_30b():
    """Qwen3-30B-A3B's routed-expert GEMMs on one EP-16 rank (8 experts x 4096 rows; d 2048,
    expert width 768), forward only (fc1 gate+up, fc2 down), as one grouped call: bf16
    torch._grouped_mm against fp8 torch._scaled_grouped_mm with row-wise scales (CUTLASS),
    the fp8 figure with and without the activations' amax-and-cast kernels (eager, compiled)."""
    print("\nQwen3-30B-A3B experts as one grouped call (forward):")
    E, rows, d, w = 8, 4096, 2048, 768
    offs = torch.arange(1, E + 1, device=dev, dtype=torch.int32) * rows
    x = torch.randn(E * rows, d, device=dev, dtype=torch.bfloat16)
    w1 = torch.randn(E, d, 2 * w, device=dev, dtype=torch.bfloat16) * 0.02
    h = torch.randn(E * rows, w, device=dev, dtype=torch.bfloat16)
    w2 = torch.randn(E, w, d, device=dev, dtype=torch.bfloat16) * 0.02
    flops = 2 * E * rows * d * 2 * w + 2 * E * rows * w * d

    def bf16():
        torch._grouped_mm(x, w1, offs=offs); torch._grouped_mm(h, w2, offs=offs)
    t = timed(bf16, 20, 5); print(f"bf16 grouped: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
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
        t = timed(gemm_only, 20, 5); print(f"fp8 grouped, GEMMs only: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
        def with_cast():
            a, sa = q_rows(x); torch._scaled_grouped_mm(a, w1q, sa, w1s, offs=offs, out_dtype=torch.bfloat16)
            b, sb = q_rows(h); torch._scaled_grouped_mm(b, w2q, sb, w2s, offs=offs, out_dtype=torch.bfloat16)
        t = timed(with_cast, 20, 5); print(f"fp8 grouped, with the activations' eager amax and cast: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
        cq = torch.compile(q_rows)
        def with_fused_cast():
            a, sa = cq(x); torch._scaled_grouped_mm(a, w1q, sa, w1s, offs=offs, out_dtype=torch.bfloat16)
            b, sb = cq(h); torch._scaled_grouped_mm(b, w2q, sb, w2s, offs=offs, out_dtype=torch.bfloat16)
        t = timed(with_fused_cast, 20, 5); print(f"fp8 grouped, with a compiled amax and cast: {t*1e6:.1f} us, {flops/t/1e12:.0f} TFLOP/s")
    except Exception as e:
        print("fp8 path failed:", type(e).__name__, str(e)[:300])


csv.close()
grouped_qwen3_30b()
