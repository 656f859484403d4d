#!/usr/bin/env python3
"""Exact parameter count for model_type "mimo_v2_flash" (Xiaomi MiMo-V2-Flash).

Usage: python3 mimo_v2_flash_count.py mimo-v2-flash.json
Standard library only.  Written from transformers' modular_mimo_v2_flash.py / modeling_mimo_v2_flash.py
(huggingface/transformers commit 019770ddcfd6bd6c1089adebb7e6428b2155cf01), not from moeplan:
  MiMoV2FlashAttention(layer i): is_swa = layer_types[i] == "sliding_attention" (the hub's
    hybrid_layer_pattern entry 1); kv = 2 * num_key_value_heads if is_swa else num_key_value_heads;
    q_proj d -> nq*h, k_proj d -> kv*h, v_proj d -> kv*v (bias = attention_bias on all three),
    o_proj nq*v -> d (no bias); sinks: nn.Parameter(nq) if is_swa (requires_grad=False, stored).
  MiMoV2FlashDecoderLayer (LlamaDecoderLayer): input_layernorm, post_attention_layernorm (d each);
    mlp = MiMoV2FlashMLP (gate, up, down of intermediate_size) unless mlp_layer_types[i] ==
    "sparse" (the hub's moe_layer_freq entry 1): MiMoV2FlashSparseMoeBlock = DeepseekV3MoE
    minus shared experts: experts gate_up E x 2f x d, down E x d x f; gate.weight E x d;
    gate.e_score_correction_bias is a register_buffer (not a parameter: not counted).
  MiMoV2FlashModel (MixtralModel): embed_tokens V x d, final norm d; lm_head V x d (untied).
  MTP: _keys_to_ignore_on_load_unexpected = [r"^model\\.mtp\\."]: none built.
Active: all but the (E - K) unused experts of each sparse layer.
"""
import json
import sys

for p in sys.argv[1:]:
    c = json.load(open(p))
    d, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    nq, nkv, h, v = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"], c["v_head_dim"]
    I, f, E, K = c["intermediate_size"], c["moe_intermediate_size"], c["n_routed_experts"], c["num_experts_per_tok"]
    bias = c.get("attention_bias", False)
    swa = [x == 1 for x in c["hybrid_layer_pattern"]]
    sparse = [x == 1 for x in c["moe_layer_freq"]]
    attn = sinks = biases = dense = experts = routers = norms = unused = 0
    for i in range(L):
        kv = 2 * nkv if swa[i] else nkv
        attn += d * nq * h + d * kv * h + d * kv * v + nq * v * d
        if bias:
            biases += nq * h + kv * h + kv * v
        if swa[i]:
            sinks += nq
        norms += 2 * d
        if sparse[i]:
            experts += E * (2 * f * d + d * f)
            routers += E * d
            unused += (E - K) * 3 * f * d
        else:
            dense += 3 * d * I
    norms += d
    emb = V * d * (1 if c.get("tie_word_embeddings", False) else 2)
    total = attn + sinks + biases + dense + experts + routers + norms + emb
    print("== %s" % p)
    print("attention  = %d" % attn)
    print("dense_ffn  = %d" % dense)
    print("experts    = %d" % experts)
    print("routers    = %d" % routers)
    print("norms      = %d" % norms)
    print("sinks      = %d" % sinks)
    print("biases     = %d" % biases)
    print("embedding  = %d" % emb)
    print("N (non-embedding, matrices) = %d" % (attn + dense + experts))
    print("N_a                         = %d" % (attn + dense + experts - unused))
    print("total_params  = %d (%.3fB)" % (total, total / 1e9))
    print("active_params = %d (%.3fB)" % (total - unused, (total - unused) / 1e9))
