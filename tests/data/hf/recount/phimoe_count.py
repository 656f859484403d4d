#!/usr/bin/env python3
"""Exact parameter count for model_type "phimoe" (transformers PhimoeForCausalLM,
also the checkpoint's remote PhiMoEForCausalLM, identical tensors).

Follows transformers/models/phimoe/modeling_phimoe.py:
  PhimoeAttention: q_proj Linear(d, H*hd, bias=attention_bias); k_proj/v_proj Linear(d, kv*hd, bias=attention_bias);
                   o_proj Linear(H*hd, d, bias=attention_bias);  hd = head_dim if set, else d // H
  PhimoeSparseMoeBlock: gate Linear(d, E, bias=False); E experts w1,w3 Linear(d, I), w2 Linear(I, d), bias=False
  PhimoeDecoderLayer: input_layernorm / post_attention_layernorm = nn.LayerNorm(d, elementwise_affine=True) (weight+bias)
  PhimoeModel: embed_tokens Embedding(V, d); norm = nn.LayerNorm(d) (weight+bias)
  PhimoeForCausalLM: lm_head Linear(d, V, bias=lm_head_bias)
Standard library only.  Usage: python3 phimoe_count.py FIXTURE.json [...]
"""
import json
import sys

OFFICIAL = {  # (total, active): HF card "16x3.8B ... 6.6B active"; hub safetensors size 41.9B
    "microsoft/Phi-3.5-MoE-instruct": (41.9e9, 6.6e9),
}


def count(cfg):
    d = cfg.get("hidden_size", 4096)
    I = cfg.get("intermediate_size", 6400)
    L = cfg.get("num_hidden_layers", 32)
    H = cfg.get("num_attention_heads", 32)
    kv = cfg.get("num_key_value_heads", 8) or H
    E = cfg.get("num_local_experts", 16)
    k = cfg.get("num_experts_per_tok", 2)
    V = cfg.get("vocab_size", 32064)
    ab = bool(cfg.get("attention_bias", False))
    lb = bool(cfg.get("lm_head_bias", False))
    tie = bool(cfg.get("tie_word_embeddings", False))
    hd = cfg.get("head_dim") or d // H

    b = dict(embedding=0, attention=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=0, biases=0, other=0)
    b["embedding"] = V * d + (0 if tie else V * d)
    b["biases"] = V if lb else 0
    b["norms"] = 2 * d                                   # final LayerNorm weight+bias
    b["attention"] = L * (d * H * hd + 2 * d * kv * hd + H * hd * d)
    if ab:
        b["biases"] += L * (H * hd + 2 * kv * hd + d)
    b["routed_experts"] = L * E * 3 * d * I
    b["routers"] = L * E * d
    b["norms"] += L * 2 * (2 * d)                        # 2 LayerNorms x (weight+bias)
    total = sum(b.values())
    active = total - L * (E - k) * 3 * d * I
    return total, active, b, dict(L=L, E=E, k=k)


def main(paths):
    for p in paths:
        with open(p) as f:
            cfg = json.load(f)
        total, active, b, info = count(cfg)
        src = cfg.get("_source", "")
        print(f"== {p}")
        print(f"total_params  {total:,}  ({total/1e9:.3f} B)")
        print(f"active_params {active:,}  ({active/1e9:.3f} B)   [top-{info['k']} of {info['E']} experts, {info['L']} MoE layers]")
        for key, v in b.items():
            print(f"  {key:15s} {v:,}")
        for repo, (ot, oa) in OFFICIAL.items():
            if repo in src:
                print(f"  ratio to official {repo}: total {total/ot:.4f}  active {active/oa:.4f}")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
