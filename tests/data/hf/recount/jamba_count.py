#!/usr/bin/env python3
"""Exact parameter count for HF `jamba` (JambaForCausalLM) config.json files.

Follows transformers/models/jamba/modeling_jamba.py + configuration_jamba.py:

  layers_block_type[i]  = "attention" if i % attn_layer_period == attn_layer_offset else "mamba"
  layers_num_experts[i] = num_experts if i % expert_layer_period == expert_layer_offset else 1
  ffn = JambaSparseMoeBlock if layers_num_experts[i] > 1 else JambaMLP

  JambaMambaMixer (Mamba v1):  I = mamba_expand * H, R = mamba_dt_rank ("auto" -> ceil(H/16)), N = mamba_d_state
    conv1d   Conv1d(I, I, k=mamba_d_conv, groups=I, bias=mamba_conv_bias)  -> I*d_conv (+I)
    in_proj  Linear(H, 2*I, bias=mamba_proj_bias)
    x_proj   Linear(I, R + 2*N, bias=False)
    dt_proj  Linear(R, I, bias=True)
    A_log [I, N], D [I]
    out_proj Linear(I, H, bias=mamba_proj_bias)
    dt_layernorm RMSNorm(R), b_layernorm RMSNorm(N), c_layernorm RMSNorm(N)
  JambaAttention: q/k/v/o Linear bias=False, hd = H // n_h
  JambaMLP: gate/up Linear(H, F), down Linear(F, H), no bias
  JambaSparseMoeBlock: router Linear(H, E, no bias) + E x JambaMLP
  per layer: input_layernorm, pre_ff_layernorm RMSNorm(H)
  embed_tokens Embedding(V, H); final_layernorm RMSNorm(H); lm_head Linear(H, V), tied if tie_word_embeddings.

Standard library only.  Usage: jamba_count.py CONFIG.json [...]
"""
import json
import math
import sys


def count(cfg):
    if cfg.get("model_type") != "jamba":
        raise SystemExit(f"unsupported model_type {cfg.get('model_type')!r}")
    H = cfg.get("hidden_size", 4096)
    F = cfg.get("intermediate_size", 14336)
    L = cfg.get("num_hidden_layers", 32)
    nh = cfg.get("num_attention_heads", 32)
    nkv = cfg.get("num_key_value_heads") or nh
    hd = H // nh
    E = cfg.get("num_experts", 16)
    k = cfg.get("num_experts_per_tok", 2)
    ap, ao = cfg.get("attn_layer_period", 8), cfg.get("attn_layer_offset", 4)
    ep, eo = cfg.get("expert_layer_period", 2), cfg.get("expert_layer_offset", 1)
    V = cfg.get("vocab_size", 65536)
    tied = cfg.get("tie_word_embeddings", False)
    I = cfg.get("mamba_expand", 2) * H
    R = cfg.get("mamba_dt_rank", "auto")
    R = math.ceil(H / 16) if R == "auto" else R
    N = cfg.get("mamba_d_state", 16)
    K = cfg.get("mamba_d_conv", 4)
    cbias = cfg.get("mamba_conv_bias", True)
    pbias = cfg.get("mamba_proj_bias", False)

    b = dict(embedding=0, attention_mixer=0, dense_ffn=0, routed_experts=0, shared_experts=0,
             routers=0, norms=0, biases=0, other=0)
    a = dict(b)

    def add(key, tot, act):
        b[key] += tot
        a[key] += act

    mlp = 3 * H * F
    n_attn = n_mamba = n_moe = 0
    for i in range(L):
        if i % ap == ao:
            n_attn += 1
            w = H * nh * hd + 2 * H * nkv * hd + nh * hd * H
            add("attention_mixer", w, w)
        else:
            n_mamba += 1
            w = I * K + H * 2 * I + I * (R + 2 * N) + R * I + I * H
            add("attention_mixer", w, w)
            bb = (I if cbias else 0) + I + ((2 * I + H) if pbias else 0)   # conv bias, dt_proj bias, proj biases
            add("biases", bb, bb)
            add("other", I * N + I, I * N + I)                             # A_log, D
            add("norms", R + 2 * N, R + 2 * N)                             # dt/b/c inner RMSNorms
        if (E if i % ep == eo else 1) > 1:
            n_moe += 1
            add("routed_experts", E * mlp, min(k, E) * mlp)
            add("routers", H * E, H * E)
        else:
            add("dense_ffn", mlp, mlp)
        add("norms", 2 * H, 2 * H)
    add("norms", H, H)
    emb = V * H if tied else 2 * V * H
    add("embedding", emb, emb)

    # Mamba-1 per-token FLOPs beyond in_proj/x_proj/dt_proj/out_proj (slow_forward recurrence):
    # discrete_A=exp(A*dt) (I*N mul + I*N exp), discrete_B=dt*B (I*N), deltaB_u (I*N),
    # state = dA*state + dBu (2*I*N), y = state@C (2*I*N), D skip (2*I), gate (I)
    scan = 7 * I * N + 3 * I
    conv = 2 * I * K
    info = dict(mamba_layers=n_mamba, attention_layers=n_attn, moe_layers=n_moe, dense_layers=L - n_moe,
                d_inner=I, dt_rank=R, ssm_flops_per_token_per_layer=scan, exp_per_token_per_layer=I * N,
                conv_flops_per_token_per_layer=conv, ssm_state_elems_per_layer=I * N)
    return b, a, info


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, a, info = count(cfg)
        tot, ac = sum(b.values()), sum(a.values())
        print(f"== {p} ({cfg.get('model_type')})")
        print(f"total_params  {tot:,}  ({tot/1e9:.4f} B)")
        print(f"active_params {ac:,}  ({ac/1e9:.4f} B)")
        print(f"{'part':<16}{'total':>18}{'active':>18}")
        for key in b:
            print(f"{key:<16}{b[key]:>18,}{a[key]:>18,}")
        print("mixer info: " + ", ".join(f"{k}={v:,}" for k, v in info.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
