#!/usr/bin/env python3
"""Exact parameter count for HF `granitemoe` (GraniteMoeForCausalLM) and
`granitemoeshared` (GraniteMoeSharedForCausalLM) config.json files.

Follows transformers/models/granitemoe/modular_granitemoe.py and
transformers/models/granitemoeshared/modular_granitemoeshared.py exactly:

  GraniteMoeAttention (LlamaAttention with scaling = attention_multiplier)
    q_proj  Linear(H, n_h*hd, bias=attention_bias)
    k_proj  Linear(H, n_kv*hd, bias=attention_bias)
    v_proj  Linear(H, n_kv*hd, bias=attention_bias)
    o_proj  Linear(n_h*hd, H, bias=attention_bias)          hd = head_dim or H // n_h
  GraniteMoeMoE
    input_linear  ParallelExperts weight [E, 2*I, H]         (gate|up fused)
    output_linear ParallelExperts weight [E, H, I]
    router.layer  Linear(H, E, bias=False)
  GraniteMoeSharedMLP (granitemoeshared only, absent if shared_intermediate_size == 0)
    input_linear  Linear(H, 2*S, bias=False); output_linear Linear(S, H, bias=False)
  input_layernorm, post_attention_layernorm: RMSNorm(H) (weight only)
  model.embed_tokens Embedding(V, H); model.norm RMSNorm(H)
  lm_head Linear(H, V, bias=False), tied to embed_tokens when tie_word_embeddings.

Standard library only.  Usage: granitemoe_count.py CONFIG.json [...]
"""
import json
import sys


def count(cfg):
    mt = cfg.get("model_type")
    if mt not in ("granitemoe", "granitemoeshared"):
        raise SystemExit(f"unsupported model_type {mt!r}")
    H = cfg.get("hidden_size", 4096)
    I = cfg.get("intermediate_size", 11008)
    L = cfg.get("num_hidden_layers", 32)
    nh = cfg.get("num_attention_heads", 32)
    nkv = cfg.get("num_key_value_heads") or nh          # config: None -> num_attention_heads
    hd = cfg.get("head_dim") or H // nh                  # LlamaAttention: getattr(config, "head_dim", H // nh)
    E = cfg.get("num_local_experts", 8)
    k = cfg.get("num_experts_per_tok", 2)
    V = cfg.get("vocab_size", 32000)
    tied = cfg.get("tie_word_embeddings", False)
    abias = cfg.get("attention_bias", False)
    S = cfg.get("shared_intermediate_size", 0) if mt == "granitemoeshared" else 0

    b = dict(embedding=0, attention=0, dense_ffn=0, routed_experts=0, shared_experts=0,
             routers=0, norms=0, biases=0, other=0)
    act = dict(b)

    # per layer
    attn_w = H * nh * hd + 2 * H * nkv * hd + nh * hd * H
    attn_b = (nh * hd + 2 * nkv * hd + H) if abias else 0
    expert = 2 * I * H + H * I                           # one expert: input_linear row block + output_linear
    router = H * E
    shared = (2 * S * H + S * H) if S > 0 else 0
    norms = 2 * H

    for key, tot, a in (("attention", attn_w, attn_w), ("biases", attn_b, attn_b),
                        ("routed_experts", E * expert, min(k, E) * expert),
                        ("routers", router, router), ("shared_experts", shared, shared),
                        ("norms", norms, norms)):
        b[key] += L * tot
        act[key] += L * a

    emb = V * H
    b["embedding"] = emb if tied else 2 * emb
    act["embedding"] = b["embedding"]
    b["norms"] += H
    act["norms"] += H
    return b, act


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, a = count(cfg)
        tot, ac = sum(b.values()), sum(a.values())
        print(f"== {p} ({cfg.get('model_type')})")
        print(f"total_params  {tot:,}  ({tot/1e9:.4f} B)")
        print(f"active_params {ac:,}  ({ac/1e9:.4f} B)")
        print(f"{'part':<16}{'total':>18}{'active':>18}")
        for key in b:
            print(f"{key:<16}{b[key]:>18,}{a[key]:>18,}")


if __name__ == "__main__":
    main(sys.argv[1:])
