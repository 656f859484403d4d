#!/usr/bin/env python3
"""Exact parameter count for model_type "afmoe" (Arcee Trinity Nano, Mini, Large).

Follows transformers src/transformers/models/afmoe/modeling_afmoe.py (huggingface/transformers
0205eec1) and configuration_afmoe.py (053f59ef):
  AfmoeModel: embed_tokens (V,H); layers; norm (H)
  AfmoeForCausalLM: lm_head (V,H) unless tie_word_embeddings (AfmoeConfig default False)
  AfmoeDecoderLayer: input_layernorm, post_attention_layernorm, pre_mlp_layernorm,
    post_mlp_layernorm (H each); mlp = AfmoeMLP(intermediate_size) if layer_idx < num_dense_layers
    else AfmoeSparseMoeBlock
  AfmoeAttention: q_proj (H, nH*hd), k_proj, v_proj (H, nKV*hd), o_proj (nH*hd, H), bias
    attention_bias (AfmoeConfig forces False); q_norm, k_norm (hd); gate_proj (H, nH*hd) no bias
  AfmoeMLP: gate_proj, up_proj (H, I), down_proj (I, H), no bias
  AfmoeSparseMoeBlock: router.gate (E, H) no bias; shared_experts = AfmoeMLP(Im * num_shared_experts);
    experts.gate_up_proj (E, 2*Im, H), experts.down_proj (E, H, Im); expert_bias nn.Parameter (E)
Standard library only.  Usage: python3 afmoe_count.py fixture.json [...]
"""
import json
import sys

DEFAULTS = dict(vocab_size=200192, hidden_size=2048, intermediate_size=6144, moe_intermediate_size=1408,
                num_hidden_layers=32, num_dense_layers=1, num_attention_heads=16, num_key_value_heads=None,
                head_dim=128, tie_word_embeddings=False, num_experts=64, num_experts_per_tok=6,
                num_shared_experts=2)


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    nH = c["num_attention_heads"]
    nKV = c["num_key_value_heads"] or nH
    hd = c["head_dim"]
    E, K, Im, I = c["num_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["intermediate_size"]
    S = c["num_shared_experts"]
    b = dict(embedding=V * H, lm_head=0 if c["tie_word_embeddings"] else V * H, attention=0, attn_gate=0,
             dense_ffn=0, routed_experts=0, shared_experts=0, routers=0, expert_bias=0, norms=H)
    act_routed = 0
    n_moe = 0
    for i in range(L):
        b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
        b["attn_gate"] += H * nH * hd
        b["norms"] += 2 * hd + 4 * H
        if i < c["num_dense_layers"]:
            b["dense_ffn"] += 3 * H * I
        else:
            n_moe += 1
            b["routers"] += E * H
            b["expert_bias"] += E
            b["shared_experts"] += 3 * H * Im * S
            b["routed_experts"] += E * 3 * H * Im
            act_routed += K * 3 * H * Im
    total = sum(b.values())
    active = total - b["routed_experts"] + act_routed
    return total, active, b, dict(moe_layers=n_moe)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        total, active, b, info = count(cfg)
        print(f"== {p} (model_type={cfg.get('model_type')})")
        print(f"total_params  {total:,}")
        print(f"active_params {active:,}")
        for k, v in b.items():
            print(f"  {k:15s} {v:,}")
        for k, v in info.items():
            print(f"  [{k}] {v:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
