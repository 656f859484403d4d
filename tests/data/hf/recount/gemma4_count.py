#!/usr/bin/env python3
"""Exact parameter count for model_type "gemma4" (its text_config, gemma4_text), text model only.

Usage: python3 gemma4_count.py gemma-4-31b-it.json gemma-4-26b-a4b-it.json [--checkpoint-total N]
Standard library only.  Written from transformers' modeling_gemma4.py (huggingface/transformers,
commit 0246b4f3335464614ef1de66531f9131a44ec801; the fixture's printout says transformers 5.7.0):
  Gemma4TextAttention: a layer's head_dim is global_head_dim on full_attention layers (when set),
    head_dim on sliding ones; with attention_k_eq_v a full layer has num_global_key_value_heads and
    no v_proj (values are the keys); q_proj d -> N_q*hd, k_proj d -> N_kv*hd, o_proj N_q*hd -> d,
    q_norm and k_norm of hd (v_norm has no weight: with_scale=False); kv-shared layers (the last
    num_kv_shared_layers) build no k/v/k_norm.
  Gemma4TextMLP: gate, up, down of intermediate_size (use_double_wide_mlp doubles it on kv-shared
    layers; false here).
  Gemma4TextDecoderLayer: four norms of d; layer_scalar is a buffer (stored in the checkpoint, not
    a parameter); with enable_moe_block a router (proj d x E, scale d, per_expert_scale E), experts
    (gate_up E x 2f x d, down E x d x f) and three more norms of d; per-layer inputs when
    hidden_size_per_layer_input > 0 (refused here: not in the 31B fixture).
  Gemma4TextModel: embed_tokens V x d (tied head), final norm d.
Active: every weight but the experts a token does not use, (E - top_k_experts) x 3·f·d in each
layer with the MoE block (the router, its scales and the norms score or touch every token).
Also, with --checkpoint-total, the vision tower and embed_vision of the same file are added
(Gemma4VisionModel as the fixture's printout lists its tensors) and compared with the total the
checkpoint report gives (31,273,088,876 for gemma-4-31B-it).
"""
import json
import sys

args = sys.argv[1:]
stated = None
if "--checkpoint-total" in args:
    i = args.index("--checkpoint-total")
    stated = int(args[i + 1])
    del args[i:i + 2]

for p in args:
    cfg = json.load(open(p))
    c = cfg.get("text_config", cfg)
    d, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    nq = c["num_attention_heads"]
    assert not c.get("hidden_size_per_layer_input"), "per-layer inputs not recounted"
    assert not c.get("num_kv_shared_layers"), "kv sharing not recounted"
    attn = mlp = norms = moe = 0
    kv_bytes_full = kv_bytes_window = 0  # bf16 K and V per token, by layer kind
    windowed = 0
    for t in c["layer_types"]:
        full = t == "full_attention"
        hd = c["global_head_dim"] if full and c.get("global_head_dim") else c["head_dim"]
        alt = bool(c.get("attention_k_eq_v")) and full
        nkv = c["num_global_key_value_heads"] if alt else c["num_key_value_heads"]
        attn += d * nq * hd + d * nkv * hd + (0 if alt else d * nkv * hd) + nq * hd * d
        norms += 2 * hd + 4 * d
        mlp += 3 * d * c["intermediate_size"]
        if c.get("enable_moe_block"):
            E, f = c["num_experts"], c["moe_intermediate_size"]
            moe += E * 3 * f * d + d * E + d + E + 3 * d
        # the cache keeps K and V (values = keys on k_eq_v layers, still cached apart)
        if full:
            kv_bytes_full += 2 * nkv * hd * 2
        else:
            kv_bytes_window += 2 * nkv * hd * 2
            windowed += 1
    total = V * d + attn + mlp + moe + norms + d
    unused = 0
    if c.get("enable_moe_block"):
        unused = L * (c["num_experts"] - c["top_k_experts"]) * 3 * c["moe_intermediate_size"] * d
    print("== %s (%s)" % (p, cfg["model_type"]))
    print("attention            %16d" % attn)
    print("dense mlp            %16d" % mlp)
    print("moe block            %16d  (experts, router, its scales, 3 norms a layer)" % moe)
    print("norms                %16d" % (norms + d))
    print("total_params         %16d  (%.3fB)  [embedding included, tied]" % (total, total / 1e9))
    print("active_params        %16d  (%.3fB)" % (total - unused, (total - unused) / 1e9))
    print("non-embedding N      %16d" % (total - V * d))
    print("kv bytes per token (bf16): full layers %d, windowed layers %d (%d layers, window %d)"
          % (kv_bytes_full, kv_bytes_window, windowed, c["sliding_window"]))
    if stated is not None:
        v = cfg["vision_config"]
        h, f, n = v["hidden_size"], v["intermediate_size"], v["num_hidden_layers"]
        vhd = v["head_dim"]
        # per encoder layer: q, k, v, o (h x h), gate/up/down (h x f), 4 norms of h, q_norm, k_norm of head_dim
        vision = n * (4 * h * h + 3 * h * f + 4 * h + 2 * vhd)
        vision += 3 * v["patch_size"] ** 2 * h  # patch_embedder.input_proj (768 x h)
        vision += 2 * v["position_embedding_size"] * h  # position_embedding_table [2, 10240, h]
        vision += 2 * h  # std_bias, std_scale
        vision += h * d  # embed_vision.embedding_projection
        buffers = L  # layer_scalar, one a layer
        checkpoint = total + vision + buffers
        print("vision tower + embed_vision %d, layer_scalar buffers %d" % (vision, buffers))
        print("checkpoint total     %16d  stated %d  difference %d" % (checkpoint, stated, checkpoint - stated))
