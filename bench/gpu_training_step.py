#!/usr/bin/env python3
"""A few real training steps of a model in plain PyTorch on one GPU, timed by step term.

A benchmark, not a test (bench/gpu_training_step.sh runs it on a GPU machine). It builds the
model a moeplan model TOML describes ([model] keys: hidden_size, num_hidden_layers,
num_attention_heads, num_key_value_heads, head_dim, vocab_size, tie_word_embeddings,
intermediate_size / first_k_dense_replace for dense layers, n_routed_experts,
num_experts_per_tok, moe_intermediate_size for MoE layers), in bf16 with an fp32 master copy
and fused AdamW (what Megatron's mixed-precision optimizer keeps), and times training steps of
`--micro-batches` micro-batches of `--micro-batch-size` x `--seq-len` tokens:
  - the step's wall time (CUDA events, after warm-up steps), forward, backward and optimizer;
  - one profiled step: its kernels' GPU time summed by moeplan's step terms (gemm,
    attention, memory_bound: every other kernel, copies and sets included) and counted;
  - the host's own time: the same micro-batches at 1 x 128 tokens (the optimizer left out),
    where the GPU has almost nothing to do and the wall time is the host's issue time (not
    measured with --compile, which would compile again for that shape).
The vocabulary is padded to a multiple of 128 as Megatron pads it; a [model] key this script
does not build (shared experts, MLA, windows, ...) is refused. The gpu column is moeplan's
catalog id, read from the device's name (--gpu-id otherwise).
Routed experts run one of two ways (--experts): `loop`, one matmul per expert from Python
after the token counts are copied to the host (a sync, as Megatron's dropless dispatcher
does); `grouped`, torch._grouped_mm over groups padded to 16 rows, no sync.
Attention is torch's scaled_dot_product_attention (causal); RoPE, RMSNorm and SwiGLU are
unfused eager ops, as a plain PyTorch model writes them. This is a stack of its own, not
Megatron-Core: what it measures is what `moeplan fit` calibrates the step model to.

Output: one CSV row on stdout in `moeplan fit`'s steps-table columns (docs/calibration.md),
the header with --header; details on stderr.

Usage: gpu_training_step.py MODEL.toml [--micro-batch-size 4] [--seq-len 4096]
       [--micro-batches 2] [--experts loop|grouped] [--compile] [--steps 5] [--trace FILE]
       [--kernels FILE] [--gpu-id ID] [--header]
"""
import argparse
import json
import math
import sys
import time
import tomllib

import torch
import torch.nn.functional as F

FIT_COLUMNS = ["id", "model", "gpus", "gpu", "seq_len", "global_batch", "precision", "tp", "pp",
               "ep", "micro_batch_size", "flags", "step_seconds", "gemm_seconds",
               "attention_seconds", "memory_bound_seconds", "optimizer_seconds",
               "forward_s", "backward_s", "host_issue_s", "kernels_per_step",
               "attention_kernels", "device", "torch"]


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--micro-batch-size", type=int, default=4)
    p.add_argument("--seq-len", type=int, default=4096)
    p.add_argument("--micro-batches", type=int, default=2)
    p.add_argument("--experts", choices=["loop", "grouped"], default="loop")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--trace", default="")
    p.add_argument("--kernels", default="", help="append each kernel's calls and seconds here")
    p.add_argument("--header", action="store_true")
    p.add_argument("--compile", action="store_true", help="torch.compile the blocks (fused)")
    p.add_argument("--gpu-id", default="", help="moeplan's catalog id for the gpu column "
                   "(default: from the device's name: H200, H100, H100 PCIe, H800)")
    p.add_argument("--device", default="cuda")
    return p.parse_args()


def catalog_id(device_name):
    """moeplan's GPU catalog id of a device PyTorch names, or "" when not known here."""
    for part, gpu in (("H200", "h200"), ("H100 PCIe", "h100-pcie"), ("H100", "h100"),
                      ("H800", "h800")):
        if part in device_name:
            return gpu
    return ""


# [model] keys this script builds; any other key with a non-zero value changes the compute
# (shared experts, MLA, windows, gates, biases) and is refused rather than silently left out
BUILT_KEYS = {"hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
              "head_dim", "vocab_size", "tie_word_embeddings", "n_routed_experts",
              "num_experts_per_tok", "moe_intermediate_size", "intermediate_size",
              "first_k_dense_replace", "qk_norm"}
VOCAB_MULTIPLE = 128  # Megatron's --make-vocab-size-divisible-by default: an aligned head GEMM


def read_model(path):
    with open(path, "rb") as f:
        m = tomllib.load(f)["model"]
    unbuilt = [k for k, v in m.items() if k not in BUILT_KEYS and v not in (0, False, "", "none")]
    if unbuilt:
        sys.exit(f"gpu_training_step: {path}: [model] {', '.join(unbuilt)}: not built by this "
                 "script, so its step would be another model's")
    d = m["hidden_size"]
    heads = m["num_attention_heads"]
    cfg = {
        "d": d, "layers": m["num_hidden_layers"], "heads": heads,
        "kv_heads": m.get("num_key_value_heads", heads), "head_dim": m.get("head_dim", d // heads),
        "vocab": m["vocab_size"], "tied": bool(m.get("tie_word_embeddings", False)),
        "vocab_padded": -(-m["vocab_size"] // VOCAB_MULTIPLE) * VOCAB_MULTIPLE,
        "experts": m.get("n_routed_experts", 0), "top_k": m.get("num_experts_per_tok", 0),
        "d_expert": m.get("moe_intermediate_size", 0), "d_ffn": m.get("intermediate_size", 0),
        "dense_layers": m.get("first_k_dense_replace", 0),
        "qk_norm": m.get("qk_norm", "none") not in (False, "none", ""),
    }
    if cfg["experts"] == 0:
        cfg["dense_layers"] = cfg["layers"]
    return cfg


def rms_norm(x, weight, eps=1e-5):
    if hasattr(F, "rms_norm"):
        return F.rms_norm(x, (x.shape[-1],), weight, eps)
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps).to(x.dtype) * weight


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def attention_core(q, k, v):
    """q: (b, h, s, hd); k, v: (b, kv, s, hd); causal."""
    if hasattr(F, "scaled_dot_product_attention"):
        if k.shape[1] != q.shape[1]:
            try:
                return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            except TypeError:
                pass
        rep = q.shape[1] // k.shape[1]
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    rep = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    s = q.shape[2]
    scores = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    mask = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1)
    return scores.masked_fill(mask, float("-inf")).softmax(-1) @ v


class Attention(torch.nn.Module):
    def __init__(self, c, dtype, device):
        super().__init__()
        self.c = c
        hd = c["head_dim"]
        self.norm = torch.nn.Parameter(torch.ones(c["d"], dtype=dtype, device=device))
        self.qkv = torch.nn.Linear(c["d"], (c["heads"] + 2 * c["kv_heads"]) * hd, bias=False,
                                   dtype=dtype, device=device)
        self.proj = torch.nn.Linear(c["heads"] * hd, c["d"], bias=False, dtype=dtype, device=device)
        if c["qk_norm"]:
            self.q_norm = torch.nn.Parameter(torch.ones(c["heads"] * hd, dtype=dtype, device=device))
            self.k_norm = torch.nn.Parameter(torch.ones(c["kv_heads"] * hd, dtype=dtype, device=device))

    def forward(self, x, cos, sin):
        c = self.c
        b, s, _ = x.shape
        hd = c["head_dim"]
        qkv = self.qkv(rms_norm(x, self.norm))
        q, k, v = qkv.split([c["heads"] * hd, c["kv_heads"] * hd, c["kv_heads"] * hd], dim=-1)
        if c["qk_norm"]:
            q, k = rms_norm(q, self.q_norm), rms_norm(k, self.k_norm)
        q = q.view(b, s, c["heads"], hd).transpose(1, 2)
        k = k.view(b, s, c["kv_heads"], hd).transpose(1, 2)
        v = v.view(b, s, c["kv_heads"], hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        o = attention_core(q, k, v).transpose(1, 2).reshape(b, s, c["heads"] * hd)
        return x + self.proj(o)


class DenseFFN(torch.nn.Module):
    def __init__(self, c, dtype, device):
        super().__init__()
        self.norm = torch.nn.Parameter(torch.ones(c["d"], dtype=dtype, device=device))
        self.fc1 = torch.nn.Linear(c["d"], 2 * c["d_ffn"], bias=False, dtype=dtype, device=device)
        self.fc2 = torch.nn.Linear(c["d_ffn"], c["d"], bias=False, dtype=dtype, device=device)

    def forward(self, x):
        gate, up = self.fc1(rms_norm(x, self.norm)).chunk(2, dim=-1)
        return x + self.fc2(F.silu(gate) * up)


def grouped_mm_works(device):
    if not hasattr(torch, "_grouped_mm") or device != "cuda":
        return False
    try:
        a = torch.randn(64, 32, device=device, dtype=torch.bfloat16, requires_grad=True)
        w = torch.randn(2, 48, 32, device=device, dtype=torch.bfloat16, requires_grad=True)
        offs = torch.tensor([32, 64], device=device, dtype=torch.int32)
        out = torch._grouped_mm(a, w.transpose(-2, -1), offs=offs)
        out.backward(torch.randn_like(out))  # a dense gradient, as a loss gives it
        return True
    except Exception as e:  # a torch without it, or without its backward
        print(f"# grouped_mm unavailable: {e}", file=sys.stderr)
        return False


class MoE(torch.nn.Module):
    ALIGN = 16  # rows per group torch._grouped_mm's bf16 path is given (padded)

    def __init__(self, c, dtype, device, mode):
        super().__init__()
        self.c, self.mode = c, mode
        e, d, de = c["experts"], c["d"], c["d_expert"]
        self.norm = torch.nn.Parameter(torch.ones(d, dtype=dtype, device=device))
        self.router = torch.nn.Linear(d, e, bias=False, dtype=dtype, device=device)
        # (experts, out, in): each expert a Linear's weight; one tensor for the grouped GEMM,
        # a parameter an expert for the loop (a slice of one tensor would have its backward
        # write a whole-tensor gradient an expert)
        w1 = torch.randn(e, 2 * de, d, dtype=dtype, device=device) * d ** -0.5
        w2 = torch.randn(e, d, de, dtype=dtype, device=device) * de ** -0.5
        if mode == "grouped":
            self.w1, self.w2 = torch.nn.Parameter(w1), torch.nn.Parameter(w2)
        else:
            self.w1 = torch.nn.ParameterList(torch.nn.Parameter(w.clone()) for w in w1)
            self.w2 = torch.nn.ParameterList(torch.nn.Parameter(w.clone()) for w in w2)

    def experts_loop(self, x_perm, counts):
        sizes = counts.tolist()  # the host sync a dropless dispatcher makes
        outs = []
        for e, rows in enumerate(x_perm.split(sizes)):
            gate, up = F.linear(rows, self.w1[e]).chunk(2, dim=-1)
            outs.append(F.linear(F.silu(gate) * up, self.w2[e]))
        return torch.cat(outs)

    def experts_grouped(self, x_perm, sorted_ids, counts):
        e, a = self.c["experts"], self.ALIGN
        padded = (counts + a - 1) // a * a
        shift = (torch.cumsum(padded, 0) - padded) - (torch.cumsum(counts, 0) - counts)
        dest = torch.arange(x_perm.shape[0], device=x_perm.device) + shift[sorted_ids]
        rows = x_perm.shape[0] + a * e  # a bound, so no sync
        x_pad = x_perm.new_zeros(rows, x_perm.shape[1]).index_copy(0, dest, x_perm)
        offs = torch.cumsum(padded, 0).to(torch.int32)
        h = torch._grouped_mm(x_pad, self.w1.transpose(-2, -1), offs=offs)
        gate, up = h.chunk(2, dim=-1)
        y = torch._grouped_mm(F.silu(gate) * up, self.w2.transpose(-2, -1), offs=offs)
        return y[dest]

    def forward(self, x):
        c = self.c
        b, s, d = x.shape
        h = rms_norm(x, self.norm).reshape(b * s, d)
        probs = self.router(h).float().softmax(-1)
        weights, ids = probs.topk(c["top_k"], dim=-1)
        weights = (weights / weights.sum(-1, keepdim=True)).to(x.dtype)
        flat = ids.reshape(-1)
        order = torch.argsort(flat, stable=True)
        token = order // c["top_k"]
        sorted_ids = flat[order]
        # counts by a scatter of fixed size (bincount's output size depends on the data)
        counts = torch.zeros(c["experts"], dtype=torch.long, device=x.device).scatter_add_(
            0, flat, torch.ones_like(flat))
        x_perm = h[token]
        if self.mode == "grouped":
            y = self.experts_grouped(x_perm, sorted_ids, counts)
        else:
            y = self.experts_loop(x_perm, counts)
        y = y * weights.reshape(-1)[order].unsqueeze(-1)
        out = torch.zeros_like(h).index_add(0, token, y)
        return x + out.reshape(b, s, d)


class Model(torch.nn.Module):
    def __init__(self, c, dtype, device, mode):
        super().__init__()
        self.c = c
        # rows padded as Megatron pads them: an odd vocabulary (Granite's 49,155) otherwise
        # sends the head GEMM to a slow unaligned cuBLAS kernel (measured 2026-11-29)
        self.embed = torch.nn.Embedding(c["vocab_padded"], c["d"], dtype=dtype, device=device)
        self.attn = torch.nn.ModuleList(Attention(c, dtype, device) for _ in range(c["layers"]))
        self.ffn = torch.nn.ModuleList(
            DenseFFN(c, dtype, device) if i < c["dense_layers"] else MoE(c, dtype, device, mode)
            for i in range(c["layers"]))
        self.final_norm = torch.nn.Parameter(torch.ones(c["d"], dtype=dtype, device=device))
        if not c["tied"]:
            self.head = torch.nn.Linear(c["d"], c["vocab_padded"], bias=False, dtype=dtype,
                                        device=device)

    def forward(self, tokens, cos, sin):
        x = self.embed(tokens)
        for attn, ffn in zip(self.attn, self.ffn):
            x = ffn(attn(x, cos, sin))
        w = self.embed.weight if self.c["tied"] else self.head.weight
        return self.head_loss(x, self.final_norm, w, tokens)

    @staticmethod
    def head_loss(x, final_norm, w, tokens):
        logits = F.linear(rms_norm(x, final_norm), w)
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]).float(),
                               tokens[:, 1:].reshape(-1))

    def compile_blocks(self):
        """torch.compile each layer's blocks and the head: Inductor fuses the norms, RoPE,
        SwiGLU, residuals and the loss's elementwise work, as a fused stack does."""
        for i in range(len(self.attn)):
            self.attn[i] = torch.compile(self.attn[i])
            self.ffn[i] = torch.compile(self.ffn[i])
        self.head_loss = torch.compile(Model.head_loss)


def rope_tables(c, s, dtype, device):
    hd = c["head_dim"]
    inv = 1.0 / (10000 ** (torch.arange(0, hd, 2, device=device).float() / hd))
    ang = torch.outer(torch.arange(s, device=device).float(), inv)
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


class Trainer:
    """bf16 model, fp32 master weights and fused AdamW on them (Megatron's mixed precision)."""

    def __init__(self, model, device):
        self.model = model
        self.params = [p for p in model.parameters()]
        self.master = [p.detach().float().clone().requires_grad_(True) for p in self.params]
        # fused on the GPU; CPU runs (a check of the script) take the default implementation
        self.opt = torch.optim.AdamW(self.master, lr=1e-4, **({"fused": True} if device == "cuda" else {}))

    def micro_batch(self, tokens, cos, sin, timers=None):
        loss = self.model(tokens, cos, sin)
        if timers:
            timers.mark("forward")
        loss.backward()
        if timers:
            timers.mark("backward")
        return loss

    def optimizer_step(self):
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in self.params]
        for m in self.master:
            if m.grad is None:
                m.grad = torch.zeros_like(m)
        masters = [m.grad for m in self.master]
        if hasattr(torch, "_foreach_copy_"):  # multi-tensor copies, as Megatron's optimizer does
            torch._foreach_copy_(masters, grads)
        else:
            for m, g in zip(masters, grads):
                m.copy_(g)
        self.opt.step()
        with torch.no_grad():
            if hasattr(torch, "_foreach_copy_"):
                torch._foreach_copy_(self.params, self.master)
            else:
                for p, m in zip(self.params, self.master):
                    p.copy_(m)
        for p in self.params:
            p.grad = None


class Timers:
    """CUDA events at phase boundaries; seconds per phase summed over a step."""

    def __init__(self, device):
        self.cuda = device == "cuda"
        self.marks = []

    def start(self):
        self.marks = [("start", self._event())]

    def mark(self, name):
        self.marks.append((name, self._event()))

    def _event(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            return e
        return time.perf_counter()

    def phases(self):
        if self.cuda:
            torch.cuda.synchronize()
        out = {}
        for (_, a), (name, b) in zip(self.marks, self.marks[1:]):
            dt = a.elapsed_time(b) / 1000 if self.cuda else b - a
            out[name] = out.get(name, 0.0) + dt
        return out


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def run_step(trainer, batches, cos, sin, timers):
    timers.start()
    for tokens in batches:
        trainer.micro_batch(tokens, cos, sin, timers)
    trainer.optimizer_step()
    timers.mark("optimizer")
    return timers.phases()


def classify(name):
    n = name.lower()
    if n.startswith("triton_"):  # Inductor's kernels: fused elementwise work, or a GEMM template
        return "gemm" if n.startswith("triton_tem") else "memory_bound"
    # cuDNN's attention backward runs helper kernels of its own (compute_dot_do_o,
    # convert_dq_to_16bits): the attention core's measured time includes them
    if any(t in n for t in ("flash", "fmha", "sdpa", "cudnn")):
        return "attention"
    if "prepare" not in n and any(t in n for t in ("gemm", "nvjet", "xmma", "cutlass", "cublas")):
        return "gemm"
    return "memory_bound"


def profile_step(trainer, batches, cos, sin, device, trace):
    """Kernel GPU time of one step's forward and backward by term, the kernel count, the
    attention kernels' names and each kernel name's calls and seconds."""
    if device != "cuda":
        return {}, 0, "", {}
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for tokens in batches:
            trainer.micro_batch(tokens, cos, sin)
        sync(device)
    path = trace or "/tmp/gpu_training_step_trace.json"
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    terms, kernels, attention_names, by_name = {}, 0, set(), {}
    for ev in events:
        if ev.get("ph") != "X" or ev.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        term = classify(ev["name"]) if ev["cat"] == "kernel" else "memory_bound"
        terms[term] = terms.get(term, 0.0) + ev["dur"] * 1e-6
        kernels += ev["cat"] == "kernel"
        short = ev["name"].replace("(anonymous namespace)::", "").replace("<unnamed>::", "")
        short = short.split("<")[0].split("(")[0]
        short = short[:80].replace(",", ";")
        if term == "attention":
            attention_names.add(short)
        calls, seconds = by_name.get((term, short), (0, 0.0))
        by_name[(term, short)] = (calls + 1, seconds + ev["dur"] * 1e-6)
    trainer.optimizer_step()  # the profiled step's gradients, spent
    return terms, kernels, " | ".join(sorted(attention_names)), by_name


def host_step_seconds(trainer, c, device, dtype, micro_batches, steps):
    """Wall time of a step's micro-batches at 1 x 128 tokens (the optimizer left out, its
    kernels are as long at any batch): the host's time to issue them."""
    cos, sin = rope_tables(c, 128, dtype, device)
    batches = [torch.randint(0, c["vocab"], (1, 128), device=device) for _ in range(micro_batches)]
    total = 0.0
    for i in range(steps + 2):  # two warm-up steps
        sync(device)
        t0 = time.perf_counter()
        for tokens in batches:
            trainer.micro_batch(tokens, cos, sin)
        sync(device)
        if i >= 2:
            total += time.perf_counter() - t0
        for p in trainer.params:
            p.grad = None
    return total / steps


def main():
    a = parse_args()
    device = a.device
    dtype = torch.bfloat16
    c = read_model(a.model)
    mode = a.experts
    if c["experts"] and mode == "grouped" and not grouped_mm_works(device):
        print("# grouped experts unavailable here: not measured", file=sys.stderr)
        return 0
    torch.manual_seed(0)
    model = Model(c, dtype, device, mode)
    if a.compile:
        if not hasattr(torch, "compile"):
            print("# torch.compile unavailable here: not measured", file=sys.stderr)
            return 0
        model.compile_blocks()
    trainer = Trainer(model, device)
    n_params = sum(p.numel() for p in model.parameters())
    cos, sin = rope_tables(c, a.seq_len, dtype, device)
    batches = [torch.randint(0, c["vocab"], (a.micro_batch_size, a.seq_len), device=device)
               for _ in range(a.micro_batches)]
    timers = Timers(device)
    for _ in range(2):  # warm-up: allocator, cuBLAS heuristics, attention backend
        run_step(trainer, batches, cos, sin, timers)
    steps = [run_step(trainer, batches, cos, sin, timers) for _ in range(a.steps)]
    median = {k: sorted(s[k] for s in steps)[len(steps) // 2] for k in steps[0]}
    step = sorted(sum(s.values()) for s in steps)[len(steps) // 2]
    terms, kernels, attention_names, by_name = profile_step(trainer, batches, cos, sin, device,
                                                            a.trace)
    # compiled blocks would compile again for the host measurement's shape: not measured
    host = 0.0 if a.compile else host_step_seconds(trainer, c, device, dtype, a.micro_batches, 5)
    gpu_id = a.gpu_id or catalog_id(torch.cuda.get_device_name(0) if device == "cuda" else "")
    if not gpu_id:
        sys.exit("gpu_training_step: no catalog id for this device: give --gpu-id")
    if device == "cuda":
        peak_gib = torch.cuda.max_memory_allocated() / 2 ** 30
        name = torch.cuda.get_device_name(0)
    else:
        peak_gib, name = 0.0, "cpu"
    label = a.model.rsplit("/", 1)[-1].removesuffix(".toml")
    print(f"# {label} experts={mode if c['experts'] else '-'}: {n_params / 1e9:.3f}B params, "
          f"step {step:.4f} s (forward {median.get('forward', 0):.4f}, backward "
          f"{median.get('backward', 0):.4f}, optimizer {median.get('optimizer', 0):.4f}); "
          f"kernels {kernels}, terms {terms}; host-only step {host:.4f} s; peak {peak_gib:.1f} GiB",
          file=sys.stderr)
    gb = a.micro_batch_size * a.micro_batches
    row = {
        "id": f"{label}-{mode if c['experts'] else 'dense'}{'-compiled' if a.compile else ''}"
              f"-mb{a.micro_batch_size}x{a.micro_batches}",
        "model": a.model, "gpus": 1, "gpu": gpu_id, "seq_len": a.seq_len, "global_batch": gb,
        "precision": "bf16", "tp": 1, "pp": 1, "ep": 1, "micro_batch_size": a.micro_batch_size,
        "flags": "--recompute none", "step_seconds": f"{step:.6f}",
        # empty where not profiled (no GPU): fit reads an empty cell as not measured
        "gemm_seconds": f"{terms['gemm']:.6f}" if "gemm" in terms else "",
        "attention_seconds": f"{terms['attention']:.6f}" if "attention" in terms else "",
        "memory_bound_seconds": f"{terms['memory_bound']:.6f}" if "memory_bound" in terms else "",
        "optimizer_seconds": f"{median.get('optimizer', 0):.6f}",
        "forward_s": f"{median.get('forward', 0):.6f}",
        "backward_s": f"{median.get('backward', 0):.6f}",
        "host_issue_s": "" if a.compile else f"{host:.6f}", "kernels_per_step": kernels,
        "attention_kernels": attention_names.replace(",", ";"), "device": name,
        "torch": torch.__version__,
    }
    if a.header:  # here, so a run that fails before its row leaves no header behind
        print(",".join(FIT_COLUMNS))
    print(",".join(str(row[k]) for k in FIT_COLUMNS))
    if a.kernels:  # each kernel name's calls and GPU seconds in the profiled step
        with open(a.kernels, "a") as f:
            if f.tell() == 0:
                f.write("id,term,calls,seconds,kernel\n")
            for (term, name), (calls, seconds) in sorted(by_name.items(), key=lambda x: -x[1][1]):
                f.write(f"{row['id']},{term},{calls},{seconds:.6f},{name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
