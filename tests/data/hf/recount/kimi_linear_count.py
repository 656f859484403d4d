#!/usr/bin/env python3
"""Exact parameter count of kimi_linear configs (moonshotai/Kimi-Linear-48B-A3B-*).

Follows the checkpoint's remote code modeling_kimi.py (KimiDeltaAttention, KimiMLAAttention,
KimiSparseMoeBlock, KimiMoEGate, KimiMLP, KimiDecoderLayer) and configuration_kimi.py
(is_kda_layer: (layer_idx + 1) in linear_attn_config["kda_layers"], i.e. 1-indexed).
Standard library only.  usage: python3 kimi_linear_count.py kimi-linear-48b-a3b.json
"""
import json
import sys


def g(c, k, d=None):
    v = c.get(k)
    return d if v is None else v


def count(c, gate_bias_is_param=True):
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    la = c.get("linear_attn_config")
    kda_layers = set(la["kda_layers"]) if la else set()
    # KDA dims
    nh = la["num_heads"] if la else 0
    hd = la["head_dim"] if la else 0
    K = la.get("short_conv_kernel_size", 4) if la else 0
    pk = hd * nh                       # projection_k_size (head_k_dim = head_dim)
    pv = hd * nh                       # projection_size
    # MLA dims
    na = c["num_attention_heads"]
    qr = c.get("q_lora_rank")
    kvr = c["kv_lora_rank"]
    nope, rope, vd = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    qk = nope + rope
    # MoE dims
    E = c.get("num_experts")
    topk = c.get("num_experts_per_token")
    Im = c["moe_intermediate_size"]
    ns = c.get("num_shared_experts")
    fk = g(c, "first_k_dense_replace", 0)
    freq = g(c, "moe_layer_freq", 1)

    b = dict(embedding=V * H, lm_head=0 if c.get("tie_word_embeddings", False) else V * H,
             kda_proj=0, kda_conv=0, kda_gates=0, kda_other=0, mla=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, router_bias=0, norms=H)
    active_routed = 0
    kinds = []
    for i in range(L):
        b["norms"] += 2 * H                                   # input_layernorm, post_attention_layernorm
        if (i + 1) in kda_layers:                             # KimiDeltaAttention
            kinds.append("KDA")
            b["kda_proj"] += H * pk * 2 + H * pv              # q_proj, k_proj, v_proj
            b["kda_proj"] += pv * H                           # o_proj
            b["kda_conv"] += (pk + pk + pv) * K               # q/k/v_conv1d (ShortConvolution, depthwise, bias=False)
            b["kda_gates"] += H * hd + hd * pv                # f_a_proj, f_b_proj (forget-gate low rank)
            b["kda_gates"] += H * hd + hd * pv                # g_a_proj, g_b_proj (output-gate low rank)
            b["kda_gates"] += H * nh                          # b_proj (beta)
            b["kda_other"] += nh + pv                         # A_log (1,1,nh,1), dt_bias (projection_size)
            b["norms"] += hd                                  # o_norm = FusedRMSNormGated(head_dim)
        else:                                                 # KimiMLAAttention (q_lora_rank is None)
            kinds.append("MLA")
            if qr is None:
                b["mla"] += H * na * qk                       # q_proj
            else:
                b["mla"] += H * qr + qr * na * qk
                b["norms"] += qr
            b["mla"] += H * (kvr + rope)                      # kv_a_proj_with_mqa
            b["norms"] += kvr                                 # kv_a_layernorm
            b["mla"] += kvr * na * (nope + vd)                # kv_b_proj
            b["mla"] += na * vd * H                           # o_proj
        if E is not None and i >= fk and i % freq == 0:       # KimiSparseMoeBlock
            kinds[-1] += "+MoE"
            b["routed_experts"] += E * 3 * H * Im             # experts[e].w1/w2/w3
            active_routed += topk * 3 * H * Im
            if ns is not None:
                b["shared_experts"] += 3 * H * Im * ns        # shared_experts = KimiMLP(moe_intermediate_size*num_shared_experts)
            b["routers"] += E * H                             # gate.weight
            if gate_bias_is_param:
                b["router_bias"] += E                         # gate.e_score_correction_bias (nn.Parameter in modeling_kimi.py)
        else:
            kinds[-1] += "+MLP"
            b["dense_ffn"] += 3 * H * c["intermediate_size"]  # KimiMLP gate/up/down
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    return total, active, b, kinds


def main(paths):
    for p in paths:
        c = json.load(open(p))
        total, active, b, kinds = count(c)
        print(f"== {p}")
        from collections import Counter
        print("   layers: " + ", ".join(f"{v} {k}" for k, v in Counter(kinds).items()))
        print(f"   total_params  = {total:,} ({total/1e9:.3f}B)")
        print(f"   active_params = {active:,} ({active/1e9:.3f}B)")
        print(f"   active w/o input embedding = {active - b['embedding']:,} ({(active - b['embedding'])/1e9:.3f}B)")
        print(f"   active w/o embedding and lm_head = {active - b['embedding'] - b['lm_head']:,} ({(active - b['embedding'] - b['lm_head'])/1e9:.3f}B)")
        for k, v in b.items():
            if v:
                print(f"     {k:16s} {v:,}")
        print(f"   (router_bias is a buffer in transformers' native kimi_linear; without it total = {total - b['router_bias']:,})")


if __name__ == "__main__":
    main(sys.argv[1:])
