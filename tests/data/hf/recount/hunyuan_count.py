#!/usr/bin/env python3
"""Exact parameter count for model_type "hunyuan" (Tencent-Hunyuan-Large, HunYuanForCausalLM).

Follows the checkpoint's remote code models/modeling_hunyuan.py (Tencent-Hunyuan-Large GitHub
release; the same file ships in the HF repo): HunYuanAttention with cross-layer attention (CLA),
HunYuanMoE (shared_mlp + 16 experts + HunYuanTopKGate), HunYuanForCausalLM.
Not for "hunyuan_v1_moe" / "hunyuan_v1_dense" (Hunyuan-A13B etc.), which are other classes.
Standard library only.

usage: python3 hunyuan_count.py FIXTURE.json [FIXTURE.json ...]
"""
import json
import sys

# HunYuanConfig defaults as used by the remote code (absent keys)
DEFAULTS = dict(
    num_key_value_heads=None, tie_word_embeddings=False, attention_bias=False, use_qk_norm=False,
    use_cla=False, cla_share_factor=1, num_experts=1, use_mixed_mlp_moe=False, num_shared_expert=1,
    moe_topk=1, use_pack_kv=False,
)

OFFICIAL = {"tencent/Tencent-Hunyuan-Large": (389e9, 52e9)}


def scalar(c, k):
    v = c[k]
    if isinstance(v, (list, tuple)):
        raise SystemExit(f"{k} is a per-layer list: that is the hunyuan_v1_moe format, not 'hunyuan'")
    return v


def count(cfg):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H = c["hidden_size"]
    I = c["intermediate_size"]
    L = c["num_hidden_layers"]
    nh = c["num_attention_heads"]
    nkv = c["num_key_value_heads"] or nh
    hd = H // nh  # HunYuanAttention: self.head_dim = self.hidden_size // self.num_heads
    V = c["vocab_size"]
    ab = bool(c["attention_bias"])
    E = scalar(c, "num_experts")
    K = scalar(c, "moe_topk")
    S = scalar(c, "num_shared_expert")
    mixed = bool(c["use_mixed_mlp_moe"])
    cla = bool(c["use_cla"])
    f = c["cla_share_factor"]
    tie = bool(c["tie_word_embeddings"])

    tot = {k: 0 for k in ("embedding", "attention", "dense_ffn", "routed_experts", "shared_experts",
                          "routers", "norms", "biases", "other")}
    act = dict(tot)

    def add(key, n, active_n=None):
        tot[key] += n
        act[key] += n if active_n is None else active_n

    add("embedding", V * H)  # embed_tokens
    if not tie:
        add("embedding", V * H)  # lm_head: nn.Linear(H, V, bias=False)
    add("norms", H)  # model.norm
    kv_layers = 0
    for i in range(L):
        # attention_type = 'cross' if use_cla and layer_idx % cla_share_factor != 0 else 'self'
        self_kv = not (cla and i % f != 0)
        add("attention", 2 * H * nh * hd)  # q_proj, o_proj
        if ab:
            add("biases", nh * hd + H)
        if self_kv:  # k_proj + v_proj (or packed kv_proj: same count)
            kv_layers += 1
            add("attention", 2 * H * nkv * hd)
            if ab:
                add("biases", 2 * nkv * hd)
        if c["use_qk_norm"]:
            add("norms", 2 * hd)  # query_layernorm, key_layernorm: HunYuanRMSNorm(head_dim)
        add("norms", 2 * H)  # input_layernorm, post_attention_layernorm
        mlp = 3 * H * I  # HunYuanMLP gate/up/down, bias=False; experts use config.intermediate_size
        if E > 1:
            add("routed_experts", E * mlp, K * mlp)
            add("routers", H * E)  # gate.wg: nn.Linear(H, num_experts, bias=False, float32)
            if mixed:
                add("shared_experts", 3 * H * I * S)  # shared_mlp: intermediate_size * num_shared_expert
        else:
            add("dense_ffn", mlp)
    info = dict(layers=L, kv_projection_layers=kv_layers, experts=E, top_k=K, shared=S if mixed else 0,
                head_dim=hd, tied=tie)
    return tot, act, info


def report(path):
    with open(path) as fh:
        cfg = json.load(fh)
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
        if repo + " " in src:
            print(f"  official {ot/1e9:g}B / {oa/1e9:g}B -> ratio total {T/ot:.4f}, active {A/oa:.4f}")
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        report(p)
