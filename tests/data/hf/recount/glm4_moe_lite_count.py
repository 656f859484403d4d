#!/usr/bin/env python3
"""Exact parameter count for model_type "glm4_moe_lite" (GLM-4.7-Flash).

Follows transformers src/transformers/models/glm4_moe_lite/modeling_glm4_moe_lite.py:
Glm4MoeLiteAttention (MLA, DeepseekV3Attention), Glm4MoeLiteMoE (Glm4MoeLiteExperts,
Glm4MoeLiteTopkRouter with e_score_correction_bias a buffer, shared_experts =
Glm4MoeLiteMLP(moe_intermediate_size * n_shared_experts)), Glm4MoeLiteMLP for "dense" layers,
chosen by config.mlp_layer_types (default ["dense"] + ["sparse"] * (L - 1)).
The checkpoint's MTP layer (model.layers.<L>.*, skipped on load) is counted apart, as
DeepSeek-V3's module: enorm, hnorm, eh_proj (2H -> H), one sparse decoder layer,
shared_head.norm. Standard library only.
usage: python3 glm4_moe_lite_count.py glm-4.7-flash.json
"""
import json
import sys

DEFAULTS = {  # Glm4MoeLiteConfig
    "vocab_size": 154880, "hidden_size": 2048, "intermediate_size": 10240, "moe_intermediate_size": 1536,
    "num_hidden_layers": 47, "num_attention_heads": 20, "n_shared_experts": 1, "n_routed_experts": 64,
    "kv_lora_rank": 512, "q_lora_rank": 768, "qk_rope_head_dim": 64, "v_head_dim": 256,
    "qk_nope_head_dim": 192, "num_experts_per_tok": 4, "tie_word_embeddings": False,
    "attention_bias": False, "mlp_layer_types": None, "num_nextn_predict_layers": 0,
}


def get(c, k):
    return c[k] if k in c else DEFAULTS[k]


def layer(c, sparse):
    H, nh = get(c, "hidden_size"), get(c, "num_attention_heads")
    qr, kvr = get(c, "q_lora_rank"), get(c, "kv_lora_rank")
    nope, rope, vd = get(c, "qk_nope_head_dim"), get(c, "qk_rope_head_dim"), get(c, "v_head_dim")
    ab = get(c, "attention_bias")
    b = dict(attention=0, norms=0, biases=0, dense_ffn=0, routed_experts=0, shared_experts=0, routers=0)
    if qr is None:
        b["attention"] += H * nh * (nope + rope)                 # q_proj
    else:
        b["attention"] += H * qr + qr * nh * (nope + rope)       # q_a_proj, q_b_proj
        b["norms"] += qr                                         # q_a_layernorm
        b["biases"] += qr if ab else 0
    b["attention"] += H * (kvr + rope) + kvr * nh * (nope + vd) + nh * vd * H  # kv_a, kv_b, o_proj
    b["biases"] += (kvr + rope + H) if ab else 0
    b["norms"] += kvr + 2 * H                                    # kv_a_layernorm, input/post norms
    active = 0
    if sparse:
        E, Im, k = get(c, "n_routed_experts"), get(c, "moe_intermediate_size"), get(c, "num_experts_per_tok")
        b["routed_experts"] = E * 3 * H * Im                     # gate_up_proj [E,2Im,H], down_proj [E,H,Im]
        b["routers"] = E * H                                     # gate.weight (bias is a buffer)
        b["shared_experts"] = 3 * H * Im * get(c, "n_shared_experts")
        active = k * 3 * H * Im
    else:
        b["dense_ffn"] = 3 * H * get(c, "intermediate_size")
    return b, active


def count(c):
    H, V, L = get(c, "hidden_size"), get(c, "vocab_size"), get(c, "num_hidden_layers")
    types = get(c, "mlp_layer_types") or ["dense"] + ["sparse"] * (L - 1)
    tot = dict(embedding=V * H, lm_head=0 if get(c, "tie_word_embeddings") else V * H, norms=H)
    active_routed = 0
    for t in types:
        b, a = layer(c, t == "sparse")
        active_routed += a
        for k, v in b.items():
            tot[k] = tot.get(k, 0) + v
    total = sum(tot.values())
    active = total - tot["routed_experts"] + active_routed
    mtp = 0
    for _ in range(get(c, "num_nextn_predict_layers")):
        b, _a = layer(c, True)
        mtp += sum(b.values()) + 2 * H + 2 * H * H + H           # layer, enorm+hnorm, eh_proj, shared_head.norm
    return tot, total, active, mtp


def main(paths):
    for p in paths:
        c = json.load(open(p))
        tot, total, active, mtp = count(c)
        print("== %s" % p)
        for k, v in tot.items():
            print("  %-16s %16d" % (k, v))
        print("total_params  = %d (%.3fB)" % (total, total / 1e9))
        print("active_params = %d (%.3fB)  [embedding + lm_head included]" % (active, active / 1e9))
        print("mtp module(s), own weights = %d (%.3fB); not in the totals" % (mtp, mtp / 1e9))


if __name__ == "__main__":
    main(sys.argv[1:])
