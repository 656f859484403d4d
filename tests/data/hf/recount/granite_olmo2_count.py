#!/usr/bin/env python3
"""Exact parameter count for model_type "granite" and "olmo2" (dense).

Usage: python3 granite_olmo2_count.py granite-3.3-8b.json olmo-2-7b.json
Standard library only.  Module trees of transformers modeling_granite.py (GraniteForCausalLM: Llama's
decoder layer; attention_bias on q/k/v/o, mlp_bias on gate/up/down; input_layernorm and
post_attention_layernorm) and modeling_olmo2.py (Olmo2ForCausalLM: q_norm over num_attention_heads*head_dim,
k_norm over num_key_value_heads*head_dim; post_attention_layernorm and post_feedforward_layernorm).
"""
import json
import sys


def count(cfg):
    H, L, V, I = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"], cfg["intermediate_size"]
    nh = cfg["num_attention_heads"]
    nkv = cfg.get("num_key_value_heads") or nh          # both configs: None -> num_attention_heads
    hd = cfg.get("head_dim") or H // nh
    tie = cfg.get("tie_word_embeddings", False)         # both configs default to False
    layer = H * nh * hd + 2 * H * nkv * hd + nh * hd * H  # q, k, v, o
    if cfg.get("attention_bias", False):
        layer += nh * hd + 2 * nkv * hd + H
    layer += 3 * H * I                                    # gate, up, down
    if cfg.get("mlp_bias", False):
        layer += 2 * I + H
    layer += 2 * H                                        # the layer's two norms
    if cfg["model_type"] == "olmo2":
        layer += nh * hd + nkv * hd                       # q_norm, k_norm (full width)
    return V * H * (1 if tie else 2) + L * layer + H      # embeddings (+ head), layers, final norm


for p in sys.argv[1:]:
    cfg = json.load(open(p))
    t = count(cfg)
    print("== %s (%s)\ntotal_params        %16d  (%.3fB)  [embeddings + lm_head included; dense: active = total]"
          % (p, cfg["model_type"], t, t / 1e9))
