#!/usr/bin/env python3
"""Exact parameter count for model_type "ernie4_5_moe" (Ernie4_5_MoeForCausalLM).

Follows transformers/src/transformers/models/ernie4_5_moe/modeling_ernie4_5_moe.py
(and configuration_ernie4_5_moe.py for the defaults of absent keys). Standard library only.

usage: python3 ernie4_5_moe_count.py FIXTURE.json [FIXTURE.json ...]
"""
import json
import sys

# Ernie4_5_MoeConfig.__init__ defaults (configuration_ernie4_5_moe.py)
DEFAULTS = dict(
    vocab_size=103424, hidden_size=2560, intermediate_size=12288, num_hidden_layers=28,
    num_attention_heads=20, num_key_value_heads=4, tie_word_embeddings=True, use_bias=False,
    moe_intermediate_size=1536, moe_k=6, moe_num_experts=64, moe_num_shared_experts=2,
    moe_layer_start_index=1, moe_layer_end_index=-1, moe_layer_interval=1,
)

# Officially stated sizes (model cards), keyed by the repo named in "_source".
OFFICIAL = {
    "baidu/ERNIE-4.5-21B-A3B-PT": (21e9, 3e9),
    "baidu/ERNIE-4.5-300B-A47B-PT": (300e9, 47e9),
}


def first(v, pick):
    # the VL configs carry [text, vision] lists; the text model uses min(start)/max(end)
    return pick(v) if isinstance(v, (list, tuple)) else v


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H = c["hidden_size"]
    I = c["intermediate_size"]
    L = c["num_hidden_layers"]
    nh = c["num_attention_heads"]
    nkv = c["num_key_value_heads"]
    # Ernie4_5_MoeAttention: head_dim = getattr(config, "head_dim", hidden_size // num_attention_heads)
    hd = c.get("head_dim") or H // nh
    V = c["vocab_size"]
    bias = bool(c["use_bias"])
    E = first(c["moe_num_experts"], lambda v: v[0])
    K = c["moe_k"]
    Im = first(c["moe_intermediate_size"], lambda v: v[0])
    S = c["moe_num_shared_experts"] or 0
    start = first(c["moe_layer_start_index"], min)
    end = first(c["moe_layer_end_index"], max)
    # configuration: moe_layer_end_index = num_hidden_layers - 1 if moe_layer_end_index == -1
    end = L - 1 if end == -1 else end
    interval = c["moe_layer_interval"]
    tie = bool(c["tie_word_embeddings"])

    tot = {k: 0 for k in ("embedding", "attention", "dense_ffn", "routed_experts", "shared_experts",
                          "routers", "norms", "biases", "other")}
    act = dict(tot)

    def add(key, n, active_n=None):
        tot[key] += n
        act[key] += n if active_n is None else active_n

    def mlp(inter):
        # Ernie4_5_MoeMLP: gate_proj, up_proj (H->inter), down_proj (inter->H), bias=config.use_bias
        w = 3 * H * inter
        b = (2 * inter + H) if bias else 0
        return w, b

    # embed_tokens: nn.Embedding(V, H); lm_head: nn.Linear(H, V, bias=config.use_bias)
    add("embedding", V * H)
    if not tie:
        add("embedding", V * H)
    if bias:
        add("biases", V)  # lm_head.bias exists even when the weight is tied
    add("norms", H)  # final norm
    n_moe = 0
    for i in range(L):
        # attention: q (H -> nh*hd), k,v (H -> nkv*hd), o (nh*hd -> H), all bias=use_bias
        add("attention", H * nh * hd + 2 * H * nkv * hd + nh * hd * H)
        if bias:
            add("biases", nh * hd + 2 * nkv * hd + H)
        add("norms", 2 * H)  # input_layernorm, post_attention_layernorm
        is_moe = ((i + 1) % interval == 0) and start <= i <= end
        if is_moe:
            n_moe += 1
            w, b = mlp(Im)
            add("routed_experts", E * w, K * w)
            if bias:
                add("biases", E * b, K * b)
            add("routers", H * E)  # gate: nn.Linear(H, E, bias=False, dtype=float32)
            add("other", E)  # moe_statics.e_score_correction_bias: nn.Parameter(1, E), requires_grad=False
            if S > 0:
                w, b = mlp(Im * S)  # shared_experts = MLP(config, intermediate_size * moe_num_shared_experts)
                add("shared_experts", w)
                if bias:
                    add("biases", b)
        else:
            w, b = mlp(I)
            add("dense_ffn", w)
            if bias:
                add("biases", b)
    info = dict(layers=L, moe_layers=n_moe, dense_layers=L - n_moe, experts=E, top_k=K,
                shared=S, head_dim=hd, tied=tie)
    return tot, act, info


def report(path):
    with open(path) as f:
        cfg = json.load(f)
    tot, act, info = count(cfg)
    T, A = sum(tot.values()), sum(act.values())
    print(f"== {path} (model_type={cfg.get('model_type')}) ==")
    print(f"total_params  {T:,}  ({T/1e9:.3f} B)")
    print(f"active_params {A:,}  ({A/1e9:.3f} B)")
    print("  " + ", ".join(f"{k}={v}" for k, v in info.items()))
    print(f"  {'part':<16}{'total':>18}{'active':>18}")
    for k in tot:
        print(f"  {k:<16}{tot[k]:>18,}{act[k]:>18,}")
    src = cfg.get("_source", "")
    for repo, (ot, oa) in OFFICIAL.items():
        if repo + " " in src or src.endswith(repo):
            print(f"  official {ot/1e9:g}B / {oa/1e9:g}B -> ratio total {T/ot:.4f}, active {A/oa:.4f}")
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        report(p)
