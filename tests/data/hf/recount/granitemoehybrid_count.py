#!/usr/bin/env python3
"""Exact parameter count for HF `granitemoehybrid` (GraniteMoeHybridForCausalLM,
Granite 4.0 H-*) config.json files.

Follows transformers/models/granitemoehybrid/modeling_granitemoehybrid.py:

  layer i is a Mamba2 mixer if layers_block_type[i] == "mamba" else attention;
  layers_block_type = layer_types or ["mamba"] * num_hidden_layers (config property)

  GraniteMoeHybridMambaLayer (Mamba2 / SSD):
    I = int(mamba_expand * H); n_heads = mamba_n_heads; d_head = mamba_d_head ("auto" -> I // n_heads)
    conv_dim = I + 2 * mamba_n_groups * mamba_d_state
    conv1d    Conv1d(conv_dim, conv_dim, k=mamba_d_conv, groups=conv_dim, bias=mamba_conv_bias)
              -> weight conv_dim*1*d_conv (+ bias conv_dim)
    in_proj   Linear(H, I + conv_dim + n_heads, bias=mamba_proj_bias)
    dt_bias [n_heads], A_log [n_heads], D [n_heads]
    norm      GraniteMoeHybridRMSNormGated(I)  (weight [I])
    out_proj  Linear(I, H, bias=mamba_proj_bias)
  GraniteMoeHybridAttention: q/k/v/o Linear, bias=attention_bias, hd = head_dim or H // n_h
  every layer: block_sparse_moe (only if num_local_experts > 0):
                 input_linear [E, 2*I_e, H], output_linear [E, H, I_e], router Linear(H, E, no bias)
               shared_mlp (ALWAYS built): Linear(H, 2*S) + Linear(S, H), no bias
               input_layernorm, post_attention_layernorm RMSNorm(H)
  embed_tokens Embedding(V, H); norm RMSNorm(H); lm_head Linear(H, V), tied if tie_word_embeddings.

Mamba2 forward FLOPs per token beyond projections are also printed (see granitemoehybrid.md).
Standard library only.  Usage: granitemoehybrid_count.py CONFIG.json [...]
"""
import json
import sys


def count(cfg):
    if cfg.get("model_type") != "granitemoehybrid":
        raise SystemExit(f"unsupported model_type {cfg.get('model_type')!r}")
    H = cfg.get("hidden_size", 4096)
    Ie = cfg.get("intermediate_size", 11008)
    S = cfg.get("shared_intermediate_size", 1024)
    L = cfg.get("num_hidden_layers", 32)
    nh = cfg.get("num_attention_heads", 32)
    nkv = cfg.get("num_key_value_heads") or nh
    hd = cfg.get("head_dim") or H // nh
    E = cfg.get("num_local_experts", 8)
    k = cfg.get("num_experts_per_tok", 2)
    V = cfg.get("vocab_size", 32000)
    tied = cfg.get("tie_word_embeddings", False)
    abias = cfg.get("attention_bias", False)
    types = cfg.get("layer_types") or ["mamba"] * L
    if len(types) != L:
        raise SystemExit("layer_types length != num_hidden_layers")

    mI = int(cfg.get("mamba_expand", 2) * H)
    mh = cfg.get("mamba_n_heads", 128)
    dhead = cfg.get("mamba_d_head", "auto")
    dhead = mI // mh if dhead == "auto" else dhead
    if dhead * mh != mI:
        raise SystemExit("mamba_d_head * mamba_n_heads != mamba_expand * hidden_size")
    G = cfg.get("mamba_n_groups", 1)
    N = cfg.get("mamba_d_state", 256)
    K = cfg.get("mamba_d_conv", 4)
    cbias = cfg.get("mamba_conv_bias", True)
    pbias = cfg.get("mamba_proj_bias", False)
    conv_dim = mI + 2 * G * N
    proj = mI + conv_dim + mh

    b = dict(embedding=0, attention_mixer=0, dense_ffn=0, routed_experts=0, shared_experts=0,
             routers=0, norms=0, biases=0, other=0)
    a = dict(b)

    def add(key, tot, act):
        b[key] += tot
        a[key] += act

    n_m = sum(1 for t in types if t == "mamba")
    n_a = L - n_m
    # Mamba2 mixer
    mw = H * proj + conv_dim * K + mI * H
    add("attention_mixer", n_m * mw, n_m * mw)
    mb = (conv_dim if cbias else 0) + ((proj + H) if pbias else 0)
    add("biases", n_m * mb, n_m * mb)
    add("other", n_m * 3 * mh, n_m * 3 * mh)           # dt_bias, A_log, D
    add("norms", n_m * mI, n_m * mI)                   # gated RMSNorm weight
    # attention
    aw = H * nh * hd + 2 * H * nkv * hd + nh * hd * H
    add("attention_mixer", n_a * aw, n_a * aw)
    ab = (nh * hd + 2 * nkv * hd + H) if abias else 0
    add("biases", n_a * ab, n_a * ab)
    # FFN part, every layer
    sh = 3 * H * S
    if E > 0:
        add("routed_experts", L * E * 3 * H * Ie, L * min(k, E) * 3 * H * Ie)
        add("routers", L * H * E, L * H * E)
        add("shared_experts", L * sh, L * sh)
    else:                                              # dense model: shared_mlp is the only FFN
        add("dense_ffn", L * sh, L * sh)
    add("norms", L * 2 * H + H, L * 2 * H + H)
    emb = V * H if tied else 2 * V * H
    add("embedding", emb, emb)

    # Mamba2 per-token FLOPs beyond in_proj/out_proj (decode recurrence, HF torch_forward):
    # dB=dt*B (I*N), dBx (I*N), state*dA + dBx (2*I*N), y=state@C (2*I*N), D skip (2*I)
    # + depthwise causal conv (2*conv_dim*K) ; softplus/exp/gated-norm O(I) ignored
    scan = 6 * mI * N + 2 * mI
    conv = 2 * conv_dim * K
    info = dict(mamba_layers=n_m, attention_layers=n_a, mamba_intermediate=mI, mamba_d_head=dhead,
                conv_dim=conv_dim, in_proj_out=proj,
                ssm_flops_per_token_per_layer=scan, conv_flops_per_token_per_layer=conv,
                ssm_state_elems_per_layer=mh * dhead * N)
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
