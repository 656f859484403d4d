// The list of family rules: one line per rule object (each defined in its family's file).
#include <algorithm>

#include "family_rule.hpp"

namespace moeplan::hf {

extern const FamilyRule k_deepseek_rule, k_glm4_moe_dots1_rule, k_qwen2_moe_rule, k_qwen3_moe_rule,
    k_mixtral_rule, k_olmoe_rule, k_gpt_oss_rule, k_hunyuan_v1_moe_rule, k_llama4_rule,
    k_llama4_multimodal_rule, k_dense_rule, k_dense_kv_rule, k_dense_head_dim_rule, k_gemma_rule;
// group: classic MoE families
extern const FamilyRule k_dbrx_rule, k_phimoe_rule, k_granitemoe_rule, k_arctic_rule, k_jetmoe_rule,
    k_glm4v_moe_rule, k_glm4v_moe_text_rule, k_qwen3_vl_moe_rule, k_qwen3_vl_moe_text_rule;
// group: ernie4_5_moe, bailing_moe, minimax_m2, flex_olmo, hunyuan
// group: SSM hybrids
// group: linear attention and others

const std::vector<const FamilyRule*>& family_rules() {
  static const std::vector<const FamilyRule*> rules = {
      &k_deepseek_rule, &k_glm4_moe_dots1_rule, &k_qwen2_moe_rule, &k_qwen3_moe_rule,
      &k_mixtral_rule, &k_olmoe_rule, &k_gpt_oss_rule, &k_hunyuan_v1_moe_rule,
      &k_llama4_multimodal_rule, &k_llama4_rule,
      // group: classic MoE families
      &k_dbrx_rule, &k_phimoe_rule, &k_granitemoe_rule, &k_arctic_rule, &k_glm4v_moe_rule,
      &k_glm4v_moe_text_rule, &k_qwen3_vl_moe_rule, &k_qwen3_vl_moe_text_rule, &k_jetmoe_rule,
      // group: ernie4_5_moe, bailing_moe, minimax_m2, flex_olmo, hunyuan
      // group: SSM hybrids
      // group: linear attention and others
      // dense
      &k_dense_rule, &k_dense_kv_rule, &k_dense_head_dim_rule, &k_gemma_rule,
  };
  return rules;
}

const FamilyRule* rule_of(std::string_view model_type) {
  for (const FamilyRule* rule : family_rules()) {
    if (std::find(rule->model_types.begin(), rule->model_types.end(), model_type) != rule->model_types.end()) {
      return rule;
    }
  }
  return nullptr;
}

bool is_one_of(std::string_view x, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}

void FamilyContext::attention_bias(bool default_value, bool qkv_only) {
  const bool on = r.boolean(j, "attention_bias").value_or(default_value);
  m.extras.qkv_bias = on;
  m.extras.output_bias = on && !qkv_only;
}

}  // namespace moeplan::hf
