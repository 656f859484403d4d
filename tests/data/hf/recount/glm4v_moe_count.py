#!/usr/bin/env python3
"""Exact parameter count for model_type "glm4v_moe" (zai-org GLM-4.5V; GLM-4.6V uses the same class).

Text model (transformers src/transformers/models/glm4v_moe/modeling_glm4v_moe.py) = GLM-4.5-Air layout:
  Glm4vMoeTextAttention: q_proj (H, nH*hd, bias=attention_bias), k_proj/v_proj (H, nKV*hd, bias=attention_bias),
      o_proj (nH*hd, H, bias=False).  No q/k norm in this class (use_qk_norm is not read).
  Glm4vMoeTextDecoderLayer: mlp = Glm4vMoeTextMoE if layer_idx >= first_k_dense_replace else Glm4vMoeTextMLP;
      input_layernorm, post_attention_layernorm RMSNorm(H)
  Glm4vMoeTextMLP: gate_proj, up_proj (H, I), down_proj (I, H), no bias
  Glm4vMoeTextMoE: experts (gate_up_proj (E, 2*Im, H), down_proj (E, H, Im)); gate = Glm4vMoeTextTopkRouter
      (weight (E, H); e_score_correction_bias is an nn.Buffer -> NOT a parameter);
      shared_experts = Glm4vMoeTextMLP(intermediate_size = moe_intermediate_size * n_shared_experts)
  embed_tokens (V, H); norm (H); lm_head (V, H) (tie_word_embeddings False)
  E = n_routed_experts (alias num_local_experts in transformers 5).
Vision tower (Glm4vMoeVisionModel):
  embeddings.position_embedding Embedding((image_size//patch_size)^2, Hv)
  patch_embed.proj Conv3d(in_ch, Hv, k=(tps, ps, ps)) with bias
  blocks x depth: norm1, norm2 RMSNorm(Hv); attn.qkv (Hv, 3Hv, bias=attention_bias); attn.proj (Hv, Hv, no bias);
      mlp (Glm4vMoeisionMlp): gate_proj, up_proj (Hv, out_hidden_size), down_proj (out_hidden_size, Hv), no bias
      (NB: the ViT MLP width is out_hidden_size, not intermediate_size)
  post_conv_layernorm, post_layernorm RMSNorm(Hv)
  downsample Conv2d(Hv, out_hidden_size, k=spatial_merge_size) with bias
  merger: proj (out, out, no bias); post_projection_norm LayerNorm(out) (w+b); gate_proj, up_proj (out, intermediate_size);
      down_proj (intermediate_size, out); no biases
Standard library only.  Usage: python3 glm4v_moe_count.py fixture.json [...]
"""
import json
import sys

TEXT_DEFAULTS = dict(vocab_size=151424, hidden_size=4096, intermediate_size=10944, num_hidden_layers=46,
                     num_attention_heads=96, num_key_value_heads=8, head_dim=None, attention_bias=True,
                     moe_intermediate_size=1408, num_experts_per_tok=8, n_shared_experts=1, n_routed_experts=128,
                     first_k_dense_replace=1)
VISION_DEFAULTS = dict(depth=24, hidden_size=1536, attention_bias=False, num_heads=12, in_channels=3,
                       image_size=336, patch_size=14, spatial_merge_size=2, temporal_patch_size=2,
                       out_hidden_size=4096, intermediate_size=13696)


def text_count(t, tie):
    H, V, L = t["hidden_size"], t["vocab_size"], t["num_hidden_layers"]
    nH, nKV = t["num_attention_heads"], t["num_key_value_heads"]
    hd = t["head_dim"] or H // nH
    E = t.get("num_local_experts", t["n_routed_experts"])
    K, Im, I, S = t["num_experts_per_tok"], t["moe_intermediate_size"], t["intermediate_size"], t["n_shared_experts"]
    ab = 1 if t["attention_bias"] else 0
    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=H, biases=0, other=0)
    act_routed = 0
    n_moe = 0
    for i in range(L):
        b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
        b["biases"] += ab * (nH * hd + 2 * nKV * hd)
        b["norms"] += 2 * H
        if i >= t["first_k_dense_replace"]:
            n_moe += 1
            b["routers"] += E * H
            b["routed_experts"] += E * 3 * H * Im
            b["shared_experts"] += 3 * H * Im * S
            act_routed += K * 3 * H * Im
        else:
            b["dense_ffn"] += 3 * H * I
    total = sum(b.values())
    return total, total - b["routed_experts"] + act_routed, b, n_moe * E


def vision_count(v):
    Hv, D, out, Iv = v["hidden_size"], v["depth"], v["out_hidden_size"], v["intermediate_size"]
    ab = 1 if v["attention_bias"] else 0
    sms = v["spatial_merge_size"]
    pos = (v["image_size"] // v["patch_size"]) ** 2 * Hv
    patch = Hv * v["in_channels"] * v["temporal_patch_size"] * v["patch_size"] ** 2 + Hv
    block = 2 * Hv + (Hv * 3 * Hv + ab * 3 * Hv) + Hv * Hv + 3 * Hv * out
    norms = 2 * Hv
    down = out * Hv * sms * sms + out
    merger = out * out + 2 * out + 3 * out * Iv
    return dict(position_embedding=pos, patch_embed=patch, blocks=D * block, post_norms=norms,
                downsample=down, merger=merger)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        t = dict(TEXT_DEFAULTS)
        t.update(cfg.get("text_config", {}))
        v = dict(VISION_DEFAULTS)
        v.update(cfg.get("vision_config", {}))
        tie = cfg.get("tie_word_embeddings", False)
        total, active, b, buf = text_count(t, tie)
        vis = vision_count(v)
        vt = sum(vis.values())
        print(f"== {p} (model_type={cfg.get('model_type')})")
        print(f"total_params  {total:,}   (text model incl. embeddings + lm_head)")
        print(f"active_params {active:,}   (text model per token)")
        for k, val in b.items():
            print(f"  {k:15s} {val:,}")
        print(f"  [buffers_not_counted: e_score_correction_bias] {buf:,}")
        print(f"vision_tower  {vt:,}")
        for k, val in vis.items():
            print(f"  {k:18s} {val:,}")
        print(f"total_with_vision  {total + vt:,}")
        print(f"total_with_vision_and_buffers (= safetensors tensor count) {total + vt + buf:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
