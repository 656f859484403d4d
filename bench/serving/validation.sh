#!/usr/bin/env bash
# The serving validation rows of docs/serving-validation.md: each public engine start-up log
# run as logged. Prints, per row, moeplan's weights and KV cache per GPU (GiB) and its KV
# tokens beside the logged figures (where vLLM would not start, the estimated maximum model
# length its refusal quotes). Usage: bench/serving/validation.sh [MOEPLAN_BINARY]
# A binary that lacks the engine flags (before issue 50) is run with the flags it has.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-./build/moeplan}
hf=tests/data/hf
cat3090=(--gpu-catalog bench/serving/rtx3090.toml)
catl4=(--gpu-catalog bench/serving/l4.toml)
new=1
case "$("$bin" score --help)" in *--serve-engine*) ;; *) new=0 ;; esac
# id | logged weights GiB | logged KV GiB | logged KV tokens | model | common flags | engine flags
rows=(
  "R1|14.96|53.29|-|$hf/llama-3.1-8b.json|--serve-gpus 1 --serve-gpu h100 --serve-context 8192|--serve-max-batched-tokens 8192 --serve-max-seqs 256"
  "R2|7.48|58.97|-|$hf/llama-3.1-8b.json|--serve-gpus 2 --serve-gpu h100 --serve-context 8192|--serve-max-batched-tokens 8192 --serve-max-seqs 256"
  "R3|14.99|3.81|31232|$hf/llama-3.1-8b.json|${cat3090[*]} --serve-gpus 1 --serve-gpu rtx3090 --serve-context 20000|--serve-max-batched-tokens 20000 --serve-max-seqs 256"
  "R4|14.99|2.89|23648|$hf/llama-3.1-8b.json|${cat3090[*]} --serve-gpus 1 --serve-gpu rtx3090 --serve-context 29000|--serve-max-batched-tokens 29000 --serve-max-seqs 256"
  "R5|-|8.11|178880|qwen3-235b-a22b|--serve-gpus 4 --serve-gpu h100 --serve-weights fp8 --serve-context 40960|"
  "R6|-|16.46|367404|qwen3-235b-a22b|--serve-gpus 4 --serve-gpu h100 --serve-weights fp8 --serve-context 40960|--serve-engine sglang --serve-memory-utilization 0.93"
  "R7|65.97|-2.14|-|gpt-oss-120b|--serve-gpus 1 --serve-gpu h100 --serve-weights fp4 --serve-context 131072|"
  "R8|-|1.71|-|gpt-oss-120b|--serve-gpus 1 --serve-gpu h100 --serve-weights fp4 --serve-context 131072|--serve-memory-utilization 0.95 --serve-max-batched-tokens 1024"
  # R9, R10: 8 x H20 of 141 GB (the log pair pins 139.8 GiB): the H200's memory stands in for it.
  "R9|-|48.66|205728|$hf/qwen3-coder-480b-a35b-fp8.json|--serve-gpus 8 --serve-gpu h200 --serve-context 262144|--serve-dp-attention --serve-expert-parallel"
  "R10|-|55.65|235296|$hf/qwen3-coder-480b-a35b-fp8.json|--serve-gpus 8 --serve-gpu h200 --serve-context 262144|--serve-dp-attention --serve-expert-parallel --serve-memory-utilization 0.95"
  "R11|54.92|-|-|qwen3-235b-a22b|--serve-gpus 8 --serve-gpu a100-80gb --serve-context 40960|"
  # R12, R13: the logs name no GPU; only their weights are checked (the GPU does not change them).
  "R12|14.25|-|-|qwen3-30b-a3b|--serve-gpus 4 --serve-gpu h100 --serve-context 8192|"
  "R13|29.30|-|-|$hf/deepseek-v2-lite.json|--serve-gpus 1 --serve-gpu h100 --serve-context 32000|"
  "R14|15.54|2.84|46611|$hf/qwq-32b.json|${catl4[*]} --serve-gpus 4 --serve-gpu l4 --serve-context 131072|--serve-engine sglang --serve-memory-utilization 0.85"
  # R15-R19: vLLM 0.10.1.1 logs of dennislee22/vLLM-benchmarking; Qwen2-7B-Instruct has Qwen2.5-7B's shapes.
  "R15|14.25|5.01|93872|$hf/qwen2.5-7b.json|--serve-gpus 1 --serve-gpu a100-80gb --serve-context 16384|--serve-memory-utilization 0.25"
  "R16|14.25|24.83|464848|$hf/qwen2.5-7b.json|--serve-gpus 1 --serve-gpu a100-80gb --serve-context 16384|--serve-memory-utilization 0.5"
  "R17|7.12|31.83|1192160|$hf/qwen2.5-7b.json|--serve-gpus 2 --serve-gpu a100-80gb --serve-context 16384|--serve-memory-utilization 0.5"
  "R18|17.22|45.32|2640144|$hf/gpt-oss-120b.json|--serve-gpus 4 --serve-gpu a100-80gb --serve-context 16384|--serve-memory-utilization 0.8"
  "R19|7.12|11.03|412944|$hf/qwen2.5-7b.json|--serve-gpus 2 --serve-gpu a100-40gb --serve-context 16384|--serve-memory-utilization 0.5"
  # R20: SGLang's own docs (2025-01-23), an 80 GB GPU the log does not name, run as an H100.
  "R20|15.09|54.26|444500|$hf/llama-3.1-8b.json|--serve-gpus 1 --serve-gpu h100 --serve-context 131072|--serve-engine sglang --serve-memory-utilization 0.88"
)
printf '%-4s %9s %9s %9s %9s %10s %10s\n' row w_log w_pred kv_log kv_pred tok_log tok_pred
for r in "${rows[@]}"; do
  IFS='|' read -r id wlog kvlog toklog model common engine <<<"$r"
  flags=($common)
  [ "$new" = 1 ] && flags+=($engine)
  # A row the engine could not start (R7, R9, R10), or one whose context the pool cannot hold (R8, R14), does not fit here either: exit 3, its figures printed.
  { "$bin" score "$model" "${flags[@]}" --format json 2>/dev/null || true; } | python3 -c '
import json, sys
def find(o):
    if isinstance(o, dict):
        if "serving" in o: return o["serving"]
        for v in o.values():
            x = find(v)
            if x is not None: return x
    if isinstance(o, list):
        for v in o:
            x = find(v)
            if x is not None: return x
s = find(json.load(sys.stdin))
tok = s.get("kv_cache_tokens")
if not isinstance(tok, int):  # vLLM does not start: the estimated maximum model length it quotes (R9, R10 log it)
    import re
    m = re.search(r"estimated maximum model length is (\d+)", s.get("reason") or "")
    tok = int(m.group(1)) if m else None
print("%-4s %9s %9.2f %9s %9.2f %10s %10s" % (sys.argv[1], sys.argv[2], s["weights_per_gpu"], sys.argv[3],
      s["cache_budget_per_gpu"], sys.argv[4], "-" if not isinstance(tok, int) else tok))
' "$id" "$wlog" "$kvlog" "$toklog"
done
