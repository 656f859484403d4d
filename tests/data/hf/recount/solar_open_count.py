#!/usr/bin/env python3
"""Exact parameter count for model_type "solar_open" (upstage Solar-Open-100B).

transformers src/transformers/models/solar_open/modular_solar_open.py:
  SolarOpenDecoderLayer(LlamaDecoderLayer): self.mlp = SolarOpenMoE(config) on EVERY layer
      (intermediate_size and first_k_dense_replace are AttributeError() in SolarOpenConfig -> ignored even if present)
  SolarOpenAttention(LlamaAttention): q_proj (H, nH*hd, bias=attention_bias), k_proj/v_proj (H, nKV*hd, bias=attention_bias);
      o_proj forced nn.Linear(nH*hd, H, bias=False); no q/k norm.  attention_bias default False.
  SolarOpenMoE(Glm4MoeMoE): experts gate_up_proj (E, 2*Im, H), down_proj (E, H, Im); gate = Glm4MoeTopkRouter weight (E, H)
      (+ e_score_correction_bias BUFFER, not counted); shared_experts = MLP(H, Im * n_shared_experts)
  input_layernorm, post_attention_layernorm (H); final norm (H); embed_tokens (V, H); lm_head (V, H) (untied)
Standard library only.  Usage: python3 solar_open_count.py fixture.json [...]
"""
import json
import sys

DEFAULTS = dict(vocab_size=196608, hidden_size=4096, num_hidden_layers=48, num_attention_heads=64,
                num_key_value_heads=8, head_dim=128, tie_word_embeddings=False, attention_bias=False,
                moe_intermediate_size=1280, num_experts_per_tok=8, n_shared_experts=1, n_routed_experts=128)


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    nH, nKV, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    E = c.get("num_local_experts", c["n_routed_experts"])
    K, Im, S = c["num_experts_per_tok"], c["moe_intermediate_size"], c["n_shared_experts"]
    ab = 1 if c["attention_bias"] else 0
    b = dict(embedding=V * H, lm_head=0 if c["tie_word_embeddings"] else V * H,
             attention=L * (H * nH * hd + 2 * H * nKV * hd + nH * hd * H), dense_ffn=0,
             routed_experts=L * E * 3 * H * Im, shared_experts=L * 3 * H * Im * S, routers=L * E * H,
             norms=L * 2 * H + H, biases=L * ab * (nH * hd + 2 * nKV * hd), other=0)
    total = sum(b.values())
    active = total - b["routed_experts"] + L * K * 3 * H * Im
    return total, active, b, L * E


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        total, active, b, buf = count(cfg)
        print(f"== {p} (model_type={cfg.get('model_type')})")
        print(f"total_params  {total:,}")
        print(f"active_params {active:,}")
        for k, v in b.items():
            print(f"  {k:15s} {v:,}")
        print(f"  [buffers_not_counted: e_score_correction_bias] {buf:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
