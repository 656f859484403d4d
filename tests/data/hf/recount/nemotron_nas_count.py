#!/usr/bin/env python3
"""Exact parameter count of nemotron-nas configs (DeciLMForCausalLM, e.g.
nvidia/Llama-3_3-Nemotron-Super-49B-v1).

Follows the checkpoint's remote code modeling_decilm.py: per layer block_configs[i]
  attention: no_op -> nothing (no input_layernorm either); replace_with_linear -> Linear(H,H);
             else GQA q/k/v/o with num_key_value_heads = num_attention_heads // n_heads_in_group
  ffn:       no_op -> nothing (no post_attention_layernorm); replace_with_linear -> Linear(H,H);
             else SwiGLU gate/up/down with intermediate = _ffn_mult_to_intermediate_size(ffn_mult, H)
Standard library only.  usage: python3 nemotron_nas_count.py nemotron-super-49b.json
"""
import json
import sys


def _find_multiple(n, k):
    if n % k == 0:
        return n
    return n + k - (n % k)


def _ffn_mult_to_intermediate_size(ffn_mult, n_embd):
    intermediate_size = int(2 * ffn_mult * n_embd / 3)
    return _find_multiple(intermediate_size, 256)


def count(c):
    H, V = c["hidden_size"], c["vocab_size"]
    nq = c["num_attention_heads"]
    hd = c.get("head_dim") or H // nq
    ab = bool(c.get("attention_bias", False))
    mb = bool(c.get("mlp_bias", False))
    blocks = c["block_configs"]
    assert len(blocks) == c["num_hidden_layers"]
    b = dict(embedding=V * H, lm_head=0 if c.get("tie_word_embeddings", False) else V * H,
             attention=0, linear_attention=0, ffn=0, linear_ffn=0, norms=H, biases=0)
    stats = dict(attn=0, attn_noop=0, attn_linear=0, ffn=0, ffn_noop=0, ffn_linear=0)
    inter = {}
    for blk in blocks:
        a, f = blk["attention"], blk["ffn"]
        if not a.get("no_op", False):
            b["norms"] += H                                   # input_layernorm
            if a.get("replace_with_linear", False):
                b["linear_attention"] += H * H                # self_attn.linear_attn (bias=False)
                stats["attn_linear"] += 1
            else:
                nkv = nq // a["n_heads_in_group"]
                b["attention"] += H * nq * hd + 2 * H * nkv * hd + nq * hd * H
                if ab:
                    b["biases"] += nq * hd + 2 * nkv * hd + H
                stats["attn"] += 1
        else:
            stats["attn_noop"] += 1
        if not f.get("no_op", False):
            b["norms"] += H                                   # post_attention_layernorm
            if f.get("replace_with_linear", False):
                b["linear_ffn"] += H * H                      # mlp.linear_mlp (bias=False)
                stats["ffn_linear"] += 1
            else:
                I = _ffn_mult_to_intermediate_size(f["ffn_mult"], H)
                inter[f["ffn_mult"]] = (I, inter.get(f["ffn_mult"], (I, 0))[1] + 1)
                b["ffn"] += 3 * H * I                         # gate_proj, up_proj, down_proj
                if mb:
                    b["biases"] += 2 * I + H
                stats["ffn"] += 1
        else:
            stats["ffn_noop"] += 1
    total = sum(b.values())
    return total, b, stats, inter


def main(paths):
    for p in paths:
        c = json.load(open(p))
        total, b, stats, inter = count(c)
        print(f"== {p}")
        print("   blocks: " + ", ".join(f"{k}={v}" for k, v in stats.items()))
        print("   ffn_mult -> intermediate_size (layers): " +
              ", ".join(f"{m}->{I} (x{n})" for m, (I, n) in sorted(inter.items())))
        print(f"   total_params  = {total:,} ({total/1e9:.3f}B)")
        print(f"   active_params = {total:,} (dense: every parameter is used per token)")
        for k, v in b.items():
            if v:
                print(f"     {k:16s} {v:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
