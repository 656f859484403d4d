#!/bin/sh
# The GPU session's measurements of the step model's guesses, in one run (docs/measurements/
# h200-2026-11-29/README.md says what came back): host time per kernel launch from C++ and per
# eager PyTorch call, and a few real training steps of small MoE and dense models in plain
# PyTorch (bench/gpu_training_step.py), as rows `moeplan fit` reads.
# A benchmark, not a test. Needs nvcc, a CUDA GPU and PyTorch; writes under OUT (default ./out).
# Usage: bench/gpu_training_step.sh     (run from the repository root)
set -u
out=${OUT:-./out}
mkdir -p "$out"
log="$out/log.txt"
rm -f "$log" "$out/steps.csv" "$out/kernels.csv"  # a run of its own, not appended to an older one
failed=0
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > "$out/smi.csv" 2>&1
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)" >> "$log" 2>&1

nvcc -O2 -arch=native -o /tmp/host_launch bench/host_launch.cu >> "$log" 2>&1 &&
    /tmp/host_launch > "$out/host_launch.csv" 2>> "$log"

# One eager PyTorch call's host time: calls issued back to back, the GPU's kernels shorter than
# the host's issue, so wall time / calls is the host's per-call time.
PYTHONUNBUFFERED=1 timeout 60 python3 - > "$out/python_op.csv" 2>> "$log" <<'PY'
import time, torch
import torch.nn.functional as F
x = torch.randn(256, device="cuda")
a = torch.randn(256, 768, device="cuda", dtype=torch.bfloat16)
w = torch.randn(2048, 768, device="cuda", dtype=torch.bfloat16)
ag = a.clone().requires_grad_(True)
wg = w.clone().requires_grad_(True)
cases = {
    "add_out": lambda: torch.add(x, 1, out=x),
    "linear_bf16_256x768x2048": lambda: F.linear(a, w),
    "linear_autograd_forward": lambda: F.linear(ag, wg),
    "rms_norm_bf16_256x768": lambda: F.rms_norm(a, (768,)),
}
print("what,host_us_per_call,gpu_us_per_call")
for name, fn in cases.items():
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    n = 20000
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    stop.record()
    torch.cuda.synchronize()
    print(f"{name},{(t1 - t0) / n * 1e6:.3f},{start.elapsed_time(stop) * 1e3 / n:.3f}")
PY

steps="$out/steps.csv"
header=--header
run() {  # model experts micro_batch micro_batches [--compile]
    echo "== $1 $2 mb $3 x $4 ${5:-}" >> "$log"
    PYTHONUNBUFFERED=1 timeout 150 python3 bench/gpu_training_step.py "$1" --experts "$2" \
        --micro-batch-size "$3" --micro-batches "$4" --seq-len 4096 --steps 5 \
        --kernels "$out/kernels.csv" $header ${5:-} >> "$steps" 2>> "$log" && header="" ||
        failed=$((failed + 1))
    return 0
}
t=bench/validation/trainings
run $t/granite-3.0-1b-a400m.toml grouped 4 2
run $t/granite-3.0-1b-a400m.toml grouped 4 2 --compile
run $t/tinyllama-1.1b.toml loop 4 2
run $t/tinyllama-1.1b.toml loop 4 2 --compile
run $t/granite-3.0-1b-a400m.toml loop 4 2
run $t/granite-3.0-2b.toml loop 2 2
run $t/granite-3.0-2b.toml loop 2 2 --compile
run $t/granite-3.0-3b-a800m.toml grouped 2 2
run $t/granite-3.0-3b-a800m.toml loop 2 2
sed -i -e '/UserWarning/d' -e '/_warn_once/d' "$log"
# The model column holds paths from the repository root (run compare and fit from there); a
# table kept under docs/measurements/FOLDER/ reads them beside itself once rewritten:
#   sed -i 's|,bench/validation/|,../../../bench/validation/|' docs/measurements/FOLDER/steps.csv
echo "done: $failed run(s) failed" >> "$log"
[ "$failed" -eq 0 ]
