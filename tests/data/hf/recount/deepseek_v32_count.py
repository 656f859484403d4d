#!/usr/bin/env python3
"""Exact parameter count of deepseek_v32 configs (DeepSeek-V3.2-Exp / DeepSeek-V3.2).

Follows transformers/models/deepseek_v32 (DeepseekV32Attention = DeepseekV3Attention + DeepseekV32Indexer,
MoE/MLP/decoder from DeepSeek-V3) and the official inference/model.py (Indexer: wq_b, wk, k_norm=LayerNorm
with weight+bias, weights_proj). Standard library only.
usage: python3 deepseek_v32_count.py deepseek-v3.2.json
"""
import json
import sys


def g(c, k, d=None):
    v = c.get(k)
    return d if v is None else v


def decoder_layer(c, moe):
    """Parameters of one decoder layer, broken down; returns (dict, active_routed)."""
    H = c["hidden_size"]
    nh = c["num_attention_heads"]
    qr = c.get("q_lora_rank")
    kvr = c["kv_lora_rank"]
    nope, rope, vd = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    qk = nope + rope
    ab = bool(g(c, "attention_bias", False))
    IH, ID = g(c, "index_n_heads", 64), g(c, "index_head_dim", 128)
    b = dict(attention=0, indexer=0, dense_ffn=0, routed_experts=0, shared_experts=0,
             routers=0, norms=0, biases=0)
    # MLA (DeepseekV3Attention)
    if qr is None:
        b["attention"] += H * nh * qk
    else:
        b["attention"] += H * qr + qr * nh * qk          # q_a_proj, q_b_proj
        b["norms"] += qr                                 # q_a_layernorm
        b["biases"] += qr if ab else 0
    b["attention"] += H * (kvr + rope)                   # kv_a_proj_with_mqa
    b["biases"] += (kvr + rope) if ab else 0
    b["norms"] += kvr                                    # kv_a_layernorm
    b["attention"] += kvr * nh * (nope + vd)             # kv_b_proj
    b["attention"] += nh * vd * H                        # o_proj
    b["biases"] += H if ab else 0
    # Lightning indexer (DeepseekV32Indexer / inference Indexer); needs q_lora_rank
    if IH and ID:
        assert qr is not None, "indexer wq_b reads the q_lora residual"
        b["indexer"] += qr * IH * ID                     # wq_b
        b["indexer"] += H * ID                           # wk
        b["indexer"] += H * IH                           # weights_proj
        b["norms"] += 2 * ID                             # k_norm = LayerNorm(weight, bias)
    b["norms"] += 2 * H                                  # input_layernorm, post_attention_layernorm
    active_routed = 0
    if moe:
        E, Im = c["n_routed_experts"], c["moe_intermediate_size"]
        ns, k = g(c, "n_shared_experts", 0), c["num_experts_per_tok"]
        b["routed_experts"] += E * 3 * H * Im
        active_routed = k * 3 * H * Im
        b["shared_experts"] += 3 * H * Im * ns
        b["routers"] += E * H
    else:
        b["dense_ffn"] += 3 * H * c["intermediate_size"]
    return b, active_routed


def count(c):
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    fk = g(c, "first_k_dense_replace", 0)
    freq = g(c, "moe_layer_freq", 1)
    tot = dict(embedding=V * H, lm_head=0 if c.get("tie_word_embeddings", False) else V * H)
    tot["norms"] = H                                      # model.norm
    active_routed = 0
    n_moe = 0
    for i in range(L):
        moe = c.get("n_routed_experts") is not None and i >= fk and i % freq == 0
        n_moe += moe
        b, a = decoder_layer(c, moe)
        active_routed += a
        for k, v in b.items():
            tot[k] = tot.get(k, 0) + v
    total = sum(tot.values())
    active = total - tot["routed_experts"] + active_routed
    buffers = n_moe * c.get("n_routed_experts", 0)        # e_score_correction_bias (buffer)
    # MTP module(s): in the checkpoint (model.layers.61.*), NOT built by DeepseekV32ForCausalLM
    mtp = 0
    for _ in range(g(c, "num_nextn_predict_layers", 0)):
        b, _a = decoder_layer(c, True)
        mtp += sum(b.values()) + 2 * H * H + 3 * H + 2 * V * H   # layer + eh_proj + enorm/hnorm/shared_head.norm + embed + head
    return total, active, tot, n_moe, buffers, mtp


def main(paths):
    for p in paths:
        c = json.load(open(p))
        total, active, b, n_moe, buffers, mtp = count(c)
        print(f"== {p}")
        print(f"   layers: {c['num_hidden_layers']} = {c['num_hidden_layers'] - n_moe} dense + {n_moe} MoE")
        print(f"   total_params  = {total:,} ({total/1e9:.3f}B)")
        print(f"   active_params = {active:,} ({active/1e9:.3f}B)")
        for k, v in b.items():
            if v:
                print(f"     {k:16s} {v:,}")
        print(f"   without indexer (= DeepSeek-V3 count): total {(total - b['indexer'])/1e9:.3f}B, active {(active - b['indexer'])/1e9:.3f}B")
        print(f"   (buffers not counted: e_score_correction_bias {buffers:,}; it is nn.Parameter Gate.bias in inference/model.py)")
        if mtp:
            print(f"   (MTP module in checkpoint, not built: {mtp:,}; total+MTP = {(total + mtp)/1e9:.3f}B)")


if __name__ == "__main__":
    main(sys.argv[1:])
