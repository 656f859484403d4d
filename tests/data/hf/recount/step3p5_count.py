#!/usr/bin/env python3
"""Exact parameter count for model_type "step3p5" (Step-3.5-Flash) and "step3p7" (Step-3.7-Flash,
its text_config), text model only.

Usage: python3 step3p5_count.py step-3.5-flash.json step-3.7-flash.json
Standard library only.  Written from vLLM's model code (vllm-project/vllm
vllm/model_executor/models/step3p5.py @01b50b9e and step3p5_mtp.py @12c9ac28), not from moeplan:
  Step3p5DecoderLayer(layer_idx): attention kind layer_types[layer_idx] (without layer_types:
    sliding when layer_idx % 2 == 0); where layer_types[layer_idx] equals
    attention_other_setting["attention_type"] its num_attention_heads, num_attention_groups and
    head_dim replace the config's (each when truthy).
  Step3p5Attention: qkv_proj d -> (N_q + 2 N_kv) hd (bias = attention_bias), o_proj N_q hd -> d,
    q_norm, k_norm GemmaRMSNorm(hd), g_proj d -> N_q (no bias) with use_head_wise_attn_gate.
  MoE when layer_idx in moe_layers_enum (else range(1, num_hidden_layers)): FusedMoEBlock with gate
    d -> E (fp32, no bias), router_bias (E), experts E x (gate, up: f x d; down d x f),
    share_expert Step3p5MLP(share_expert_dim); else mlp = Step3p5MLP(intermediate_size).
    input_layernorm, post_attention_layernorm (d each).
  Step3p5Model: embed_tokens V x d, norm d; Step3p5ForCausalLM: lm_head V x d (its own).
  MTP (Step3p5AMultiTokenPredictorLayer, layer_idx = num_hidden_layers + i): enorm, hnorm (d each),
    eh_proj 2d -> d, shared_head (norm d, head V x d), mtp_block = Step3p5DecoderLayer(layer_idx).
Active: every weight but the experts a token does not use, (E - K) x 3 f d per MoE layer.
The KV cache (bf16) per token: 2 N_kv hd x 2 bytes per layer; sliding layers keep sliding_window
tokens at most.
"""
import json
import sys


def per_layer(c, i):
    d = c["hidden_size"]
    types = c.get("layer_types") or []
    kind = types[i] if types else ("sliding_attention" if i % 2 == 0 else "full_attention")
    nq, nkv, hd = c["num_attention_heads"], c["num_attention_groups"], c["head_dim"]
    o = c.get("attention_other_setting")
    if o and types and kind == o["attention_type"]:
        nq = o.get("num_attention_heads") or nq
        nkv = o.get("num_attention_groups") or nkv
        hd = o.get("head_dim") or hd
    attn = d * (nq + 2 * nkv) * hd + nq * hd * d
    if c.get("use_head_wise_attn_gate"):
        attn += d * nq
    bias = (nq + 2 * nkv) * hd if c.get("attention_bias") else 0
    norms = 2 * hd + 2 * d
    enum = c.get("moe_layers_enum")
    moe_idx = [int(x) for x in enum.strip().split(",")] if enum is not None else list(range(1, c["num_hidden_layers"]))
    moe = dense = shared = router = unused = 0
    if i in moe_idx:
        E, K, f = c["moe_num_experts"], c["moe_top_k"], c["moe_intermediate_size"]
        moe = E * 3 * f * d
        unused = (E - K) * 3 * f * d
        shared = 3 * d * c["share_expert_dim"]
        router = d * E + E  # gate + router_bias
    else:
        dense = 3 * d * c["intermediate_size"]
    window = c.get("sliding_window") if kind == "sliding_attention" else None
    return dict(attn=attn, bias=bias, norms=norms, moe=moe, dense=dense, shared=shared, router=router,
                unused=unused, kv_bytes=2 * nkv * hd * 2, window=window, kind=kind, nq=nq)


for p in sys.argv[1:]:
    cfg = json.load(open(p))
    c = cfg.get("text_config", cfg)
    d, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    parts = dict(attn=0, bias=0, norms=0, moe=0, dense=0, shared=0, router=0, unused=0)
    full_kv = 0
    windowed = {}
    for i in range(L):
        x = per_layer(c, i)
        for k in parts:
            parts[k] += x[k]
        if x["window"]:
            windowed[x["window"]] = windowed.get(x["window"], 0) + x["kv_bytes"]
        else:
            full_kv += x["kv_bytes"]
    embed = 2 * V * d  # embed_tokens and lm_head
    total = embed + sum(v for k, v in parts.items() if k != "unused") + d  # + final norm
    N = parts["attn"] + parts["moe"] + parts["dense"] + parts["shared"]
    mtp = heads = 0
    mtp_kv = []
    for i in range(c.get("num_nextn_predict_layers", 0)):
        x = per_layer(c, L + i)
        block = x["attn"] + x["bias"] + x["norms"] + x["moe"] + x["dense"] + x["shared"] + x["router"]
        mtp += block + 2 * d + 2 * d * d + d  # enorm, hnorm, eh_proj, shared_head.norm
        heads += V * d                        # shared_head.head
        mtp_kv.append((x["kind"], x["kv_bytes"], x["window"]))
    print("== %s (%s)" % (p, cfg["model_type"]))
    for k in ("attn", "moe", "dense", "shared", "router", "bias"):
        print("  %-8s %16d" % (k, parts[k]))
    print("  %-8s %16d  (the final norm included)" % ("norms", parts["norms"] + d))
    print("total_params         %16d  (%.3fB)  [embedding and lm_head included]" % (total, total / 1e9))
    print("active_params        %16d  (%.3fB)" % (total - parts["unused"], (total - parts["unused"]) / 1e9))
    print("N (non-embedding)    %16d   N_a %d" % (N, N - parts["unused"]))
    print("mtp modules          %16d   head copies %d" % (mtp, heads))
    print("checkpoint total     %16d  (%.3fB)" % (total + mtp + heads, (total + mtp + heads) / 1e9))
    print("kv bytes per token (bf16): full layers %d, windowed %s; MTP layers %s" % (full_kv, windowed, mtp_kv))
