#!/usr/bin/env python3
"""Exact parameter count for model_type "gemma2" (transformers modeling_gemma2.py).

Usage: python3 gemma2_count.py gemma-2-9b.json
Standard library only.  Gemma2ForCausalLM: embed_tokens (tied to lm_head: Gemma2Config's
tie_word_embeddings default True), per layer q/k/v/o (bias with attention_bias), a gated MLP
(gate_proj, up_proj, down_proj) and four Gemma2RMSNorm of hidden_size (input_layernorm,
post_attention_layernorm, pre_feedforward_layernorm, post_feedforward_layernorm), a final norm.
The embedding's sqrt(hidden_size) normaliser is a buffer.  KV cache: every other layer (0, 2, ...)
is sliding-window attention of sliding_window positions.
"""
import json
import sys

for p in sys.argv[1:]:
    c = json.load(open(p))
    H, L, V, I = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["intermediate_size"]
    nh, nkv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    layer = H * nh * hd + 2 * H * nkv * hd + nh * hd * H + 3 * H * I + 4 * H
    if c.get("attention_bias", False):
        layer += nh * hd + 2 * nkv * hd + H
    tie = c.get("tie_word_embeddings", True)
    total = V * H * (1 if tie else 2) + L * layer + H
    full = L // 2                                   # odd layers: full attention
    print("== %s (gemma2)\ntotal_params        %16d  (%.3fB)  [embedding included; dense]" % (p, total, total / 1e9))
    print("kv bytes per token (bf16, full layers)  %d; sliding layers %d of window %d"
          % (full * 2 * nkv * hd * 2, L - full, c["sliding_window"]))
