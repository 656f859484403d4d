#!/usr/bin/env python3
"""GEMM rate by shape, and the memory-bound kernels of an MoE layer, measured with PyTorch.

A benchmark, not a test: it prints CSV rows that docs/step-model.md compares with moeplan's
shape model (the model's constants come from datasheets, not from these rows). Needs a CUDA
GPU and PyTorch; without them it says so and exits 0.

Rows (CSV on stdout, one header):
  kind,precision,groups,m,n,k,seconds,rate
  kind = gemm (one GEMM, rate in FLOP/s), grouped (torch.bmm, groups experts of m rows each),
  copy / gather / scatter_add / topk (memory-bound kernels, rate in bytes/s moved).

With --table, only the GEMM rows, in moeplan's --gemm-table schema
(gpu,precision,groups,m,n,k,flops_per_s), for `moeplan score/suggest --gemm-table FILE`.

Usage: bench/gpu_shape_sweep.py [--quick] [--table]
"""
import sys

try:
    import torch
except ImportError:
    print("gpu_shape_sweep: PyTorch is not installed; nothing to measure")
    sys.exit(0)
if not torch.cuda.is_available():
    print("gpu_shape_sweep: no CUDA device; nothing to measure")
    sys.exit(0)

quick = "--quick" in sys.argv
table = "--table" in sys.argv
dev = torch.device("cuda")
print(f"# device: {torch.cuda.get_device_name(0)}, SMs {torch.cuda.get_device_properties(0).multi_processor_count}, "
      f"torch {torch.__version__}, cuda {torch.version.cuda}", file=sys.stderr)


def _event_seconds(fn, reps):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    times.sort()
    return times[len(times) // 2]


def timed(fn, reps=10, inner=20):
    """Median seconds of one call of fn, without the host's per-call launch cost.

    A single call between two events also times the ~15-20 us the host takes to launch it
    (the 2026-11-26 H200 sweep timed that way: every shape below ~10 GFLOP read 21-25 us).
    So `inner` calls are captured in a CUDA graph and replayed between the events; where
    capture fails (an op that cannot be captured), they are launched back to back instead,
    which hides the launch cost whenever a call outlasts it."""
    out = None
    for _ in range(2):
        out = fn()
    torch.cuda.synchronize()
    # Calls past a millisecond hide their launch; below, each replayed call keeps its output
    # in the graph's pool: at most ~4 GB of them.
    single = _event_seconds(fn, reps)
    out_bytes = out.numel() * out.element_size() if isinstance(out, torch.Tensor) else 0
    if single > 1e-3:
        return single
    inner = max(1, min(inner, int(4e9 // max(out_bytes, 1))))
    run = None
    try:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            fn()  # warm-up on the side stream, as torch.cuda.graphs asks
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(inner):
                fn()
        run = graph.replay
    except Exception:  # noqa: BLE001 - not capturable: back-to-back launches
        torch.cuda.synchronize()

        def run():
            for _ in range(inner):
                fn()

    run()
    torch.cuda.synchronize()
    return _event_seconds(run, reps) / inner


def row(kind, precision, groups, m, n, k, seconds, work):
    if table:
        if kind in ("gemm", "grouped"):
            print(f"{torch.cuda.get_device_name(0)},{precision},{groups},{m},{n},{k},{work / seconds:.6e}", flush=True)
        return
    print(f"{kind},{precision},{groups},{m},{n},{k},{seconds:.6e},{work / seconds:.6e}", flush=True)


fp8 = hasattr(torch, "float8_e4m3fn") and hasattr(torch, "_scaled_mm")


def gemm(m, n, k):
    a = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(k, n, device=dev, dtype=torch.bfloat16)
    row("gemm", "bf16", 1, m, n, k, timed(lambda: a @ b), 2.0 * m * n * k)
    if fp8:
        try:
            a8 = a.to(torch.float8_e4m3fn)
            b8 = b.t().contiguous().to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm wants
            one = torch.tensor(1.0, device=dev)
            s = timed(lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
            row("gemm", "fp8", 1, m, n, k, s, 2.0 * m * n * k)
        except Exception as e:  # noqa: BLE001 - report and go on
            print(f"# fp8 {m}x{n}x{k}: {e}", file=sys.stderr)


def grouped(g, m, n, k):
    a = torch.randn(g, m, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(g, k, n, device=dev, dtype=torch.bfloat16)
    row("grouped", "bf16", g, m, n, k, timed(lambda: torch.bmm(a, b)), 2.0 * g * m * n * k)


ms = [256, 1024, 4096, 16384] if not quick else [1024, 8192]
ns = [768, 1536, 4096, 7168, 18432] if not quick else [1536, 7168]
ks = [768, 2048, 4096, 7168] if not quick else [2048, 7168]
print("gpu,precision,groups,m,n,k,flops_per_s" if table else "kind,precision,groups,m,n,k,seconds,rate")
for m in ms:
    for n in ns:
        for k in ks:
            gemm(m, n, k)
# Routed experts: (width 2*f for gate+up, d) and (d, f) at the rows an expert receives.
for g, f, d in ((128, 768, 2048), (64, 1408, 2048), (32, 2048, 7168), (8, 14336, 4096)):
    for m in (32, 128, 512, 2048, 8192):
        if g * m * max(f, d) * 2 * 3 > 30e9:
            continue
        grouped(g, m, 2 * f, d)
        grouped(g, m, d, f)

# Memory-bound kernels of an MoE layer, bytes moved per second.
n_bytes = 1 << 30
x = torch.empty(n_bytes // 2, device=dev, dtype=torch.bfloat16)
y = torch.empty_like(x)
s = timed(lambda: y.copy_(x))
row("copy", "bf16", 1, n_bytes // 2, 1, 1, s, 2 * n_bytes)
del x, y
for tokens, d, topk, experts in ((16384, 2048, 8, 128), (16384, 7168, 8, 256), (32768, 4096, 2, 8)):
    h = torch.randn(tokens, d, device=dev, dtype=torch.bfloat16)
    idx = torch.randint(0, tokens, (tokens * topk,), device=dev)
    s = timed(lambda: h.index_select(0, idx))
    row("gather", "bf16", topk, tokens, d, 1, s, 2 * tokens * topk * d * 2)
    out = torch.zeros_like(h)
    src = torch.randn(tokens * topk, d, device=dev, dtype=torch.bfloat16)
    s = timed(lambda: out.index_add_(0, idx, src))
    row("scatter_add", "bf16", topk, tokens, d, 1, s, tokens * topk * d * 2 * 2 + tokens * d * 2)
    logits = torch.randn(tokens, experts, device=dev, dtype=torch.float32)
    s = timed(lambda: torch.topk(torch.softmax(logits, dim=-1), topk, dim=-1))
    row("topk", "fp32", experts, tokens, topk, 1, s, tokens * experts * 4 * 2)
