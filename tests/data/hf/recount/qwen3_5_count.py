#!/usr/bin/env python3
"""Exact parameter count for model_type "qwen3_5" and "qwen3_5_moe" (Qwen3.5 / Qwen3.6), text model.

Usage: python3 qwen3_5_count.py qwen3.5-35b-a3b.json qwen3.5-4b.json
Standard library only.  Follows the module trees of transformers 5.7 (models/qwen3_5/modular_qwen3_5.py,
models/qwen3_5_moe/modular_qwen3_5_moe.py): Qwen3_5TextModel / Qwen3_5MoeTextModel with their lm_head.
The vision tower (model.visual.*) is not counted.  MTP: the checkpoint's mtp.* tensors (skipped by
transformers, _keys_to_ignore_on_load_unexpected) are counted apart as vLLM's qwen3_5_mtp.py builds
them: pre_fc_norm_embedding, pre_fc_norm_hidden, fc (2H -> H), mtp_num_hidden_layers full-attention
decoder layers with the model's MLP / MoE block, norm; the embedding and head are shared.
"""
import json
import sys


def layer_types(t):
    lt = t.get("layer_types")
    if lt is None:
        interval = t.get("full_attention_interval", 4)
        lt = ["linear_attention" if (i + 1) % interval else "full_attention" for i in range(t["num_hidden_layers"])]
    return lt


def attention(t):
    H, nh, nkv, hd = t["hidden_size"], t["num_attention_heads"], t["num_key_value_heads"], t["head_dim"]
    # q_proj [nh*hd*2, H] (query + output gate), k_proj, v_proj [nkv*hd, H], o_proj [H, nh*hd]; q_norm, k_norm [hd]
    return H * nh * hd * 2 + 2 * H * nkv * hd + nh * hd * H, 2 * hd


def deltanet(t):
    H = t["hidden_size"]
    nk, nv = t["linear_num_key_heads"], t["linear_num_value_heads"]
    dk, dv, K = t["linear_key_head_dim"], t["linear_value_head_dim"], t["linear_conv_kernel_dim"]
    key_dim, value_dim = nk * dk, nv * dv
    conv_dim = 2 * key_dim + value_dim
    mats = H * (2 * key_dim + value_dim)   # in_proj_qkv
    mats += H * value_dim                  # in_proj_z
    mats += 2 * H * nv                     # in_proj_b, in_proj_a
    mats += value_dim * H                  # out_proj
    conv = conv_dim * K                    # conv1d.weight [conv_dim, 1, K], no bias
    other = 2 * nv                         # dt_bias, A_log
    norm = dv                              # norm: RMSNormGated(head_v_dim)
    return mats, conv, other, norm


def ffn(t, moe):
    """(total, active, router+gate) of one layer's FFN."""
    H = t["hidden_size"]
    if not moe:
        return 3 * H * t["intermediate_size"], 3 * H * t["intermediate_size"], 0
    E, k, Im = t["num_experts"], t["num_experts_per_tok"], t["moe_intermediate_size"]
    Is = t["shared_expert_intermediate_size"]
    shared = 3 * H * Is                    # shared_expert gate/up/down
    routed = E * 3 * H * Im                # experts.gate_up_proj [E, 2Im, H], down_proj [E, H, Im]
    router = E * H + H                     # gate.weight [E, H], shared_expert_gate [1, H]
    return routed + shared + router, k * 3 * H * Im + shared + router, router


def count(cfg):
    t = cfg["text_config"]
    moe = cfg["model_type"] == "qwen3_5_moe"
    H, V = t["hidden_size"], t["vocab_size"]
    tie = t.get("tie_word_embeddings", cfg.get("tie_word_embeddings"))
    total = active = 0
    emb = V * H + (0 if tie else V * H)
    total += emb + H                          # embed_tokens, lm_head, model.norm
    active += emb + H
    for kind in layer_types(t):
        layer = 2 * H                         # input_layernorm, post_attention_layernorm
        if kind == "linear_attention":
            layer += sum(deltanet(t))
        else:
            a, n = attention(t)
            layer += a + n
        f_total, f_active, _ = ffn(t, moe)
        total += layer + f_total
        active += layer + f_active
    a, n = attention(t)
    f_total, _, _ = ffn(t, moe)
    mtp = t.get("mtp_num_hidden_layers", 0) * (2 * H + a + n + f_total) + (2 * H + 2 * H * H + H)
    if not t.get("mtp_num_hidden_layers", 0):
        mtp = 0
    return total, active, emb, mtp


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        total, active, emb, mtp = count(cfg)
        print("== %s (%s)" % (p, cfg["model_type"]))
        print("total_params        %16d  (%.3fB)" % (total, total / 1e9))
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included]" % (active, active / 1e9))
        print("embedding + head    %16d" % emb)
        print("mtp (not in totals) %16d" % mtp)


if __name__ == "__main__":
    main(sys.argv[1:])
