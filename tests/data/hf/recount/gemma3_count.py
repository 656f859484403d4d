#!/usr/bin/env python3
"""Exact parameter count for model_type "gemma3_text" and "gemma3" (its text_config), text model only.

Usage: python3 gemma3_count.py gemma-3-1b.json gemma-3-4b.json
Standard library only.  transformers modeling_gemma3.py: Gemma3ForCausalLM / the language model of
Gemma3ForConditionalGeneration: embed_tokens (tied: Gemma3TextConfig's default), per layer q/k/v/o, q_norm and
k_norm of head_dim, a gated MLP, input_layernorm, post_attention_layernorm, pre_feedforward_layernorm,
post_feedforward_layernorm, and a final norm.  The SigLIP vision tower and mm projector are not counted.
KV cache: layer i is windowed when (i + 1) % sliding_window_pattern != 0.
"""
import json
import sys

for p in sys.argv[1:]:
    cfg = json.load(open(p))
    c = cfg.get("text_config", cfg)
    H, L, V, I = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["intermediate_size"]
    nh, nkv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    layer = H * nh * hd + 2 * H * nkv * hd + nh * hd * H + 2 * hd + 3 * H * I + 4 * H
    total = V * H + L * layer + H
    pattern = c.get("sliding_window_pattern", 6)
    full = sum(1 for i in range(L) if (i + 1) % pattern == 0)
    print("== %s (%s)\ntotal_params        %16d  (%.3fB)  [embedding included; dense]" % (p, cfg["model_type"], total, total / 1e9))
    print("full-attention layers %d, windowed %d (window %d); kv bytes per token (bf16, full layers) %d"
          % (full, L - full, c["sliding_window"], full * 2 * nkv * hd * 2))
