#!/usr/bin/env python3
"""Exact parameter count for model_type "nemotron" (dense, squared ReLU), written from transformers
modeling_nemotron.py: embed_tokens; per layer input_layernorm and post_attention_layernorm (NemotronLayerNorm1P,
nn.LayerNorm with weight and bias: 2 x hidden each), q/k/v/o (biases by attention_bias; head_dim = config.head_dim
or hidden / heads), up_proj and down_proj (biases by mlp_bias); final norm (NemotronLayerNorm1P); lm_head untied
unless tie_word_embeddings.  Standard library only.

Usage: python3 nemotron_count.py nemotron-4-4b.json
"""
import json
import sys


def count(cfg):
    H, L, V, I = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"], cfg["intermediate_size"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    hd = cfg.get("head_dim") or H // nh
    attn = H * nh * hd + 2 * H * nkv * hd + nh * hd * H
    if cfg.get("attention_bias", False):
        attn += nh * hd + 2 * nkv * hd + H
    mlp = 2 * H * I + ((I + H) if cfg.get("mlp_bias", False) else 0)
    norms = 2 * (2 * H)
    tie = cfg.get("tie_word_embeddings", False)
    non_emb = L * (attn + mlp + norms) + 2 * H
    return V * H * (1 if tie else 2) + non_emb, L * (attn + mlp)


for p in sys.argv[1:]:
    cfg = json.load(open(p))
    t, n = count(cfg)
    print("== %s (%s)\ntotal_params        %16d  (%.3fB)  [embedding + lm_head included; dense]" % (p, cfg["model_type"], t, t / 1e9))
    print("matrices (no emb.)  %16d  (%.3fB)" % (n, n / 1e9))
