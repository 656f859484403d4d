#!/usr/bin/env python3
"""Exact parameter count of nemotron_h configs (NemotronHForCausalLM).

Follows transformers/models/nemotron_h/modeling_nemotron_h.py (same tensors as the
checkpoints' remote code modeling_nemotron_h.py). Standard library only.
MTP (num_nextn_predict_layers, mtp_hybrid_override_pattern): transformers skips the
checkpoint's mtp.* tensors (_keys_to_ignore_on_load_unexpected); vLLM builds them
(vllm/model_executor/models/nemotron_h_mtp.py @ 01ca27739feb, NemotronHMultiTokenPredictor):
one step (asserted) of pattern layers, each a NemotronH decoder layer (its norm and mixer),
enorm + hnorm + eh_proj (2H -> H, no bias) on the first, final_layernorm on the last; the
embedding and lm_head are the target model's.
usage: python3 nemotron_h_count.py nemotron-h-8b.json nemotron-3-nano-30b-a3b.json
"""
import json
import sys

PATTERN = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}


def g(c, k, d=None):
    v = c.get(k)
    return d if v is None else v


def count(c):
    H = c["hidden_size"]
    V = c["vocab_size"]
    pat = c["hybrid_override_pattern"]
    if "num_hidden_layers" in c:
        assert len(pat) == c["num_hidden_layers"], "pattern length != num_hidden_layers"
    kinds = [PATTERN[ch] for ch in pat]
    use_bias = bool(g(c, "use_bias", False))          # Mamba in_proj/out_proj bias
    conv_bias = bool(g(c, "use_conv_bias", True))
    mlp_bias = bool(g(c, "mlp_bias", False))
    attn_bias = bool(g(c, "attention_bias", False))
    # attention
    nq = c["num_attention_heads"]
    nkv = g(c, "num_key_value_heads", nq)
    hd = g(c, "head_dim", g(c, "attention_head_dim", H // nq))
    # mamba2
    nh = g(c, "mamba_num_heads", 128)
    P = g(c, "mamba_head_dim", 64)
    N = g(c, "ssm_state_size", 128)
    G = g(c, "n_groups", 8)
    K = g(c, "conv_kernel", 4)
    I = nh * P                                  # intermediate_size = mamba_num_heads * mamba_head_dim
    conv_dim = I + 2 * G * N
    proj = I + conv_dim + nh                    # in_proj out features
    # moe
    E = g(c, "n_routed_experts", 8)
    topk = g(c, "num_experts_per_tok", 2)
    Im = g(c, "moe_intermediate_size", 7688)
    Is = g(c, "moe_shared_expert_intermediate_size", 7688)
    latent = c.get("moe_latent_size")
    Iffn = g(c, "intermediate_size", 21504)

    b = dict(embedding=0, lm_head=0, mixer_mamba=0, mixer_attention=0, dense_ffn=0,
             routed_experts=0, shared_experts=0, routers=0, latent_proj=0, norms=0, biases=0,
             ssm_other=0)
    active_routed = 0
    buffers = 0
    b["embedding"] = V * H
    b["lm_head"] = 0 if c.get("tie_word_embeddings", False) else V * H
    b["norms"] += H                              # norm_f
    for k in kinds:
        b["norms"] += H                          # NemotronHBlock.norm
        if k == "mamba":
            b["mixer_mamba"] += H * proj + I * H + conv_dim * K   # in_proj, out_proj, conv1d.weight
            b["biases"] += (proj + H if use_bias else 0) + (conv_dim if conv_bias else 0)
            b["ssm_other"] += 3 * nh                               # dt_bias, A_log, D
            b["norms"] += I                                        # gated RMSNorm weight (hidden=I)
        elif k == "attention":
            b["mixer_attention"] += H * nq * hd + 2 * H * nkv * hd + nq * hd * H
            if attn_bias:
                b["biases"] += nq * hd + 2 * nkv * hd + H
        elif k == "mlp":
            b["dense_ffn"] += 2 * H * Iffn                         # up_proj, down_proj (no gate)
            if mlp_bias:
                b["biases"] += Iffn + H
        elif k == "moe":
            d_in = latent if latent is not None else H
            b["routed_experts"] += E * 2 * Im * d_in               # experts.up_proj, experts.down_proj
            active_routed += topk * 2 * Im * d_in
            b["shared_experts"] += 2 * H * Is                      # shared_experts up/down
            if mlp_bias:
                b["biases"] += Is + H
            b["routers"] += E * H                                  # gate.weight
            buffers += E                                           # gate.e_score_correction_bias (buffer)
            if latent is not None:
                b["latent_proj"] += 2 * H * latent
                if mlp_bias:
                    b["biases"] += latent + H
    total = sum(b.values())
    active = total - b["routed_experts"] + active_routed
    mtp = 0
    steps = g(c, "num_nextn_predict_layers", 0)
    if steps:
        one = dict(c, num_nextn_predict_layers=0, hybrid_override_pattern=c["mtp_hybrid_override_pattern"],
                   tie_word_embeddings=True)
        one.pop("num_hidden_layers", None)
        o_total, _, o_b, _, o_buf = count(one)[:5]
        # the pattern's layers and one final norm (count()'s norm_f), no embedding of their own
        mtp = steps * (o_total - o_b["embedding"] + 2 * H + 2 * H * H)  # enorm, hnorm, eh_proj
        buffers += steps * o_buf
    b["mtp"] = mtp
    return total, active, b, kinds, buffers


def main(paths):
    for p in paths:
        c = json.load(open(p))
        total, active, b, kinds, buffers = count(c)
        print(f"== {p}")
        print(f"   layers: {len(kinds)} = " + ", ".join(f"{kinds.count(k)} {k}" for k in ("mamba", "attention", "mlp", "moe") if kinds.count(k)))
        print(f"   total_params  = {total:,} ({total/1e9:.3f}B)")
        print(f"   active_params = {active:,} ({active/1e9:.3f}B)")
        print(f"   active w/o embedding (input table) = {active - b['embedding']:,} ({(active - b['embedding'])/1e9:.3f}B)")
        print(f"   active w/o embedding and lm_head   = {active - b['embedding'] - b['lm_head']:,} ({(active - b['embedding'] - b['lm_head'])/1e9:.3f}B)")
        if b["mtp"]:
            print(f"   mtp_params (outside total) = {b['mtp']:,}; checkpoint = {total + b['mtp']:,}")
        for k, v in b.items():
            if v and k != "mtp":
                print(f"     {k:16s} {v:,}")
        if buffers:
            print(f"   (buffers not counted: e_score_correction_bias {buffers:,})")


if __name__ == "__main__":
    main(sys.argv[1:])
