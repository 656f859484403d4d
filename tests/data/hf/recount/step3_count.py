#!/usr/bin/env python3
"""Exact parameter count for stepfun-ai/step3 (model_type "step3_vl", text model "step3_text").

Text model: follows the checkpoint's remote code modeling_step3.py (Step3vAttention = MFA with a
low-rank query, Step3vMoEMLP, Step3vMLP, Step3vDecoderLayer, Step3Model, lm_head in
Step3vForConditionalGeneration). The vision tower (StepCLIPVisionTransformer in the remote
vision_encoder.py, which was not readable here) is counted separately, following vLLM's port
(vllm/model_executor/models/step3_vl.py: Step3VisionTransformer + vit_downsampler,
vit_downsampler2, vit_large_projector), only when the fixture carries a vision_config.
Standard library only.

usage: python3 step3_count.py FIXTURE.json [FIXTURE.json ...]
"""
import json
import sys

# Step3TextConfig defaults (vLLM vllm/transformers_utils/configs/step3_vl.py, which mirrors the
# checkpoint's configuration_step3.py) for keys absent from text_config
TEXT_DEFAULTS = dict(
    hidden_size=7168, intermediate_size=18432, num_attention_heads=64, num_attention_groups=1,
    num_hidden_layers=61, vocab_size=128815, moe_intermediate_size=5120, moe_num_experts=48,
    moe_top_k=3, share_expert_dim=5120, share_q_dim=2048, head_dim=256,
    moe_layers_enum=None,  # remote code: None -> layers 1..L-1 are MoE
)
VISION_DEFAULTS = dict(hidden_size=1792, intermediate_size=3072, output_hidden_size=4096,
                       num_hidden_layers=63, num_attention_heads=16, num_channels=3,
                       image_size=728, patch_size=14)

OFFICIAL = {"stepfun-ai/step3": (316e9, 38e9)}  # card: Total Parameters (LLM) 316B, activated 38B


def moe_layers(enum, L):
    # Step3vDecoderLayer: [int(i) for i in moe_layers_enum.strip().split(',')] or range(1, L)
    if enum is None:
        return set(range(1, L))
    if isinstance(enum, str):
        return {int(x) for x in enum.strip().split(",") if x.strip()}
    return {int(x) for x in enum}


def count_text(t, tie):
    H = t["hidden_size"]
    I = t["intermediate_size"]
    L = t["num_hidden_layers"]
    nh = t["num_attention_heads"]
    hd = t.get("head_dim") or H // nh
    qd = t.get("share_q_dim") or hd  # self.q_size = getattr(config, "share_q_dim", self.head_dim)
    V = t["vocab_size"]
    E = t["moe_num_experts"]
    K = t["moe_top_k"]
    Im = t["moe_intermediate_size"]
    Sd = t["share_expert_dim"]
    ml = moe_layers(t.get("moe_layers_enum"), L)

    tot = {k: 0 for k in ("embedding", "attention", "dense_ffn", "routed_experts", "shared_experts",
                          "routers", "norms", "biases", "other")}
    act = dict(tot)

    def add(key, n, active_n=None):
        tot[key] += n
        act[key] += n if active_n is None else active_n

    add("embedding", V * H)  # embed_tokens
    if not tie:
        add("embedding", V * H)  # lm_head = nn.Linear(config.hidden_size, vocab_size, bias=False)
    add("norms", H)  # final norm
    for i in range(L):
        # Step3vAttention (num_key_value_heads = 1 hard-coded; num_attention_groups is not read):
        # q_proj H->share_q_dim, k_proj H->head_dim, v_proj H->head_dim,
        # inter_norm RMSNorm(share_q_dim), wq share_q_dim->nh*head_dim, o_proj nh*head_dim->H
        add("attention", H * qd + 2 * H * hd + qd * nh * hd + nh * hd * H)
        add("norms", qd + 2 * H)  # inter_norm, input_layernorm, post_attention_layernorm
        if i in ml:
            w = 3 * H * Im  # MoELinear up/gate/down: nn.Parameter(num_experts, out, in)
            add("routed_experts", E * w, K * w)
            add("routers", H * E)  # gate: nn.Linear(H, moe_num_experts, bias=False)
            add("shared_experts", 3 * H * Sd)  # share_expert = Step3vMLP(intermediate_size=share_expert_dim)
        else:
            add("dense_ffn", 3 * H * I)  # mlp = Step3vMLP(intermediate_size=config.intermediate_size)
    info = dict(layers=L, moe_layers=len([i for i in range(L) if i in ml]),
                dense_layers=L - len([i for i in range(L) if i in ml]), experts=E, top_k=K,
                shared=1, head_dim=hd, share_q_dim=qd, tied=tie)
    return tot, act, info


def count_vision(v, text_hidden, stride_bias):
    c = dict(VISION_DEFAULTS)
    c.update(v)
    h, f, o = c["hidden_size"], c["intermediate_size"], c["output_hidden_size"]
    p, img, ch = c["patch_size"], c["image_size"], c["num_channels"]
    n = 0
    n += h  # class_embedding
    n += ch * p * p * h + h  # patch_embedding Conv2d(bias=True)
    n += ((img // p) ** 2 + 1) * h  # position_embedding
    per = (h * 3 * h + 3 * h) + (h * h + h) + (h * f + f) + (f * h + h) + 2 * 2 * h
    n += c["num_hidden_layers"] * per  # qkv, out_proj, fc1, fc2 (all biased), 2 LayerNorms
    proj = (h * o * 2 * 2 + o) + (o * 2 * o * 3 * 3 + 2 * o) + (2 * o * text_hidden)
    proj += text_hidden if stride_bias else 0  # vit_large_projector bias=config.projector_bias
    return n, proj


def report(path):
    with open(path) as fh:
        cfg = json.load(fh)
    top = {k: v for k, v in cfg.items() if not k.startswith("_")}
    t = dict(TEXT_DEFAULTS)
    t.update(top.get("text_config", top))
    tie = bool(top.get("tie_word_embeddings", t.get("tie_word_embeddings", False)))
    tot, act, info = count_text(t, tie)
    T, A = sum(tot.values()), sum(act.values())
    print(f"== {path} (model_type={cfg.get('model_type')}; text model counted) ==")
    print(f"total_params  {T:,}  ({T/1e9:.3f} B)")
    print(f"active_params {A:,}  ({A/1e9:.3f} B)")
    print("  " + ", ".join(f"{k}={v}" for k, v in info.items()))
    print(f"  {'part':<16}{'total':>18}{'active':>18}")
    for k in tot:
        print(f"  {k:<16}{tot[k]:>18,}{act[k]:>18,}")
    if "vision_config" in top:
        vt, pj = count_vision(top["vision_config"], t["hidden_size"], top.get("projector_bias", True))
        print(f"  vision tower (not in total): encoder {vt:,} + projector {pj:,} = {vt+pj:,}")
    src = cfg.get("_source", "")
    for repo, (ot, oa) in OFFICIAL.items():
        if repo + " " in src:
            print(f"  official LLM {ot/1e9:g}B / {oa/1e9:g}B -> ratio total {T/ot:.4f}, active {A/oa:.4f}")
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        report(p)
