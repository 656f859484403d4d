#!/usr/bin/env python3
"""Exact parameter count for model_type "qwen3_vl_moe" (Qwen3-VL-30B-A3B / 235B-A22B).

Text model (transformers src/transformers/models/qwen3_vl_moe/modular_qwen3_vl_moe.py, which reuses qwen3_moe):
  Qwen3VLMoeTextDecoderLayer(Qwen3MoeDecoderLayer): mlp = SparseMoeBlock if
      (i not in mlp_only_layers) and num_experts > 0 and (i + 1) % decoder_sparse_step == 0 else Qwen3MoeMLP(intermediate_size)
  Qwen3VLMoeTextAttention: q_proj (H, nH*hd), k/v_proj (H, nKV*hd), o_proj (nH*hd, H), bias=attention_bias;
      q_norm, k_norm RMSNorm(hd)
  Qwen3VLMoeTextTopKRouter: weight (E, H)  (softmax, top-k, renormalised)
  Qwen3VLMoeTextExperts(Qwen3MoeExperts): gate_up_proj (E, 2*Im, H), down_proj (E, H, Im)
  input_layernorm, post_attention_layernorm (H); final norm (H); embed_tokens (V, H);
  lm_head (V, H) unless tie_word_embeddings (top-level flag; False for both public checkpoints)
Vision tower (src/transformers/models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLVisionModel):
  patch_embed.proj Conv3d(in_ch, Hv, k=(tps, ps, ps), bias=True); pos_embed Embedding(num_position_embeddings, Hv)
  blocks x depth: norm1, norm2 LayerNorm(Hv) (w+b); attn.qkv Linear(Hv, 3Hv, bias); attn.proj Linear(Hv, Hv, bias);
      mlp.linear_fc1 (Hv, Iv, bias), linear_fc2 (Iv, Hv, bias)
  merger (use_postshuffle_norm=False): norm LayerNorm(Hv); linear_fc1 (Hm, Hm); linear_fc2 (Hm, out_hidden) ; Hm = Hv*sms^2
  deepstack_merger_list x len(deepstack_visual_indexes) (use_postshuffle_norm=True): norm LayerNorm(Hm); fc1 (Hm,Hm); fc2 (Hm,out)
  rotary inv_freq buffers are not parameters.
Standard library only.  Usage: python3 qwen3_vl_moe_count.py fixture.json [...]
"""
import json
import sys

TEXT_DEFAULTS = dict(vocab_size=151936, hidden_size=2048, intermediate_size=5632, num_hidden_layers=24,
                     num_attention_heads=16, num_key_value_heads=16, head_dim=None, attention_bias=False,
                     decoder_sparse_step=1, moe_intermediate_size=1408, num_experts_per_tok=4, num_experts=60,
                     mlp_only_layers=[])
VISION_DEFAULTS = dict(depth=27, hidden_size=1152, intermediate_size=4304, num_heads=16, in_channels=3,
                       patch_size=16, spatial_merge_size=2, temporal_patch_size=2, out_hidden_size=3584,
                       num_position_embeddings=2304, deepstack_visual_indexes=[8, 16, 24])


def text_count(t, tie):
    H, V, L = t["hidden_size"], t["vocab_size"], t["num_hidden_layers"]
    nH, nKV = t["num_attention_heads"], t["num_key_value_heads"] or t["num_attention_heads"]
    hd = t["head_dim"] or H // nH
    E, K, Im, I = t["num_experts"], t["num_experts_per_tok"], t["moe_intermediate_size"], t["intermediate_size"]
    ab = 1 if t["attention_bias"] else 0
    b = dict(embedding=V * H, lm_head=0 if tie else V * H, attention=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=H, biases=0, other=0)
    act_routed = 0
    for i in range(L):
        b["attention"] += H * nH * hd + 2 * H * nKV * hd + nH * hd * H
        b["biases"] += ab * (nH * hd + 2 * nKV * hd + H)
        b["norms"] += 2 * hd + 2 * H
        if i not in t["mlp_only_layers"] and E > 0 and (i + 1) % t["decoder_sparse_step"] == 0:
            b["routers"] += E * H
            b["routed_experts"] += E * 3 * H * Im
            act_routed += K * 3 * H * Im
        else:
            b["dense_ffn"] += 3 * H * I
    total = sum(b.values())
    return total, total - b["routed_experts"] + act_routed, b


def vision_count(v):
    Hv, Iv, D = v["hidden_size"], v["intermediate_size"], v["depth"]
    Hm = Hv * v["spatial_merge_size"] ** 2
    out = v["out_hidden_size"]
    patch = Hv * v["in_channels"] * v["temporal_patch_size"] * v["patch_size"] ** 2 + Hv
    pos = v["num_position_embeddings"] * Hv
    block = 2 * 2 * Hv + (Hv * 3 * Hv + 3 * Hv) + (Hv * Hv + Hv) + (Hv * Iv + Iv) + (Iv * Hv + Hv)
    merger = 2 * Hv + (Hm * Hm + Hm) + (Hm * out + out)
    deep = len(v["deepstack_visual_indexes"]) * (2 * Hm + (Hm * Hm + Hm) + (Hm * out + out))
    return dict(patch_embed=patch, pos_embed=pos, blocks=D * block, merger=merger, deepstack_mergers=deep)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        t = dict(TEXT_DEFAULTS)
        t.update(cfg.get("text_config", {}))
        v = dict(VISION_DEFAULTS)
        v.update(cfg.get("vision_config", {}))
        tie = cfg.get("tie_word_embeddings", False)
        total, active, b = text_count(t, tie)
        vis = vision_count(v)
        vt = sum(vis.values())
        print(f"== {p} (model_type={cfg.get('model_type')})")
        print(f"total_params  {total:,}   (text model incl. embeddings + lm_head)")
        print(f"active_params {active:,}   (text model per token)")
        for k, val in b.items():
            print(f"  {k:15s} {val:,}")
        print(f"vision_tower  {vt:,}")
        for k, val in vis.items():
            print(f"  {k:15s} {val:,}")
        print(f"total_with_vision  {total + vt:,}")
        print(f"active_with_vision {active + vt:,}   (if the whole vision tower is counted as always-on)")


if __name__ == "__main__":
    main(sys.argv[1:])
