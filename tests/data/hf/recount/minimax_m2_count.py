#!/usr/bin/env python3
"""Exact parameter count for model_type "minimax_m2" (transformers modeling_minimax_m2.py).

Usage: python3 minimax_m2_count.py minimax-m2.json [...]   (standard library only)
e_score_correction_bias is an nn.Buffer (not counted).  The MTP modules named by
use_mtp / num_mtp_modules / mtp_transformer_layers are not built by MiniMaxM2ForCausalLM
and are not counted.  attn_type_list is ignored by transformers (every layer is softmax GQA).
"""
import json
import sys

OFFICIAL = {
    "https://huggingface.co/MiniMaxAI/MiniMax-M2": (230e9, 10e9),
}

# MiniMaxM2Config class defaults (configuration_minimax_m2.py)
D = dict(vocab_size=200064, hidden_size=3072, intermediate_size=1536, num_hidden_layers=62,
         num_attention_heads=48, num_key_value_heads=8, head_dim=128, tie_word_embeddings=False,
         num_experts_per_tok=8, num_local_experts=256)


def count(cfg):
    g = lambda key: cfg.get(key, D[key])
    H, V, L = g("hidden_size"), g("vocab_size"), g("num_hidden_layers")
    nh, nkv = g("num_attention_heads"), g("num_key_value_heads")
    hd = cfg.get("head_dim", D["head_dim"]) or H // nh
    E, k, I = g("num_local_experts"), g("num_experts_per_tok"), g("intermediate_size")
    tie = g("tie_word_embeddings")
    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, routed_experts=0,
             shared_experts=0, routers=0, norms=H, biases=0, other=0)
    active_routed = 0
    for _ in range(L):
        b["norms"] += 2 * H                                         # input / post_attention layernorm
        b["attention"] += H * nh * hd + 2 * H * nkv * hd + nh * hd * H  # q,k,v,o (bias=False)
        b["norms"] += nh * hd + nkv * hd                            # q_norm [nh*hd], k_norm [nkv*hd] (always built)
        b["routers"] += E * H                                       # mlp.gate.weight [E, H]
        b["routed_experts"] += E * 3 * H * I                        # gate_up_proj + down_proj
        active_routed += k * 3 * H * I
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    return b, total, active


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, total, active = count(cfg)
        emb = b["embedding"] + b["lm_head"]
        print("== %s (%s)" % (p, cfg.get("model_type")))
        for key, val in b.items():
            print("  %-16s %16d" % (key, val))
        print("total_params        %16d  (%.3fB)" % (total, total / 1e9))
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included]" % (active, active / 1e9))
        print("active_non_embedding%16d  (%.3fB)" % (active - emb, (active - emb) / 1e9))
        if cfg.get("use_mtp"):
            print("note: config declares %s MTP module(s) x %s layer(s); not built by transformers, not counted"
                  % (cfg.get("num_mtp_modules"), cfg.get("mtp_transformer_layers")))
        src = cfg.get("_source", "")
        for url, (t, a) in OFFICIAL.items():
            if url + " " in src or src.endswith(url):
                print("official: total %.4gB (ratio %.4f), active %.4gB (ratio incl. emb %.4f, non-emb %.4f)"
                      % (t / 1e9, total / t, a / 1e9, active / a, (active - emb) / a))


if __name__ == "__main__":
    main(sys.argv[1:])
