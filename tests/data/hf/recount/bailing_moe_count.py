#!/usr/bin/env python3
"""Exact parameter count for model_type "bailing_moe" with architectures BailingMoeForCausalLM
(Ling-lite / Ling-plus; remote code inclusionAI/Ling models/modeling_bailing_moe.py).

Usage: python3 bailing_moe_count.py ling-lite.json ling-plus.json   (standard library only)
A config whose architectures name BailingMoeV2ForCausalLM (Ling 2.0 also ships
model_type "bailing_moe") must be counted with bailing_moe_v2_count.py instead.
"""
import json
import sys

OFFICIAL = {
    "https://huggingface.co/inclusionAI/Ling-lite-base": (16.8e9, 2.75e9),
    "https://huggingface.co/inclusionAI/Ling-plus": (290e9, 28.8e9),
}

# BailingMoeConfig defaults (configuration_bailing_moe.py)
D = dict(vocab_size=30592, hidden_size=1024, intermediate_size=None, num_hidden_layers=24,
         num_attention_heads=16, num_key_value_heads=0, use_qkv_bias=False, use_bias=True,
         tie_word_embeddings=False, num_experts=16, num_shared_experts=0, num_experts_per_tok=2,
         moe_intermediate_size=None, first_k_dense_replace=0, head_dim=None)


def count(cfg):
    g = lambda key: cfg.get(key, D[key])
    if "BailingMoeV2ForCausalLM" in (cfg.get("architectures") or []):
        raise SystemExit("BailingMoeV2ForCausalLM: use bailing_moe_v2_count.py")
    H, V, L = g("hidden_size"), g("vocab_size"), g("num_hidden_layers")
    nh, nkv = g("num_attention_heads"), g("num_key_value_heads")
    hd = g("head_dim") or H // nh                     # self.head_dim = head_dim or hidden_size // heads
    E, nse, k = g("num_experts"), g("num_shared_experts"), g("num_experts_per_tok")
    Im, I, fkd = g("moe_intermediate_size"), g("intermediate_size"), g("first_k_dense_replace")
    qkv_bias, o_bias, tie = g("use_qkv_bias"), g("use_bias"), g("tie_word_embeddings")
    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, norms=H, biases=0, other=0)
    active_routed = 0
    n_moe = n_dense = 0
    for i in range(L):
        b["norms"] += 2 * H                                   # input_layernorm, post_attention_layernorm
        b["attention"] += H * (nh + 2 * nkv) * hd             # query_key_value
        b["attention"] += nh * hd * H                         # dense
        if qkv_bias:
            b["biases"] += (nh + 2 * nkv) * hd
        if o_bias:
            b["biases"] += H
        if E is not None and i >= fkd:                        # BailingMoeSparseMoeBlock
            n_moe += 1
            b["routers"] += E * H                             # gate.weight [E, H]
            b["routed_experts"] += E * 3 * H * Im             # experts[e].gate/up/down_proj
            active_routed += k * 3 * H * Im
            if nse is not None:                               # shared_experts MLP(Im * nse)
                b["shared_experts"] += 3 * H * Im * nse
        else:
            n_dense += 1
            b["dense_ffn"] += 3 * H * I
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    return b, total, active, dict(moe=n_moe, dense=n_dense)


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
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included]" % (active, active / 1e9))
        print("active_non_embedding%16d  (%.3fB)" % (active - emb, (active - emb) / 1e9))
        src = cfg.get("_source", "")
        for url, (t, a) in OFFICIAL.items():
            if url + " " in src or src.endswith(url):
                print("official: total %.4gB (ratio %.4f), active %.4gB (ratio incl. emb %.4f, non-emb %.4f)"
                      % (t / 1e9, total / t, a / 1e9, active / a, (active - emb) / a))


if __name__ == "__main__":
    main(sys.argv[1:])
