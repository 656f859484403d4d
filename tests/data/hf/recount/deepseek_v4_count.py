#!/usr/bin/env python3
"""Exact parameter count for model_type "deepseek_v4" (DeepSeek-V4-Flash).

Usage: python3 deepseek_v4_count.py deepseek-v4-flash.json
Standard library only. Module tree: transformers models/deepseek_v4/modeling_deepseek_v4.py
(DeepseekV4Model: embed_tokens, layers, norm, hc_head; DeepseekV4ForCausalLM: lm_head, untied)
with the layer types of configuration_deepseek_v4.py (legacy compress_ratios 0 / 4 / 128 ->
sliding / compressed_sparse / heavily_compressed attention; num_hash_layers hash_moe layers first).
Buffers, not parameters: every TopKRouter's e_score_correction_bias (E) and every HashRouter's
tid2eid (vocab x top_k integers); both are stored in the checkpoint.
MTP (skipped by transformers, _keys_to_ignore_on_load_unexpected "mtp.*"): DeepSeek's inference
model.py MTPBlock(layer_id = num_hidden_layers + i) = a Block with compress_ratios[layer_id] plus
e_proj, h_proj (d x d each), enorm, hnorm, norm (d each) and hc_head_fn (hc x hc.d), hc_head_base
(hc), hc_head_scale (1); embed and head are the main model's (no copy in the checkpoint).
With expert_dtype "fp4", also prints the checkpoint's bytes under the dtypes block_bytes names:
DeepSeek-V4-Flash's model.safetensors.index.json states total_size 159609485896 (an rtp_llm test
in the GitHub code index, "Hermetic stdlib tests for the independent DSV4 checkpoint oracle", pins it with
69187 tensor names), which this sum hits to the byte: a check of the tensor layout, MTP included.
"""
import json
import math
import sys


def layer(c, ratio, hash_layer):
    """(params by part, active routed, buffers) of one decoder layer / MTP block."""
    H, nh, hd = c["hidden_size"], c["num_attention_heads"], c["head_dim"]
    qr, og, olr, hc = c["q_lora_rank"], c["o_groups"], c["o_lora_rank"], c["hc_mult"]
    E, K, Im, S = c["n_routed_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["n_shared_experts"]
    ih, idim = c["index_n_heads"], c["index_head_dim"]
    p = dict(attn_matrices=0, norms=0, sinks=0, position_bias=0, hc=0, router=0,
             experts=0, shared=0, bf16_matrices=0)
    # DeepseekV4Attention
    p["attn_matrices"] += H * qr + qr * nh * hd + H * hd          # q_a_proj, q_b_proj, kv_proj
    p["attn_matrices"] += (nh * hd // og) * (og * olr)             # o_a_proj (grouped: weight og.olr x nh.hd/og)
    p["attn_matrices"] += og * olr * H                             # o_b_proj
    p["norms"] += qr + hd                                          # q_a_norm, kv_norm (q_b_norm unweighted)
    p["sinks"] += nh
    if ratio == 4:      # DeepseekV4CSACompressor: two series (2 hd) + DeepseekV4Indexer
        p["bf16_matrices"] += 2 * H * 2 * hd                       # kv_proj, gate_proj
        p["position_bias"] += ratio * 2 * hd
        p["norms"] += hd
        p["bf16_matrices"] += 2 * H * 2 * idim + H * ih            # indexer kv_proj, gate_proj, scorer.weights_proj
        p["position_bias"] += ratio * 2 * idim
        p["norms"] += idim
        p["attn_matrices"] += qr * ih * idim                       # indexer q_b_proj
    elif ratio == 128:  # DeepseekV4HCACompressor
        p["bf16_matrices"] += 2 * H * hd
        p["position_bias"] += ratio * hd
        p["norms"] += hd
    elif ratio != 0:
        raise SystemExit("compress ratio %r is none of 0, 4, 128" % ratio)
    p["norms"] += 2 * H                                            # input_layernorm, post_attention_layernorm
    p["hc"] += 2 * ((2 + hc) * hc * hc * H + (2 + hc) * hc + 3)    # attn_hc, ffn_hc: fn, base, scale
    # DeepseekV4SparseMoeBlock: experts, router (weight E x H), shared_experts (one MLP of Im)
    p["experts"] += E * 3 * H * Im
    p["router"] += E * H
    p["shared"] += S * 3 * H * Im
    active_routed = K * 3 * H * Im
    buffers = c["vocab_size"] * K if hash_layer else E            # tid2eid or e_score_correction_bias
    return p, active_routed, buffers


def count(c):
    H, V, L, hc = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"], c["hc_mult"]
    ratios = c["compress_ratios"]
    n_hash = c.get("num_hash_layers", 3)
    tot = dict()
    active = 0
    buffers = 0
    for i in range(L):
        p, act, buf = layer(c, ratios[i], i < n_hash)
        for k, v in p.items():
            tot[k] = tot.get(k, 0) + v
        active += sum(p.values()) - p["experts"] + act
        buffers += buf
    emb = V * H * (1 if c.get("tie_word_embeddings", False) else 2)
    head = H + hc * hc * H + hc + 1                                # norm, hc_head (hc_fn, hc_base, hc_scale)
    total = emb + head + sum(tot.values())
    active += emb + head
    mtp = 0
    for i in range(c.get("num_nextn_predict_layers", 0) or 0):
        p, _, buf = layer(c, ratios[L + i], False)
        mtp += sum(p.values()) + 2 * H * H + 3 * H + hc * hc * H + hc + 1
        buffers += buf
    return tot, total, active, mtp, buffers


def fp8_bytes(rows, cols):
    """e4m3 values and one ue8m0 scale byte per 128 x 128 block (inference model.py: scale_fmt ue8m0)."""
    return rows * cols + math.ceil(rows / 128) * math.ceil(cols / 128)


def fp4_bytes(rows, cols):
    """e2m1 values, two a byte, and one ue8m0 scale byte per 32 along the input (model.py, fp4 Linear)."""
    return rows * cols // 2 + rows * (cols // 32)


def block_bytes(c, ratio, hash_layer):
    """Checkpoint bytes of one Block: fp8 attention and shared-expert linears, fp4 experts, bf16
    compressor / indexer kv, gate and weights projections, router and norms, fp32 sinks,
    position biases (ape), hyper-connection tensors and e_score_correction_bias, int64 tid2eid."""
    H, nh, hd = c["hidden_size"], c["num_attention_heads"], c["head_dim"]
    qr, og, olr, hc = c["q_lora_rank"], c["o_groups"], c["o_lora_rank"], c["hc_mult"]
    E, K, Im, S = c["n_routed_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["n_shared_experts"]
    ih, idim = c["index_n_heads"], c["index_head_dim"]
    b = fp8_bytes(qr, H) + fp8_bytes(nh * hd, qr) + fp8_bytes(hd, H)
    b += fp8_bytes(og * olr, nh * hd // og) + fp8_bytes(H, og * olr)
    b += 2 * (qr + hd) + 4 * nh
    if ratio == 4:
        b += 2 * (2 * 2 * hd * H) + 4 * ratio * 2 * hd + 2 * hd
        b += 2 * (2 * 2 * idim * H) + 4 * ratio * 2 * idim + 2 * idim + fp8_bytes(ih * idim, qr) + 2 * ih * H
    elif ratio == 128:
        b += 2 * (2 * hd * H) + 4 * ratio * hd + 2 * hd
    b += 2 * 2 * H + 4 * 2 * ((2 + hc) * hc * hc * H + (2 + hc) * hc + 3)
    b += E * (2 * fp4_bytes(Im, H) + fp4_bytes(H, Im)) + 2 * E * H
    b += S * (2 * fp8_bytes(Im, H) + fp8_bytes(H, Im))
    b += c["vocab_size"] * K * 8 if hash_layer else E * 4
    return b


def checkpoint_bytes(c):
    H, V, L, hc = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"], c["hc_mult"]
    head = 4 * (hc * hc * H + hc + 1)
    b = 2 * V * H * 2 + 2 * H + head                               # embed, head (bf16), norm, hc_head (fp32)
    n_hash = c.get("num_hash_layers", 3)
    for i in range(L):
        b += block_bytes(c, c["compress_ratios"][i], i < n_hash)
    for i in range(c.get("num_nextn_predict_layers", 0) or 0):
        b += block_bytes(c, c["compress_ratios"][L + i], False) + 2 * fp8_bytes(H, H) + 3 * 2 * H + head
    return b


def main(paths):
    for path in paths:
        c = json.load(open(path))
        tot, total, active, mtp, buffers = count(c)
        n_matrix = tot["attn_matrices"] + tot["bf16_matrices"] + tot["experts"] + tot["shared"]
        print("== %s (%s)" % (path, c["model_type"]))
        for k in sorted(tot):
            print("  %-16s %16d" % (k, tot[k]))
        print("N (matrices, no embeddings)   %16d" % n_matrix)
        print("total_params (as built)       %16d  (%.3fB)" % (total, total / 1e9))
        print("active_params (as built)      %16d  (%.3fB)" % (active, active / 1e9))
        print("mtp (not in totals)           %16d" % mtp)
        print("buffers (e_bias, tid2eid)     %16d" % buffers)
        print("checkpoint params (no buffers)%16d" % (total + mtp))
        if c.get("expert_dtype") == "fp4":
            print("checkpoint bytes              %16d" % checkpoint_bytes(c))


if __name__ == "__main__":
    main(sys.argv[1:])
