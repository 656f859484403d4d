#!/usr/bin/env python3
"""Exact parameter count for model_type "dbrx" (transformers DbrxForCausalLM).

Follows transformers/models/dbrx/modeling_dbrx.py:
  DbrxAttention.Wqkv = Linear(d, d + 2*kv*hd, bias=False); out_proj = Linear(d, d, bias=False)
  DbrxNormAttentionNorm.norm_1 / norm_2 = LayerNorm(d, bias=False)
  DbrxRouter.layer = Linear(d, E, bias=False)
  DbrxExpertGLU.w1 / v1 / w2 = Parameter(E*ffn_hidden_size, d)
  DbrxModel.wte = Embedding(V, d); norm_f = LayerNorm(d, bias=False)
  DbrxForCausalLM.lm_head = Linear(d, V, bias=False)   (tie_word_embeddings unsupported)
Standard library only.  Usage: python3 dbrx_count.py FIXTURE.json [...]
"""
import json
import sys

OFFICIAL = {  # model-card figures: (total, active)
    "databricks/dbrx-instruct": (132e9, 36e9),
    "databricks/dbrx-base": (132e9, 36e9),
}


def count(cfg):
    d = cfg.get("d_model", 2048)
    H = cfg.get("n_heads", 16)
    L = cfg.get("n_layers", 24)
    V = cfg.get("vocab_size", 32000)
    attn = cfg.get("attn_config") or {}
    ffn = cfg.get("ffn_config") or {}
    kv = attn.get("kv_n_heads", 1)
    F = ffn.get("ffn_hidden_size", 3584)
    E = ffn.get("moe_num_experts", 4)
    k = ffn.get("moe_top_k", 1)
    if cfg.get("tie_word_embeddings", False):
        raise ValueError("tie_word_embeddings is not supported for DBRX models")
    hd = d // H

    b = dict(embedding=0, attention=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=0, biases=0, other=0)
    b["embedding"] = V * d + V * d            # wte + lm_head
    b["norms"] = d                             # norm_f (weight only)
    per_attn = d * (d + 2 * kv * hd) + d * d  # Wqkv + out_proj
    per_exp = 3 * E * F * d                    # w1, v1, w2
    b["attention"] = L * per_attn
    b["routed_experts"] = L * per_exp
    b["routers"] = L * E * d
    b["norms"] += L * 2 * d
    total = sum(b.values())
    active = total - L * 3 * (E - k) * F * d
    return total, active, b, dict(L=L, E=E, k=k)


def main(paths):
    for p in paths:
        with open(p) as f:
            cfg = json.load(f)
        total, active, b, info = count(cfg)
        src = cfg.get("_source", "")
        print(f"== {p}  ({src.split('huggingface.co/')[-1].split(' ')[0] if 'huggingface.co/' in src else ''})")
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
