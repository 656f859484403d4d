#!/usr/bin/env python3
"""Exact parameter count for model_type "minimax_m3_vl" (its text_config) and "minimax_m3", text
model only.

Usage: python3 minimax_m3_count.py minimax-m3.json
Standard library only.  Written from transformers' modeling_minimax_m3_vl.py and
configuration_minimax_m3_vl.py (huggingface/transformers commit 01a05aad), not from moeplan:
  MiniMaxM3VLTextConfig defaults: n_shared_experts 1, layer_types from
    sparse_attention_config["sparse_attention_freq"] ("minimax_m3_sparse" where non-zero).
  MiniMaxM3VLAttention: q_proj d -> N_q hd, k_proj, v_proj d -> N_kv hd, o_proj N_q hd -> d (no
    biases); q_norm, k_norm: MiniMaxM3VLRMSNorm(hd).
  MiniMaxM3VLSparseAttention adds MiniMaxM3VLIndexer: q_proj d -> H_idx D_idx, k_proj d -> D_idx,
    q_norm, k_norm of D_idx.
  MiniMaxM3VLDecoderLayer: moe_layer_freq[i] -> MiniMaxM3VLSparseMoeBlock (gate weight E x d,
    e_score_correction_bias a buffer of E, experts gate_up E x 2f x d + down E x d x f,
    shared_experts DenseMLP(shared_intermediate_size * n_shared_experts)); else
    DenseMLP(dense_intermediate_size) (gate_up 2w x d, down d x w). input_layernorm,
    post_attention_layernorm (d each).
  Model: embed_tokens V x d, norm d; lm_head V x d (untied).
Active: all but (E - K) experts of every MoE layer.
KV cache per token (bf16): 2 N_kv hd x 2 bytes per layer, plus the indexer's key (D_idx x 2
bytes) in each sparse layer (MiniMaxM3VLSparseCacheLayer.idx_keys).
"""
import json
import sys

for p in sys.argv[1:]:
    cfg = json.load(open(p))
    c = cfg.get("text_config", cfg)
    d, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    nq, nkv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    s = c.get("sparse_attention_config") or {}
    types = c.get("layer_types") or ["minimax_m3_sparse" if f else "full_attention" for f in s["sparse_attention_freq"]]
    E, K, f = c["num_local_experts"], c["num_experts_per_tok"], c["intermediate_size"]
    shared_w = c["shared_intermediate_size"] * c.get("n_shared_experts", 1)
    attn = idx = norms = experts = shared = dense = router = unused = buffers = 0
    kv_bytes = idx_bytes = 0
    for i in range(L):
        attn += d * nq * hd + 2 * d * nkv * hd + nq * hd * d
        norms += 2 * hd + 2 * d
        kv_bytes += 2 * nkv * hd * 2
        if types[i] == "minimax_m3_sparse":
            H, D = s["sparse_num_index_heads"], s["sparse_index_dim"]
            idx += d * H * D + d * D
            norms += 2 * D
            idx_bytes += D * 2
        if c["moe_layer_freq"][i]:
            experts += E * (2 * f * d + d * f)
            unused += (E - K) * 3 * f * d
            shared += 3 * d * shared_w
            router += E * d
            buffers += E  # e_score_correction_bias
        else:
            dense += 3 * d * c["dense_intermediate_size"]
    embed = 2 * V * d
    total = embed + attn + idx + norms + experts + shared + dense + router + d
    N = attn + idx + experts + shared + dense
    print("== %s (%s)" % (p, cfg.get("model_type")))
    for k, v in (("attention", attn), ("indexer", idx), ("experts", experts), ("shared", shared), ("dense", dense),
                 ("router", router), ("norms", norms + d)):
        print("  %-10s %16d" % (k, v))
    print("total_params         %16d  (%.3fB)  [embedding and lm_head included]" % (total, total / 1e9))
    print("active_params        %16d  (%.3fB)" % (total - unused, (total - unused) / 1e9))
    print("N (non-embedding)    %16d   N_a %d" % (N, N - unused))
    print("buffers (e_score_correction_bias, stored) %d" % buffers)
    print("kv bytes per token (bf16): K and V %d, indexer keys %d" % (kv_bytes, idx_bytes))
