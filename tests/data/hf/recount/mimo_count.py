#!/usr/bin/env python3
"""Exact parameter count for model_type "mimo" (Xiaomi MiMo-7B, remote code modeling_mimo.py).

MiMoForCausalLM = Qwen2ForCausalLM over MiMoModel = Qwen2Model + mtp_layers
(num_nextn_predict_layers x MiMoMTPLayers). Qwen2Attention: q, k, v with bias, o without;
Qwen2MLP: gate, up, down without bias; Qwen2RMSNorm weights only. MiMoMTPLayers:
input_layernorm, post_attention_layernorm, token_layernorm, hidden_layernorm,
input_proj Linear(2H, H, bias=False), final_layernorm, self_attn (Qwen2Attention),
mlp (Qwen2MLP). The MTP layers share embed_tokens and lm_head. Standard library only.
usage: python3 mimo_count.py mimo-7b.json
"""
import json
import sys


def count(c):
    H, V, L = c["hidden_size"], c["vocab_size"], c["num_hidden_layers"]
    nh, nkv, I = c["num_attention_heads"], c["num_key_value_heads"], c["intermediate_size"]
    hd = c.get("head_dim") or H // nh
    attn = H * nh * hd + 2 * H * nkv * hd + nh * hd * H          # q, k, v, o weights
    bias = nh * hd + 2 * nkv * hd                                # q, k, v biases
    mlp = 3 * H * I
    layer = attn + bias + mlp + 2 * H                            # + input/post norms
    tied = c.get("tie_word_embeddings", False)
    main = V * H + (0 if tied else V * H) + L * layer + H        # embed, lm_head, layers, norm
    # MiMoMTPLayers: layer's 2 norms are inside `layer`; token, hidden, final norms: 3H; input_proj 2H*H
    mtp_one = layer + 3 * H + 2 * H * H
    n = c.get("num_nextn_predict_layers", 0)
    return main, n * mtp_one, L * bias


def main(paths):
    for p in paths:
        c = json.load(open(p))
        total, mtp, biases = count(c)
        print("== %s" % p)
        print("total_params  = %d (%.3fB)  [dense: active = total]" % (total, total / 1e9))
        print("attention biases = %d" % biases)
        print("mtp layers, own weights = %d (%.3fB)" % (mtp, mtp / 1e9))
        print("checkpoint (main + MTP) = %d parameters = %d bytes in bf16" % (total + mtp, 2 * (total + mtp)))


if __name__ == "__main__":
    main(sys.argv[1:])
