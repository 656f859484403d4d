#!/usr/bin/env python3
"""Exact parameter count for model_type "skywork_moe" (Skywork-MoE-Base).

Usage: python3 skywork_moe_count.py skywork-moe-base.json
Standard library only.  Written from Skywork's vLLM model file vllm/model_executor/models/skywork_moe.py
(vllm-project/vllm @f6f19827475ad40d89bdd41b02c595b9b2371427), not from moeplan:
  SkyworkAttention: head_dim = hidden_size // num_heads; qkv_proj (q nq*hd, k and v nkv*hd, from d),
    o_proj nq*hd -> d, no biases; RoPE builds no weight.
  SkyworkMoE: gate = ReplicatedLinear(d, E, bias=False); w13 E x 2I x d, w2 E x d x I
    (I = intermediate_size); fused_moe picks num_experts_per_tok of them.
  SkyworkDecoderLayer: input_layernorm, post_attention_layernorm (d each); every layer MoE.
  SkyworkModel: embed_tokens V x d, final norm d; SkyworkForCausalLM: lm_head V x d.
Active: all but the (E - K) unused experts of each layer.
"""
import json
import sys

for p in sys.argv[1:]:
    c = json.load(open(p))
    d, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    nq = c["num_attention_heads"]
    nkv = c.get("num_key_value_heads") or nq
    hd = d // nq
    I, E, K = c["intermediate_size"], c["num_local_experts"], c["num_experts_per_tok"]
    attn = L * (d * nq * hd + 2 * d * nkv * hd + nq * hd * d)
    experts = L * E * 3 * d * I
    routers = L * E * d
    norms = L * 2 * d + d
    emb = V * d * (1 if c.get("tie_word_embeddings", False) else 2)
    unused = L * (E - K) * 3 * d * I
    total = attn + experts + routers + norms + emb
    print("== %s" % p)
    print("attention = %d" % attn)
    print("experts   = %d" % experts)
    print("routers   = %d" % routers)
    print("norms     = %d" % norms)
    print("embedding = %d" % emb)
    print("N   = %d" % (attn + experts))
    print("N_a = %d" % (attn + experts - unused))
    print("total_params  = %d (%.3fB)" % (total, total / 1e9))
    print("active_params = %d (%.3fB)" % (total - unused, (total - unused) / 1e9))
