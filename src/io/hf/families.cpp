// The family rules (each defined in its family's file) and what they share.
#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {

// Every rule defined in src/io/hf/family_*.cpp, listed by the build (cmake/HfFamilyList.cmake).
#define MOEPLAN_HF_RULE(name) extern const FamilyRule name;
#include "hf_family_rules.inc"
#undef MOEPLAN_HF_RULE

const std::vector<const FamilyRule*>& family_rules() {
  static const std::vector<const FamilyRule*> rules = [] {
    const std::vector<const FamilyRule*> all = {
#define MOEPLAN_HF_RULE(name) &name,
#include "hf_family_rules.inc"
#undef MOEPLAN_HF_RULE
    };
    // One rule per model_type: a second file claiming one would silently shadow the first.
    std::set<std::string> seen;
    for (const FamilyRule* rule : all) {
      for (const std::string& t : rule->model_types) {
        if (!seen.insert(t).second) {
          throw std::logic_error("config.json family rules: model_type " + t + " has two rules (src/io/hf/family_*.cpp)");
        }
      }
    }
    return all;
  }();
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

const char* class_written(const FamilyRule& rule, std::string_view model_type) {
  for (const auto& [type, name] : rule.classes) {
    if (type == model_type) return name.c_str();
  }
  return nullptr;
}

bool is_one_of(std::string_view x, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}

int leading_dense_of_layer_types(FamilyContext& c, const nlohmann::json& types, int layers,
                                 std::string_view layer_class) {
  if (!types.is_array() || static_cast<int>(types.size()) != layers) {
    c.r.fail("mlp_layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", layers));
    return 0;
  }
  int dense = 0;
  for (int i = 0; i < layers; ++i) {
    const auto& v = types[static_cast<std::size_t>(i)];
    const bool sparse = v == "sparse";
    if (!sparse && v != "dense") {
      c.r.fail("mlp_layer_types", fmt::format("lists {} at layer {}: {} builds \"dense\" or \"sparse\" only",
                                              v.dump(), i, layer_class));
      return 0;
    }
    if (!sparse && dense != i) {
      c.r.fail("mlp_layer_types", fmt::format("has a dense layer ({}) after a sparse one: moeplan counts leading "
                                              "dense layers only", i));
      return 0;
    }
    dense += sparse ? 0 : 1;
  }
  return dense;
}

std::optional<int> dense_of_written_mlp_layer_types(FamilyContext& c, std::string_view layer_class) {
  c.take("mlp_layer_types");
  c.take("first_k_dense_replace");
  const auto it = c.j.find("mlp_layer_types");
  if (it == c.j.end() || it->is_null()) return std::nullopt;
  const int dense = leading_dense_of_layer_types(c, *it, c.m.num_hidden_layers, layer_class);
  if (c.r.failed()) return 0;
  if (const auto k = c.r.integer(c.j, "first_k_dense_replace", 0); k && *k != dense) {
    c.r.fail("first_k_dense_replace", fmt::format("is {}, but mlp_layer_types lists {} dense layers "
                                                  "(the class reads mlp_layer_types)", *k, dense));
  }
  return dense;
}

std::optional<std::vector<bool>> sliding_of_layer_types(FamilyContext& c, std::string_view layer_class) {
  const int L = c.m.num_hidden_layers;
  c.take("layer_types");
  const auto types = c.j.find("layer_types");
  if (types == c.j.end() || types->is_null()) return std::nullopt;
  if (!types->is_array() || static_cast<int>(types->size()) != L) {
    c.r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", L));
    return std::vector<bool>{};
  }
  std::vector<bool> sliding(static_cast<std::size_t>(L), false);
  for (std::size_t i = 0; i < sliding.size(); ++i) {
    const nlohmann::json& kind = (*types)[i];
    if (kind != "sliding_attention" && kind != "full_attention") {
      c.r.fail("layer_types", fmt::format("lists {}: {} builds \"sliding_attention\" and \"full_attention\" layers",
                                          kind.dump(), layer_class));
      return std::vector<bool>{};
    }
    sliding[i] = kind == "sliding_attention";
  }
  return sliding;
}

void read_written_experts(FamilyContext& c, std::string_view config_class) {
  c.m.n_routed_experts = c.written("num_experts", 1, config_class);
  c.m.num_experts_per_tok = c.written("num_experts_per_tok", 1, config_class);
  c.m.moe_intermediate_size = c.written("moe_intermediate_size", 1, config_class);
  c.m.n_shared_experts = c.written("num_shared_experts", 0, config_class);
}

std::vector<bool> sliding_unless_every(FamilyContext& c, const char* key, int every) {
  const int n = c.r.integer(c.j, key, 1).value_or(every);
  if (c.r.failed()) return {};
  std::vector<bool> sliding(static_cast<std::size_t>(c.m.num_hidden_layers));
  for (std::size_t i = 0; i < sliding.size(); ++i) sliding[i] = (i + 1) % static_cast<std::size_t>(n) != 0;
  return sliding;
}

void window_sliding_nope_full(ModelConfig& m, const std::vector<bool>& sliding, int window) {
  m.layers = m.layer_specs();
  for (std::size_t i = 0; i < sliding.size() && i < m.layers.size(); ++i) {
    if (sliding[i]) {
      m.layers[i].window = window;
    } else {
      m.no_rope_layers.push_back(static_cast<int>(i));
    }
  }
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
