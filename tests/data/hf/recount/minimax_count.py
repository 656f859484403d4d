#!/usr/bin/env python3
"""Exact parameter count for MiniMax-Text-01 / MiniMax-M1 style lightning-attention hybrids.

model_type "minimax" (transformers modeling_minimax.py, checkpoint MiniMaxAI/MiniMax-Text-01-hf:
layer_types + *_factor keys) and the original remote-code layout "minimax_text_01" /
"minimax_m1" (attn_type_list: 0 = lightning/linear, 1 = softmax; layernorm_* keys).

Usage: python3 minimax_count.py minimax-text-01.json [...]   (standard library only)
Buffers (slope_rate, query_decay, key_decay, diagonal_decay, inv_freq) are not parameters.
"""
import json
import sys

OFFICIAL = {  # source URL -> (total, active) as stated by the model card
    "https://huggingface.co/MiniMaxAI/MiniMax-Text-01": (456e9, 45.9e9),
}


def layer_types(cfg, L):
    if cfg.get("layer_types") is not None:           # transformers "minimax"
        return list(cfg["layer_types"])
    if cfg.get("attn_type_list") is not None:        # remote code / legacy: 0 linear, 1 full
        return ["linear_attention" if t == 0 else "full_attention" for t in cfg["attn_type_list"]][:L]
    # MiniMaxConfig.__post_init__ default: "full_attention" if bool((i + 1) % 2) else "linear_attention"
    return ["full_attention" if bool((i + 1) % 2) else "linear_attention" for i in range(L)]


def count(cfg):
    H = cfg.get("hidden_size", 4096); V = cfg.get("vocab_size", 32000)
    L = cfg.get("num_hidden_layers", 32); nh = cfg.get("num_attention_heads", 32)
    nkv = cfg.get("num_key_value_heads") or nh       # __post_init__: None -> num_attention_heads
    hd = cfg.get("head_dim") or H // nh              # getattr(config, "head_dim", None) or H // nh
    E = cfg.get("num_local_experts", 8); k = cfg.get("num_experts_per_tok", 2)
    I = cfg.get("intermediate_size", 14336)
    tie = cfg.get("tie_word_embeddings", False)
    shared_I = cfg.get("shared_intermediate_size", 0) or 0   # remote code only; 0 for every release
    if isinstance(shared_I, list):
        shared_I = shared_I[0] if shared_I else 0
    lts = layer_types(cfg, L)

    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, lightning_mixer=0,
             routed_experts=0, shared_experts=0, routers=0, norms=H, biases=0, other=0)
    active_routed = 0
    n_lin = n_full = 0
    for i in range(L):
        b["norms"] += 2 * H                                   # input_layernorm, post_attention_layernorm
        if lts[i] == "linear_attention":
            n_lin += 1
            b["lightning_mixer"] += H * 3 * nh * hd           # qkv_proj (no bias)
            b["lightning_mixer"] += nh * hd * H               # out_proj
            b["lightning_mixer"] += H * nh * hd               # output_gate
            b["norms"] += nh * hd                             # norm = MiniMaxRMSNorm(head_dim * heads)
        else:
            n_full += 1
            b["attention"] += H * nh * hd + 2 * H * nkv * hd + nh * hd * H   # q,k,v,o (no bias)
        b["routers"] += E * H                                 # mlp.gate.weight [E, H]
        b["routed_experts"] += E * 3 * H * I                  # gate_up_proj [E,2I,H] + down_proj [E,H,I]
        active_routed += k * 3 * H * I
        if shared_I > 0:                                      # remote code: shared_mlp + coefficient
            b["shared_experts"] += 3 * H * shared_I
            b["routers"] += H
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    return b, total, active, dict(linear_attention=n_lin, full_attention=n_full)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, total, active, n = count(cfg)
        emb = b["embedding"] + b["lm_head"]
        print("== %s (%s)" % (p, cfg.get("model_type")))
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
