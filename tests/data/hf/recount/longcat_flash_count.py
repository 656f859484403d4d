#!/usr/bin/env python3
"""Exact parameter count for model_type "longcat_flash" (meituan-longcat/LongCat-Flash-Chat).

Follows transformers/src/transformers/models/longcat_flash/modeling_longcat_flash.py
(LongcatFlashDecoderLayer: 2 x LongcatFlashMLA, 2 x LongcatFlashMLP, 4 RMSNorms and one
shortcut LongcatFlashMoE with zero-computation (identity) experts) and the defaults of
configuration_longcat_flash.py. Standard library only.

Expert layout: by default the routed experts are counted as the checkpoint stores them and as
the first transformers LongCat implementation built them (n_routed_experts real SwiGLU experts, the
zero_expert_num identity experts own no weights). With --hf-packed the script counts what the
current transformers (v5) LongcatFlashExperts allocates: gate_up_proj is
(n_routed_experts + zero_expert_num, 2*I, H) although only the first n_routed_experts rows are
ever used or loaded.

Active parameters vary per token: each token picks moe_topk of the n_routed + zero experts; only
the picks that land on real experts cost parameters. The script prints the range (0 .. moe_topk
real experts) and uses as `active_params` the expectation moe_topk * n_routed / (n_routed + zero)
(= 8 of 12 for LongCat-Flash), which is what the model card's ~27B average corresponds to.

usage: python3 longcat_flash_count.py [--hf-packed] FIXTURE.json [FIXTURE.json ...]
"""
import json
import sys

# LongcatFlashConfig defaults (configuration_longcat_flash.py)
DEFAULTS = dict(
    vocab_size=131072, hidden_size=6144, num_layers=28, num_attention_heads=64,
    tie_word_embeddings=False, attention_bias=False, ffn_hidden_size=12288, q_lora_rank=1536,
    kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128, qk_head_dim=None,
    moe_topk=12, n_routed_experts=512, zero_expert_num=256, expert_ffn_hidden_size=2048,
    router_bias=False,
)

OFFICIAL = {"meituan-longcat/LongCat-Flash-Chat": (560e9, 27e9)}  # card: 560B; 18.6B-31.3B, avg ~27B


def count(cfg, packed=False, n_real=None):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in cfg.items() if not k.startswith("_")})
    H = c["hidden_size"]
    Lb = c["num_layers"]  # blocks; config.num_hidden_layers is rewritten to 2 * num_layers
    nh = c["num_attention_heads"]
    qr = c["q_lora_rank"]
    kvr = c["kv_lora_rank"]
    nope, rope, vd = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    qk = c["qk_head_dim"] or nope + rope
    I = c["ffn_hidden_size"]
    Ie = c["expert_ffn_hidden_size"]
    E = c["n_routed_experts"]
    Z = c["zero_expert_num"] or 0
    K = c["moe_topk"]
    V = c["vocab_size"]
    ab = bool(c["attention_bias"])
    tie = bool(c["tie_word_embeddings"])
    if n_real is None:
        n_real = K * E / (E + Z)

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
    w_exp = 3 * H * Ie
    for _ in range(Lb):
        for _mla in range(2):  # self_attn = ModuleList([LongcatFlashMLA(...) for i in [0, 1]])
            if qr is None:
                add("attention", H * nh * qk)  # q_proj
            else:
                add("attention", H * qr + qr * nh * qk)  # q_a_proj, q_b_proj
                add("norms", qr)  # q_a_layernorm
                if ab:
                    add("biases", qr)
            add("attention", H * (kvr + rope) + kvr * nh * (nope + vd) + nh * vd * H)
            add("norms", kvr)  # kv_a_layernorm
            if ab:
                add("biases", (kvr + rope) + H)  # kv_a_proj_with_mqa.bias, o_proj.bias
        add("dense_ffn", 2 * 3 * H * I)  # mlps = ModuleList([LongcatFlashMLP(config) for _ in [0, 1]])
        add("norms", 4 * H)  # input_layernorm[0..1], post_attention_layernorm[0..1]
        # router.classifier: nn.Linear(H, n_routed + zero, bias=router_bias);
        # router.e_score_correction_bias is an nn.Buffer -> not a parameter
        add("routers", H * (E + Z))
        if c["router_bias"]:
            add("biases", E + Z)
        alloc = E * w_exp
        if packed:
            alloc += Z * 2 * Ie * H  # v5: gate_up_proj (E+Z, 2*Ie, H), down_proj (E, H, Ie)
        add("routed_experts", alloc, round(n_real * w_exp))
    info = dict(blocks=Lb, attention_sublayers=2 * Lb, dense_mlps=2 * Lb, experts=E, zero_experts=Z,
                top_k=K, expected_real_experts=round(n_real, 3), tied=tie, hf_packed=packed)
    return tot, act, info


def report(path, packed):
    with open(path) as fh:
        cfg = json.load(fh)
    tot, act, info = count(cfg, packed)
    T, A = sum(tot.values()), sum(act.values())
    K = dict(DEFAULTS, **cfg)["moe_topk"]
    lo = sum(count(cfg, packed, 0)[1].values())
    hi = sum(count(cfg, packed, K)[1].values())
    emb = tot["embedding"]
    print(f"== {path} (model_type={cfg.get('model_type')}) ==")
    print(f"total_params  {T:,}  ({T/1e9:.3f} B)")
    print(f"active_params {A:,}  ({A/1e9:.3f} B)  [expected real experts per token]")
    print(f"  active range: {lo:,} (0 real experts) .. {hi:,} ({K} real experts)")
    print(f"  same without the input embedding (lm_head only): {(lo-emb//2)/1e9:.3f} .. {(hi-emb//2)/1e9:.3f} B,"
          f" expected {(A-emb//2)/1e9:.3f} B")
    print("  " + ", ".join(f"{k}={v}" for k, v in info.items()))
    print(f"  {'part':<16}{'total':>18}{'active':>18}")
    for k in tot:
        print(f"  {k:<16}{tot[k]:>18,}{act[k]:>18,}")
    src = cfg.get("_source", "")
    for repo, (ot, oa) in OFFICIAL.items():
        if repo + " " in src:
            print(f"  official {ot/1e9:g}B / ~{oa/1e9:g}B avg -> ratio total {T/ot:.4f}, active {A/oa:.4f}")
    print()


if __name__ == "__main__":
    args = sys.argv[1:]
    packed = "--hf-packed" in args
    files = [a for a in args if a != "--hf-packed"]
    if not files:
        sys.exit(__doc__)
    for p in files:
        report(p, packed)
