// The list of family rules: one line per rule object (each defined in its family's file).
#include <algorithm>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {

extern const FamilyRule k_deepseek_rule, k_glm4_moe_dots1_rule, k_qwen2_moe_rule, k_qwen3_moe_rule,
    k_mixtral_rule, k_olmoe_rule, k_gpt_oss_rule, k_hunyuan_v1_moe_rule, k_llama4_rule,
    k_llama4_multimodal_rule, k_dense_rule, k_dense_kv_rule, k_dense_head_dim_rule, k_gemma_rule;
// group: classic MoE families
extern const FamilyRule k_dbrx_rule, k_phimoe_rule, k_granitemoe_rule, k_arctic_rule, k_jetmoe_rule,
    k_glm4v_moe_rule, k_glm4v_moe_text_rule, k_qwen3_vl_moe_rule, k_qwen3_vl_moe_text_rule;
// group: ernie4_5_moe, bailing_moe, minimax_m2, flex_olmo, hunyuan
extern const FamilyRule k_ernie4_5_moe_rule, k_bailing_moe_rule, k_minimax_m2_rule, k_flex_olmo_rule,
    k_hunyuan_rule, k_solar_open_rule;
// group: SSM hybrids
extern const FamilyRule k_jamba_rule, k_granitemoehybrid_rule, k_nemotron_h_rule, k_lfm2_moe_rule,
    k_nemotron_nas_rule;
// group: linear attention and others
extern const FamilyRule k_qwen3_next_rule, k_minimax_rule, k_kimi_linear_rule, k_deepseek_v32_rule,
    k_step3_vl_rule, k_step3_text_rule, k_longcat_flash_rule;

const std::vector<const FamilyRule*>& family_rules() {
  static const std::vector<const FamilyRule*> rules = {
      &k_deepseek_rule, &k_glm4_moe_dots1_rule, &k_qwen2_moe_rule, &k_qwen3_moe_rule,
      &k_mixtral_rule, &k_olmoe_rule, &k_gpt_oss_rule, &k_hunyuan_v1_moe_rule,
      &k_llama4_multimodal_rule, &k_llama4_rule,
      // group: classic MoE families
      &k_dbrx_rule, &k_phimoe_rule, &k_granitemoe_rule, &k_arctic_rule, &k_glm4v_moe_rule,
      &k_glm4v_moe_text_rule, &k_qwen3_vl_moe_rule, &k_qwen3_vl_moe_text_rule, &k_jetmoe_rule,
      // group: ernie4_5_moe, bailing_moe, minimax_m2, flex_olmo, hunyuan
      &k_ernie4_5_moe_rule, &k_bailing_moe_rule, &k_minimax_m2_rule, &k_flex_olmo_rule, &k_hunyuan_rule,
      &k_solar_open_rule,
      // group: SSM hybrids
      &k_jamba_rule, &k_granitemoehybrid_rule, &k_nemotron_h_rule, &k_lfm2_moe_rule, &k_nemotron_nas_rule,
      // group: linear attention and others
      &k_qwen3_next_rule, &k_minimax_rule, &k_kimi_linear_rule, &k_deepseek_v32_rule, &k_step3_vl_rule,
      &k_step3_text_rule, &k_longcat_flash_rule,
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

int FamilyContext::written(const char* key, int min, std::string_view config_class) {
  if (!j.contains(key) || j[key].is_null()) {
    r.fail(key, std::string("missing: ") + std::string(config_class) + " has a default of its own; write it");
    return 0;
  }
  return r.integer(j, take(key), min).value_or(0);
}

bool FamilyContext::layer_count_ok(int layers, const char* key) {
  if (layers <= k_max_config_layers) return true;
  r.fail(key, fmt::format("{} layers: moeplan reads a config.json layer by layer and takes at most {}",
                          layers, k_max_config_layers));
  return false;
}

bool FamilyContext::head_dim_is_derived(std::string_view attention_class) {
  if (m.head_dim > 0 && m.head_dim * m.num_attention_heads != m.hidden_size) {
    r.fail("head_dim", fmt::format("differs from hidden_size / num_attention_heads, the head size {} used "
                                   "before transformers read this key; moeplan refuses rather than guess "
                                   "which the checkpoint has", attention_class));
    return false;
  }
  m.head_dim = 0;
  return true;
}

void FamilyContext::attention_bias(bool default_value, bool qkv_only) {
  const bool on = r.boolean(j, "attention_bias").value_or(default_value);
  m.extras.qkv_bias = on;
  m.extras.output_bias = on && !qkv_only;
}

}  // namespace moeplan::hf
