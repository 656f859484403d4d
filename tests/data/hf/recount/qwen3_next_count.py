#!/usr/bin/env python3
"""Exact parameter count for model_type "qwen3_next" (transformers modeling_qwen3_next.py).

Usage: python3 qwen3_next_count.py qwen3-next-80b-a3b.json [...]
Standard library only.  Follows Qwen3NextConfig defaults and the module tree of
Qwen3NextForCausalLM exactly (buffers are not parameters; mtp.* checkpoint tensors are
ignored on load by _keys_to_ignore_on_load_unexpected = [r"^mtp.*"] and are not counted).
"""
import json
import sys

OFFICIAL = {  # card: "80B in total and 3B activated", "Number of Paramaters (Non-Embedding): 79B"
    "https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct": (80e9, 3e9, 79e9),
}

# Qwen3NextConfig class defaults (configuration_qwen3_next.py)
DEFAULTS = {
    "vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 5632,
    "num_hidden_layers": 48, "num_attention_heads": 16, "num_key_value_heads": 2,
    "tie_word_embeddings": False, "attention_bias": False, "head_dim": 256,
    "linear_conv_kernel_dim": 4, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
    "linear_num_key_heads": 16, "linear_num_value_heads": 32, "decoder_sparse_step": 1,
    "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512,
    "num_experts_per_tok": 10, "num_experts": 512, "mlp_only_layers": None, "layer_types": None,
}


def get(cfg, k):
    v = cfg.get(k, DEFAULTS[k])
    return DEFAULTS[k] if v is None and DEFAULTS[k] is not None else v


def layer_types(cfg):
    lt = cfg.get("layer_types")
    L = get(cfg, "num_hidden_layers")
    if lt is None:
        interval = cfg.get("full_attention_interval", 4)   # kwargs.pop("full_attention_interval", 4)
        lt = ["linear_attention" if bool((i + 1) % interval) else "full_attention" for i in range(L)]
    return lt


def count(cfg):
    H = get(cfg, "hidden_size"); V = get(cfg, "vocab_size"); L = get(cfg, "num_hidden_layers")
    nh = get(cfg, "num_attention_heads"); nkv = get(cfg, "num_key_value_heads")
    hd = cfg.get("head_dim", DEFAULTS["head_dim"])  # getattr(config, "head_dim", H // nh); class default 256
    if hd is None:
        hd = H // nh
    bias = get(cfg, "attention_bias")
    # gated DeltaNet dims
    dk = get(cfg, "linear_key_head_dim"); dv = get(cfg, "linear_value_head_dim")
    nk = get(cfg, "linear_num_key_heads"); nv = get(cfg, "linear_num_value_heads")
    K = get(cfg, "linear_conv_kernel_dim")
    key_dim, value_dim = dk * nk, dv * nv
    conv_dim = 2 * key_dim + value_dim
    E = get(cfg, "num_experts"); k = get(cfg, "num_experts_per_tok")
    Im = get(cfg, "moe_intermediate_size"); Is = get(cfg, "shared_expert_intermediate_size")
    I = get(cfg, "intermediate_size"); step = get(cfg, "decoder_sparse_step")
    mlp_only = cfg.get("mlp_only_layers") or []
    tie = get(cfg, "tie_word_embeddings")
    lts = layer_types(cfg)

    b = dict(embedding=0, lm_head=0, attention=0, linear_mixer=0, dense_ffn=0, routed_experts=0,
             shared_experts=0, routers=0, norms=0, biases=0, other=0)
    active_routed = 0
    n_full = n_lin = n_moe = n_dense = 0
    b["embedding"] = V * H                       # embed_tokens
    b["lm_head"] = 0 if tie else V * H            # lm_head (tied -> shared tensor)
    b["norms"] += H                               # model.norm
    for i in range(L):
        b["norms"] += 2 * H                       # input_layernorm, post_attention_layernorm
        if lts[i] == "linear_attention":
            n_lin += 1
            b["linear_mixer"] += H * (2 * key_dim + 2 * value_dim)  # in_proj_qkvz
            b["linear_mixer"] += H * (2 * nv)                       # in_proj_ba
            b["linear_mixer"] += conv_dim * K                       # conv1d.weight [conv_dim,1,K], bias=False
            b["other"] += 2 * nv                                    # dt_bias, A_log
            b["norms"] += dv                                        # norm (RMSNormGated over head_v_dim)
            b["linear_mixer"] += value_dim * H                      # out_proj
        elif lts[i] == "full_attention":
            n_full += 1
            b["attention"] += H * nh * hd * 2 + 2 * H * nkv * hd + nh * hd * H  # q (x2 for gate), k, v, o
            if bias:
                b["biases"] += nh * hd * 2 + 2 * nkv * hd + H
            b["norms"] += 2 * hd                                    # q_norm, k_norm over head_dim
        else:
            raise ValueError("unknown layer type %r" % lts[i])
        if (i not in mlp_only) and (E > 0 and (i + 1) % step == 0):
            n_moe += 1
            b["routers"] += E * H + H                               # gate.weight [E,H]; shared_expert_gate [1,H]
            b["routed_experts"] += E * 3 * H * Im                   # gate_up_proj [E,2Im,H] + down_proj [E,H,Im]
            b["shared_experts"] += 3 * H * Is                       # shared_expert (Qwen3NextMLP)
            active_routed += k * 3 * H * Im
        else:
            n_dense += 1
            b["dense_ffn"] += 3 * H * I
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    return b, total, active, dict(full_attention=n_full, linear_attention=n_lin, moe=n_moe, dense=n_dense)


def main(paths):
    for p in paths:
        cfg = json.load(open(p))
        b, total, active, n = count(cfg)
        emb = b["embedding"] + b["lm_head"]
        print("== %s (%s)" % (p, cfg.get("model_type")))
        print("layers: %s" % n)
        for key, val in b.items():
            print("  %-16s %16d" % (key, val))
        print("total_params        %16d  (%.3fB)" % (total, total / 1e9))
        print("active_params       %16d  (%.3fB)  [embeddings + lm_head included]" % (active, active / 1e9))
        print("active_non_embedding%16d  (%.3fB)" % (active - emb, (active - emb) / 1e9))
        src = cfg.get("_source", "")
        for url, (t, a, ne) in OFFICIAL.items():
            if url + " " in src or src.endswith(url):
                print("official: total %.4gB (ratio %.4f), non-emb total %.4gB (ratio %.4f), active %.4gB "
                      "(ratio incl. emb %.4f, non-emb %.4f)" % (t / 1e9, total / t, ne / 1e9, (total - emb) / ne,
                                                               a / 1e9, active / a, (active - emb) / a))


if __name__ == "__main__":
    main(sys.argv[1:])
