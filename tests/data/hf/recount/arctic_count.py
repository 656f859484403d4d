#!/usr/bin/env python3
"""Exact parameter count for model_type "arctic" (remote code modeling_arctic.py of
Snowflake/snowflake-arctic-instruct, ArcticForCausalLM, non-DeepSpeed "local" MoE path).

  ArcticAttention: q_proj Linear(d, H*hd), k_proj/v_proj Linear(d, kv*hd), o_proj Linear(d, d), all bias=False; hd = d // H
  ArcticMLP: w1 Linear(d, f), w3 Linear(d, f), w2 Linear(f, d), bias=False,
             f = intermediate_size, but f = hidden_size when is_residual_mlp=True
  ArcticMoE: is_moe_layer = (layer_id + 1) % moe_layer_frequency == 0
             MoE layer: gate Linear(d, E, bias=False) + E x ArcticMLP(f=intermediate_size)
             dense layer: one ArcticMLP(f=intermediate_size)
  ArcticDecoderLayer: input_layernorm, post_attention_layernorm (RMSNorm d);
             if parallel_attn_mlp_res and is_moe_layer: residual_layernorm (RMSNorm d) + residual_mlp (ArcticMLP f=d)
             (vLLM's port keys the same branch on config.use_residual instead)
  ArcticModel: embed_tokens Embedding(V, d), norm RMSNorm(d);  ArcticForCausalLM: lm_head Linear(d, V, bias=False)
Standard library only.  Usage: python3 arctic_count.py FIXTURE.json [...]
"""
import json
import sys

OFFICIAL = {  # Snowflake blog / HF card: 480B total, 17B active
    "Snowflake/snowflake-arctic-instruct": (480e9, 17e9),
    "Snowflake/snowflake-arctic-base": (480e9, 17e9),
}


def count(cfg):
    d = cfg.get("hidden_size", 4096)
    I = cfg.get("intermediate_size", 14336)
    L = cfg.get("num_hidden_layers", 32)
    H = cfg.get("num_attention_heads", 32)
    kv = cfg.get("num_key_value_heads") or H
    E = cfg.get("num_local_experts", 8)
    k = cfg.get("num_experts_per_tok", 1)
    freq = cfg.get("moe_layer_frequency", 2)
    par = bool(cfg.get("parallel_attn_mlp_res", False))
    V = cfg.get("vocab_size", 32000)
    tie = bool(cfg.get("tie_word_embeddings", False))
    hd = d // H
    if "use_residual" in cfg and bool(cfg["use_residual"]) != par:
        print("  WARNING: use_residual != parallel_attn_mlp_res; HF remote code uses parallel_attn_mlp_res, vLLM uses use_residual")

    b = dict(embedding=0, attention=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=0, biases=0, other=0)
    b["embedding"] = V * d + (0 if tie else V * d)
    b["norms"] = d
    inactive = 0
    n_moe = 0
    for i in range(L):
        b["attention"] += d * H * hd + 2 * d * kv * hd + d * d
        b["norms"] += 2 * d
        if (i + 1) % freq == 0:
            n_moe += 1
            b["routers"] += E * d
            b["routed_experts"] += E * 3 * d * I
            inactive += (E - k) * 3 * d * I
            if par:
                b["norms"] += d
                b["shared_experts"] += 3 * d * d   # always-on residual MLP, ffn_dim = hidden_size
        else:
            b["dense_ffn"] += 3 * d * I
    total = sum(b.values())
    return total, total - inactive, b, dict(L=L, E=E, k=k, n_moe=n_moe)


def main(paths):
    for p in paths:
        with open(p) as f:
            cfg = json.load(f)
        total, active, b, info = count(cfg)
        src = cfg.get("_source", "")
        print(f"== {p}")
        print(f"total_params  {total:,}  ({total/1e9:.3f} B)")
        print(f"active_params {active:,}  ({active/1e9:.3f} B)   [top-{info['k']} of {info['E']} experts, {info['n_moe']}/{info['L']} MoE layers]")
        for key, v in b.items():
            label = "shared_experts (dense residual MLP)" if key == "shared_experts" else key
            print(f"  {label:15s} {v:,}")
        for repo, (ot, oa) in OFFICIAL.items():
            if repo in src:
                print(f"  ratio to official {repo}: total {total/ot:.4f}  active {active/oa:.4f}")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
