#!/usr/bin/env python3
"""Exact parameter count for model_type "glm_moe_dsa" (GLM-5, GLM-5.1) and, with --no-indexer semantics
by model_type, "kimi_k25" (Kimi-K2.5: its text_config, DeepSeek-V3's layout).

Usage: python3 glm_moe_dsa_count.py glm-5.1.json kimi-k2.5.json
Standard library only.  Module trees: transformers models/glm_moe_dsa (modular_glm_moe_dsa.py, v5.7:
GlmMoeDsaAttention = MLA + GlmMoeDsaIndexer, GlmMoeDsaMoE, GlmMoeDsaMLP) and, for kimi_k25, the
checkpoint's remote code (DeepseekV3ForCausalLM built from text_config; vision tower not counted).
e_score_correction_bias is a buffer (not a parameter); the checkpoint stores it (fp32).
MTP (glm_moe_dsa): model.layers.<L> holds eh_proj (2H -> H), enorm, hnorm, shared_head.norm and one
MoE decoder layer with its indexer; GLM-5.1's checkpoint stores no embed_tokens / shared_head.head copy.
"""
import json
import sys


def count(cfg):
    indexer = cfg["model_type"] == "glm_moe_dsa"
    t = cfg.get("text_config", cfg) if cfg["model_type"] == "kimi_k25" else cfg
    H, V, L = t["hidden_size"], t["vocab_size"], t["num_hidden_layers"]
    nh, qr, kvr = t["num_attention_heads"], t["q_lora_rank"], t["kv_lora_rank"]
    nope, rope, vd = t["qk_nope_head_dim"], t["qk_rope_head_dim"], t["v_head_dim"]
    E, k, Im, S = t["n_routed_experts"], t["num_experts_per_tok"], t["moe_intermediate_size"], t["n_shared_experts"]
    I = t["intermediate_size"]
    dense = t.get("mlp_layer_types")
    n_dense = dense.count("dense") if dense else t["first_k_dense_replace"]
    tie = t.get("tie_word_embeddings", False)

    attn = H * qr + qr + qr * nh * (nope + rope)            # q_a_proj, q_a_layernorm, q_b_proj
    attn += H * (kvr + rope) + kvr + kvr * nh * (nope + vd)  # kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj
    attn += nh * vd * H                                      # o_proj
    if indexer:
        ih, idim = t["index_n_heads"], t["index_head_dim"]
        attn += qr * ih * idim + H * idim + 2 * idim + H * ih  # wq_b, wk, k_norm (LayerNorm w+b), weights_proj
    norms = 2 * H
    dense_ffn = 3 * H * I
    moe_total = E * 3 * H * Im + E * H + S * 3 * H * Im      # experts, gate.weight, shared_experts
    moe_active = k * 3 * H * Im + E * H + S * 3 * H * Im

    emb = V * H * (1 if tie else 2)
    total = emb + H + L * (attn + norms) + n_dense * dense_ffn + (L - n_dense) * moe_total
    active = emb + H + L * (attn + norms) + n_dense * dense_ffn + (L - n_dense) * moe_active
    n_mtp = t.get("num_nextn_predict_layers", 0) or 0
    mtp = n_mtp * (2 * H * H + 2 * H + H + attn + norms + moe_total)  # eh_proj, enorm+hnorm, shared_head.norm, layer
    e_bias = (L - n_dense + n_mtp) * E                        # e_score_correction_bias buffers in the checkpoint
    return total, active, mtp, e_bias


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        total, active, mtp, e_bias = count(cfg)
        print("== %s (%s)" % (p, cfg["model_type"]))
        print("total_params        %16d  (%.3fB)" % (total, total / 1e9))
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included]" % (active, active / 1e9))
        print("mtp (not in totals) %16d" % mtp)
        print("checkpoint          %16d  (total + mtp + %d e_score_correction_bias)" % (total + mtp + e_bias, e_bias))


if __name__ == "__main__":
    main(sys.argv[1:])
