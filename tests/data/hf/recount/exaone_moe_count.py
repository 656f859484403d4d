#!/usr/bin/env python3
"""Exact parameter count for model_type "exaone_moe" (LG AI Research K-EXAONE).

Follows transformers src/transformers/models/exaone_moe/modeling_exaone_moe.py (huggingface/
transformers 0205eec1) and configuration_exaone_moe.py (008e5743):
  ExaoneMoeModel: embed_tokens (V,H); layers; norm (H)
  ExaoneMoeForCausalLM: lm_head (V,H) unless tie_word_embeddings (default False)
  ExaoneMoeDecoderLayer: input_layernorm, post_attention_layernorm (H each);
    mlp = ExaoneMoeMLP(intermediate_size) if mlp_layer_types[i] == "dense" (default: i < first_k_dense_replace)
    else ExaoneMoeSparseMoEBlock
  ExaoneMoeAttention: q_proj (H, nH*hd), k_proj, v_proj (H, nKV*hd), o_proj (nH*hd, H), no bias;
    q_norm, k_norm (hd); hd = head_dim or H // nH
  ExaoneMoeMLP: gate_proj, up_proj (H, I), down_proj (I, H), no bias
  ExaoneMoeSparseMoEBlock: gate.weight (E, H); experts.gate_up_proj (E, 2*Im, H), experts.down_proj (E, H, Im);
    shared_experts = ExaoneMoeMLP(Im * num_shared_experts);
    gate.e_score_correction_bias a persistent BUFFER (E): in the checkpoint, not a parameter
  mtp.*: skipped by the class (_keys_to_ignore_on_load_unexpected), not counted
Standard library only.  Usage: python3 exaone_moe_count.py fixture.json [...]
"""
import json
import sys

DEFAULTS = dict(vocab_size=102400, hidden_size=4096, intermediate_size=16384, num_hidden_layers=32,
                num_attention_heads=32, num_key_value_heads=32, tie_word_embeddings=False, first_k_dense_replace=1,
                mlp_layer_types=None, moe_intermediate_size=1024, num_experts=64, num_experts_per_tok=8,
                num_shared_experts=1)


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    nH, nKV = c["num_attention_heads"], c["num_key_value_heads"]
    hd = c.get("head_dim") or H // nH
    E, K, Im, I = c["num_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["intermediate_size"]
    S = c["num_shared_experts"]
    mlp = c["mlp_layer_types"] or ["dense" if i < c["first_k_dense_replace"] else "sparse" for i in range(L)]
    b = dict(embedding=V * H, lm_head=0 if c["tie_word_embeddings"] else V * H, attention=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, norms=H)
    act_routed = 0
    n_moe = 0
    for i in range(L):
        b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
        b["norms"] += 2 * hd + 2 * H
        if mlp[i] == "dense":
            b["dense_ffn"] += 3 * H * I
        else:
            n_moe += 1
            b["routers"] += E * H
            b["shared_experts"] += 3 * H * Im * S
            b["routed_experts"] += E * 3 * H * Im
            act_routed += K * 3 * H * Im
    total = sum(b.values())
    active = total - b["routed_experts"] + act_routed
    return total, active, b, dict(moe_layers=n_moe, buffers_in_checkpoint=n_moe * E)


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
