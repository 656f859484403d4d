#!/usr/bin/env python3
"""Exact parameter count for model_type "gpt_bigcode" (SantaCoder, StarCoder), written from transformers
modeling_gpt_bigcode.py: wte (vocab x n_embd), wpe (n_positions x n_embd); per block ln_1, ln_2 (LayerNorm:
weight and bias), attn.c_attn Linear(n_embd, n_embd + 2 * kv_dim) with bias, kv_dim = head_dim if multi_query
else n_embd, attn.c_proj Linear(n_embd, n_embd) with bias, mlp.c_fc Linear(n_embd, n_inner) with bias,
mlp.c_proj Linear(n_inner, n_embd) with bias (n_inner None -> 4 * n_embd); ln_f; lm_head tied to wte.
Standard library only.

Usage: python3 gpt_bigcode_count.py santacoder.json
Check: SantaCoder's model card states 1.1B parameters; its c_attn weight is [2304, 2048] (2048 + 2 x 128).
"""
import json
import sys


def count(cfg):
    d, L, nh, V, P = cfg["n_embd"], cfg["n_layer"], cfg["n_head"], cfg["vocab_size"], cfg["n_positions"]
    inner = cfg.get("n_inner") or 4 * d
    hd = d // nh
    kv_dim = hd if cfg.get("multi_query", True) else d
    c_attn = d * (d + 2 * kv_dim) + (d + 2 * kv_dim)
    c_proj = d * d + d
    mlp = d * inner + inner + inner * d + d
    ln = 2 * (2 * d)
    block = c_attn + c_proj + mlp + ln
    tie = cfg.get("tie_word_embeddings", True)
    return V * d * (1 if tie else 2) + P * d + L * block + 2 * d, c_attn, block


for p in sys.argv[1:]:
    cfg = json.load(open(p))
    t, c_attn, block = count(cfg)
    print("== %s (%s)\ntotal_params        %16d  (%.4fB)  [wte + wpe included; dense: active = total]"
          % (p, cfg["model_type"], t, t / 1e9))
    print("per block           %16d  (c_attn %d)" % (block, c_attn))
