#!/usr/bin/env python3
"""Exact parameter count for model_type "lfm2_moe" (LiquidAI LFM2-MoE, e.g. LFM2-8B-A1B).

Follows transformers src/transformers/models/lfm2_moe/modeling_lfm2_moe.py:
  Lfm2MoeModel: embed_tokens (V,H); layers; embedding_norm (H)  [applied at the END, i.e. final norm]
  Lfm2MoeForCausalLM: lm_head (V,H), tied to embed_tokens when tie_word_embeddings
    (config: tie_word_embeddings = kwargs.get("tie_embedding", tie_word_embeddings), default True)
  Lfm2MoeDecoderLayer: self_attn if layer_types[i] == "full_attention" else conv;
    feed_forward = Lfm2MoeMLP(intermediate_size) if i < num_dense_layers else Lfm2MoeSparseMoeBlock;
    operator_norm (H), ffn_norm (H)
  Lfm2MoeAttention: q_proj (H, nH*hd), k_proj/v_proj (H, nKV*hd), out_proj (nH*hd, H), all bias=False;
    q_layernorm (hd), k_layernorm (hd);  hd = head_dim or H // nH
  Lfm2MoeShortConv: conv = Conv1d(H, H, kernel=conv_L_cache, groups=H, bias=conv_bias) -> weight (H,1,L);
    in_proj (H, 3H, bias=conv_bias); out_proj (H, H, bias=conv_bias)
  Lfm2MoeMLP: w1, w3 (H, I), w2 (I, H), no bias
  Lfm2MoeSparseMoeBlock: gate (E, H) no bias; experts.gate_up_proj (E, 2*Im, H); experts.down_proj (E, H, Im);
    expert_bias is a registered BUFFER (use_expert_bias) -> not counted.
Standard library only.  Usage: python3 lfm2_moe_count.py fixture.json [...]
"""
import json
import sys

DEFAULTS = dict(vocab_size=65536, hidden_size=2048, intermediate_size=7168, moe_intermediate_size=1792,
                num_hidden_layers=32, tie_word_embeddings=True, num_attention_heads=32, num_key_value_heads=8,
                conv_bias=False, conv_L_cache=3, num_dense_layers=2, num_experts_per_tok=4, num_experts=32,
                use_expert_bias=True, layer_types=None)


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    if "tie_embedding" in cfg:
        c["tie_word_embeddings"] = cfg["tie_embedding"]
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    nH, nKV = c["num_attention_heads"], c["num_key_value_heads"]
    hd = c.get("head_dim") or H // nH
    E, K, Im, I = c["num_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["intermediate_size"]
    Lc, cb = c["conv_L_cache"], 1 if c["conv_bias"] else 0
    lt = c["layer_types"]
    if lt is None:
        raise SystemExit("layer_types is required (the modeling code indexes config.layer_types)")
    b = dict(embedding=V * H, lm_head=0 if c["tie_word_embeddings"] else V * H, attention=0, conv_mixer=0,
             dense_ffn=0, routed_experts=0, shared_experts=0, routers=0, norms=H, biases=0, other=0)
    act_routed = 0
    n_attn = n_conv = n_moe = 0
    for i in range(L):
        if lt[i] == "full_attention":
            n_attn += 1
            b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
            b["norms"] += 2 * hd  # q_layernorm, k_layernorm
        else:
            n_conv += 1
            b["conv_mixer"] += H * Lc + H * 3 * H + H * H
            b["biases"] += cb * (H + 3 * H + H)
        b["norms"] += 2 * H  # operator_norm, ffn_norm
        if i < c["num_dense_layers"]:
            b["dense_ffn"] += 3 * H * I
        else:
            n_moe += 1
            b["routers"] += E * H
            b["routed_experts"] += E * 3 * H * Im
            act_routed += K * 3 * H * Im
    total = sum(b.values())
    active = total - b["routed_experts"] + act_routed
    return total, active, b, dict(attn_layers=n_attn, conv_layers=n_conv, moe_layers=n_moe,
                                  buffers_not_counted=(n_moe * E if c["use_expert_bias"] else 0))


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
