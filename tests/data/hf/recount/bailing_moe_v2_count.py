#!/usr/bin/env python3
"""Exact parameter count for Ling 2.0 (architectures BailingMoeV2ForCausalLM; the published
config.json says model_type "bailing_moe", the remote config class has no model_type) following
inclusionAI/Ling-V2 models/modeling_bailing_moe_v2.py.

Usage: python3 bailing_moe_v2_count.py ling-mini-2.0.json [...]   (standard library only)
gate.expert_bias is a registered buffer (not counted).  MTP layers are the LAST
num_nextn_predict_layers entries of model.layers (num_hidden_layers includes them); they are
counted in "mtp" and excluded from active_params.
"""
import json
import sys

OFFICIAL = {  # README: "1.43B activated of 16.26B total params" (card: 16B / 1.4B, non-embedding 789M)
    "https://huggingface.co/inclusionAI/Ling-mini-2.0": (16.26e9, 1.43e9),
}

# defaults used when a key is absent (BailingMoeV2 remote config; see bailing_moe_v2.md (b))
D = dict(vocab_size=157184, hidden_size=2048, intermediate_size=5120, num_hidden_layers=20,
         num_attention_heads=16, num_key_value_heads=4, use_qkv_bias=False, use_bias=False,
         tie_word_embeddings=False, num_experts=256, num_shared_experts=1, num_experts_per_tok=8,
         moe_intermediate_size=512, first_k_dense_replace=1, head_dim=128, use_qk_norm=True,
         num_nextn_predict_layers=0)


def count(cfg):
    g = lambda key: cfg.get(key, D[key])
    H, V, L = g("hidden_size"), g("vocab_size"), g("num_hidden_layers")
    nh, nkv = g("num_attention_heads"), g("num_key_value_heads")
    hd = g("head_dim") or H // nh                     # config.head_dim or hidden_size // num_heads
    E, nse, k = g("num_experts"), g("num_shared_experts"), g("num_experts_per_tok")
    Im, I, fkd = g("moe_intermediate_size"), g("intermediate_size"), g("first_k_dense_replace")
    qkv_bias, o_bias, tie = g("use_qkv_bias"), g("use_bias"), g("tie_word_embeddings")
    qk_norm, n_mtp = g("use_qk_norm"), g("num_nextn_predict_layers") or 0
    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, norms=H, biases=0, other=0, mtp=0)
    active_routed = 0
    n_moe = n_dense = 0

    def attention():
        p = H * (nh + 2 * nkv) * hd + nh * hd * H     # query_key_value, dense
        bias = ((nh + 2 * nkv) * hd if qkv_bias else 0) + (H if o_bias else 0)
        norms = 2 * hd if qk_norm else 0              # query_layernorm, key_layernorm over head_dim
        return p, bias, norms

    def moe():
        routed = E * 3 * H * Im                       # experts[e].gate/up/down_proj
        shared = 3 * H * Im * nse if nse is not None else 0   # shared_experts MLP(Im * nse)
        return routed, shared, E * H                  # gate.weight [E, H]

    for i in range(L):
        a, ab, an = attention()
        if i < L - n_mtp:                             # BailingMoeV2DecoderLayer
            b["norms"] += 2 * H + an
            b["attention"] += a
            b["biases"] += ab
            if E is not None and i >= fkd:
                n_moe += 1
                r, s, gw = moe()
                b["routed_experts"] += r; b["shared_experts"] += s; b["routers"] += gw
                active_routed += k * 3 * H * Im
            else:
                n_dense += 1
                b["dense_ffn"] += 3 * H * I
        else:                                         # BailingMoeV2MTPLayer (always MoE)
            r, s, gw = moe()
            b["mtp"] += a + ab + an + r + s + gw
            b["mtp"] += 5 * H                         # input_layernorm, enorm, post_attention_layernorm, hnorm, final_layernorm
            b["mtp"] += 2 * H * H                     # eh_proj [H, 2H]
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed - b["mtp"]
    return b, total, active, dict(moe=n_moe, dense=n_dense, mtp=n_mtp)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, total, active, n = count(cfg)
        emb = b["embedding"] + b["lm_head"]
        print("== %s (%s, %s)" % (p, cfg.get("model_type"), (cfg.get("architectures") or ["?"])[0]))
        print("layers: %s" % n)
        for key, val in b.items():
            print("  %-16s %16d" % (key, val))
        print("total_params        %16d  (%.3fB)" % (total, total / 1e9))
        print("total_without_mtp   %16d  (%.3fB)" % (total - b["mtp"], (total - b["mtp"]) / 1e9))
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included, MTP excluded]" % (active, active / 1e9))
        print("active_non_embedding%16d  (%.3fB)" % (active - emb, (active - emb) / 1e9))
        src = cfg.get("_source", "")
        for url, (t, a) in OFFICIAL.items():
            if url + " " in src or src.endswith(url):
                print("official: total %.4gB (ratio %.4f), active %.4gB (ratio incl. emb %.4f); card non-emb active 789M (ratio %.4f)"
                      % (t / 1e9, total / t, a / 1e9, active / a, (active - emb) / 789e6))


if __name__ == "__main__":
    main(sys.argv[1:])
