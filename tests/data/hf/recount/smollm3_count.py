#!/usr/bin/env python3
"""Exact parameter count for model_type "smollm3" (dense), written from transformers modeling_smollm3.py
(SmolLM3ForCausalLM: Llama's decoder layer; q/k/v/o biases by attention_bias, gate/up/down biases by mlp_bias;
input_layernorm and post_attention_layernorm; final norm; lm_head tied unless tie_word_embeddings is false).
NoPE layers (no_rope_layers entries of 0) build the same weights.  Standard library only.

Usage: python3 smollm3_count.py smollm3-3b.json
Check against the checkpoint: HuggingFaceTB/SmolLM3-3B's two safetensors files hold 6,150,235,008 bytes
(see the fixture's _source); 2 bytes a bf16 parameter leaves the headers' bytes, a few tens of kB.
"""
import json
import sys


def count(cfg):
    H, L, V, I = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"], cfg["intermediate_size"]
    nh = cfg["num_attention_heads"]
    nkv = cfg.get("num_key_value_heads")
    nkv = 4 if "num_key_value_heads" not in cfg else (nkv or nh)  # SmolLM3Config: 4; None -> num_attention_heads
    hd = cfg.get("head_dim") or H // nh
    tie = cfg.get("tie_word_embeddings", True)                     # SmolLM3Config default: True
    attn = H * nh * hd + 2 * H * nkv * hd + nh * hd * H
    if cfg.get("attention_bias", False):
        attn += nh * hd + 2 * nkv * hd + H
    mlp = 3 * H * I + ((2 * I + H) if cfg.get("mlp_bias", False) else 0)
    layer = attn + mlp + 2 * H
    return V * H * (1 if tie else 2) + L * layer + H


for p in sys.argv[1:]:
    cfg = json.load(open(p))
    t = count(cfg)
    print("== %s (%s)\ntotal_params        %16d  (%.3fB)  [embedding included; dense: active = total]"
          % (p, cfg["model_type"], t, t / 1e9))
    print("bf16 bytes          %16d" % (2 * t))
