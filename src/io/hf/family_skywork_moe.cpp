// skywork_moe (Skywork-MoE-Base, 146B, 16 experts, top-2): no transformers class; the hub's
// remote code modeling_skywork_moe.py was not found in a public copy. Counted from Skywork's own
// inference code for the checkpoints, their vLLM model file vllm/model_executor/models/
// skywork_moe.py in two versions:
//  (a) SkyworkAI/vllm @691f77f62751b30a66a0466985a72e6b2551e0f4 (SkyworkMoeConfig: num_experts a
//      list, the first entry used; moe_expert_interval; moe_2layer_gate, class default True, a
//      router d x 8N_e, tanh, 8N_e x N_e; top-2 fixed: TOPK = 2);
//  (b) the later copy in vllm-project/vllm @f6f19827475ad40d89bdd41b02c595b9b2371427
//      (num_local_experts, num_experts_per_tok; a router of N_e x d; every layer MoE).
// Both: SkyworkAttention q, k, v, o without biases, head_dim = hidden_size / num_attention_heads;
// experts gate and up (2 x intermediate_size x d) and down (d x intermediate_size); two RMSNorms
// a layer and a final one; embed_tokens and an untied lm_head. Routing: softmax over the N_e
// logits (divided by their standard deviation over moe_gate_norm_std with moe_use_logits_norm:
// the tech report's gating logit normalization, arXiv:2406.06563), the top K renormalised.
// Where the two versions would build different weights (a two-layer router, dense layers
// between the MoE ones), the file is refused by the key.
// tests/data/hf/recount/skywork_moe_count.py recounts the fixture independently.
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace skywork_moe_parts {  // named: a unity build compiles the family files together

// The experts: num_local_experts (b), else num_experts (a: a list, every MoE layer the first
// entry's count; a plain integer is read alike). 0 on failure.
int experts_of(FamilyContext& c) {
  JsonReader& r = c.r;
  if (c.j.contains(c.take("num_local_experts")) && !c.j["num_local_experts"].is_null()) {
    return r.integer(c.j, "num_local_experts", 1).value_or(0);
  }
  const auto it = c.j.find(c.take("num_experts"));
  if (it == c.j.end() || it->is_null()) {
    r.fail("num_local_experts", "missing (and no num_experts): SkyworkMoeConfig's default (32) is not "
                                "guessed; write it");
    return 0;
  }
  if (it->is_number_integer()) return r.integer(c.j, "num_experts", 1).value_or(0);
  if (!it->is_array() || it->empty() || !(*it)[0].is_number_integer() || (*it)[0].get<long long>() < 1 ||
      (*it)[0].get<long long>() > 1'000'000) {
    r.fail("num_experts", "must be a positive integer or a list whose first entry is one (the experts of "
                          "every MoE layer)");
    return 0;
  }
  for (const auto& v : *it) {
    if (v != (*it)[0]) {
      r.fail("num_experts", fmt::format("lists {}: Skywork's MoE layers all build num_experts[0] experts",
                                        it->dump()));
      return 0;
    }
  }
  return (*it)[0].get<int>();
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // SkyworkAttention sizes heads as hidden_size // num_attention_heads: a different head_dim is
  // refused, an equal one dropped.
  if (!c.head_dim_is_derived("SkyworkAttention")) return;
  m.n_routed_experts = experts_of(c);
  // (a) fixes top-2 (TOPK = 2); (b) reads num_experts_per_tok. Absent: 2, as both build it.
  m.num_experts_per_tok = r.integer(c.j, c.take("num_experts_per_tok"), 1).value_or(2);
  if (m.num_experts_per_tok != 2 && !(c.j.contains("num_local_experts") && !c.j["num_local_experts"].is_null()) &&
      !r.failed()) {
    r.fail("num_experts_per_tok", fmt::format("is {}, but the remote code that reads num_experts fixes top-2 "
                                              "(TOPK = 2)", m.num_experts_per_tok));
    return;
  }
  if (!c.j.contains("intermediate_size") || c.j["intermediate_size"].is_null()) {
    r.fail("intermediate_size", "missing: it sizes every expert (SkyworkMoeConfig's default 11008 is not guessed)");
    return;
  }
  m.moe_intermediate_size = m.intermediate_size;  // every expert is intermediate_size wide
  // (a): a dense SkyworkMLP of intermediate_size in the layers where (i + 1) % interval != 0;
  // (b) builds experts in every layer, so only 1 is read alike.
  if (const auto k = r.integer(c.j, c.take("moe_expert_interval"), 1); k && *k != 1 && !r.failed()) {
    r.fail("moe_expert_interval", fmt::format("is {}: one version of Skywork's code builds dense layers between "
                                              "the MoE ones, the other experts in every layer", *k));
    return;
  }
  m.intermediate_size = 0;  // no dense FFN
  // (a)'s default router is two layers (d x 8 N_e, tanh, 8 N_e x N_e); (b)'s one matrix. Absent,
  // a file in (a)'s spelling (num_experts) takes (a)'s default, one in (b)'s (num_local_experts) (b)'s.
  const bool b_spelling = c.j.contains("num_local_experts") && !c.j["num_local_experts"].is_null();
  if (r.boolean(c.j, c.take("moe_2layer_gate")).value_or(!b_spelling) && !r.failed()) {
    r.fail("moe_2layer_gate", "is true: a two-layer router (d x 8 N_e, tanh, 8 N_e x N_e) that one version of "
                              "Skywork's code builds and the other does not; moeplan refuses rather than guess");
    return;
  }
  for (const char* key : {"moe_use_mixtral_gating", "moe_feature_no_mul_topk"}) {
    if (r.boolean(c.j, key).value_or(false) && !r.failed()) {
      r.fail(key, "is true: a routing variant of the older remote code that the released model's code does not "
                  "run; moeplan refuses rather than describe another router");
      return;
    }
  }
  // Softmax over the experts, the top K renormalised (fused_moe(renormalize=True)).
  RouterSpec x;
  if (r.boolean(c.j, "moe_use_logits_norm").value_or(false)) {
    // SkyworkMoeConfig's moe_gate_norm_std default: 1.0.
    const auto it = c.j.find("moe_gate_norm_std");
    x.logit_norm_std = it != c.j.end() && it->is_number() && it->get<double>() > 0 ? it->get<double>() : 1.0;
  }
  x.score = RouterSpec::Score::softmax;
  x.norm_topk_prob = true;
  x.balance_loss_stated = false;
  m.router = x;
}

const std::vector<std::string> k_layout_keys{"num_local_experts", "num_experts", "num_experts_per_tok",
                                             "moe_expert_interval", "moe_2layer_gate"};

}  // namespace skywork_moe_parts

// SkyworkMoeConfig: num_key_value_heads None -> num_attention_heads; tie_word_embeddings False.
extern const FamilyRule k_skywork_moe_rule{
    .model_types = {"skywork_moe"},
    .read = skywork_moe_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = skywork_moe_parts::k_layout_keys,
};

}  // namespace moeplan::hf
