// jetmoe: transformers modeling_jetmoe.py (JetMoeForCausalLM; the hub's JetMoEForCausalLM
// builds the same tensors). Read only to refuse it, with the reason.
#include "family_rule.hpp"

namespace moeplan::hf {
namespace jetmoe_parts {  // named: a unity build compiles the family files together

// JetMoeAttention is a mixture of attention heads: per layer, num_local_experts routed
// query/output projection pairs (experts.input_linear E x (kv_heads·kv_channels) x d,
// experts.output_linear E x d x (kv_heads·kv_channels)) of which num_experts_per_tok run per
// token, beside one shared kv_proj, a router and an output bias; the query heads are derived
// (num_key_value_heads · num_experts_per_tok), not read. moeplan counts attention as always
// active, so its N, N_a and FLOPs would be wrong: the file is refused, naming the key.
void read(FamilyContext& c) {
  c.r.fail("num_local_experts",
           "JetMoE routes its attention too (mixture of attention heads: num_local_experts query/output "
           "projection experts per layer, num_experts_per_tok of them active, beside the FFN experts); "
           "moeplan counts attention as always active, so it refuses the file rather than miscount it");
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"num_local_experts"};

}  // namespace jetmoe_parts

extern const FamilyRule k_jetmoe_rule{
    .model_types = {"jetmoe"},
    .read = jetmoe_parts::read,
    .standard_keys = false,
    .refused = true,
    .layout_keys = jetmoe_parts::k_layout_keys,
};

}  // namespace moeplan::hf
