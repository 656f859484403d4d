#!/usr/bin/env python3
"""Exact parameter count for model_type "flex_olmo" (allenai FlexOlmo-7x7B-1T and the Flex-*-2x7B-1T models).

transformers src/transformers/models/flex_olmo/modular_flex_olmo.py:
  FlexOlmoAttention(Olmo2Attention): q_proj (H, nH*hd), k_proj/v_proj (H, nKV*hd), o_proj (nH*hd, H), bias=attention_bias;
      q_norm = RMSNorm(nH*hd), k_norm = RMSNorm(nKV*hd)   (OLMo-2 style: norm over the whole projection, not per head)
  FlexOlmoDecoderLayer(OlmoeDecoderLayer): post_attention_layernorm (H), post_feedforward_layernorm (H);
      `del self.input_layernorm` (post-norm, OLMo-2 style); every layer is MoE (no dense/sparse pattern keys)
  FlexOlmoSparseMoeBlock(OlmoeSparseMoeBlock): gate = FlexOlmoTopKRouter weight (E, H), softmax top-k, norm_topk_prob;
      experts: gate_up_proj (E, 2*I, H), down_proj (E, H, I)   (expert width = intermediate_size)
  FlexOlmoModel(MixtralModel): embed_tokens (V, H), norm (H); FlexOlmoForCausalLM(OlmoeForCausalLM): lm_head (V, H)
  FlexOlmoConfig defaults: vocab 100352, H 4096, I 11008, L 32, nH 32, nKV None->nH, E 7, top-k 5,
      tie_word_embeddings False, attention_bias False.
Standard library only.  Usage: python3 flex_olmo_count.py fixture.json [...]
"""
import json
import sys

DEFAULTS = dict(vocab_size=100352, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                num_attention_heads=32, num_key_value_heads=None, head_dim=None, tie_word_embeddings=False,
                attention_bias=False, num_experts_per_tok=5, num_experts=7)


def count(cfg, top_k=None):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H, V, L, I = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"], c["intermediate_size"]
    nH = c["num_attention_heads"]
    nKV = c["num_key_value_heads"] or nH
    hd = c["head_dim"] or H // nH
    E = c.get("num_local_experts", c["num_experts"])
    K = top_k if top_k is not None else c["num_experts_per_tok"]
    ab = 1 if c["attention_bias"] else 0
    b = dict(embedding=V * H, lm_head=0 if c["tie_word_embeddings"] else V * H, attention=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, norms=H, biases=0, other=0)
    for _ in range(L):
        b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
        b["biases"] += ab * (nH * hd + 2 * nKV * hd + H)
        b["norms"] += nH * hd + nKV * hd + 2 * H
        b["routers"] += E * H
        b["routed_experts"] += E * 3 * H * I
    total = sum(b.values())
    active = total - b["routed_experts"] + L * K * 3 * H * I
    return total, active, b, K, E


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        total, active, b, K, E = count(cfg)
        print(f"== {p} (model_type={cfg.get('model_type')})")
        print(f"total_params  {total:,}")
        print(f"active_params {active:,}   (top-{K} of {E} experts)")
        for k, v in b.items():
            print(f"  {k:15s} {v:,}")
        for k2 in range(1, E + 1):
            print(f"  [active if num_experts_per_tok={k2}] {count(cfg, k2)[1]:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
