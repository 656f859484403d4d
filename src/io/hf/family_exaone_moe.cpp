// exaone_moe (LG AI Research's K-EXAONE): transformers models/exaone_moe/modeling_exaone_moe.py
// (huggingface/transformers 0205eec1: ExaoneMoeAttention, ExaoneMoeDecoderLayer,
// ExaoneMoeSparseMoEBlock, ExaoneMoeTopkRouter) and configuration_exaone_moe.py (008e5743;
// 0e70b38c's __init__ has the same defaults).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace exaone_moe_parts {  // named: a unity build compiles the family files together

constexpr const char* k_class = "ExaoneMoeConfig";

// The leading dense layers: mlp_layer_types when written, else "dense" for i <
// first_k_dense_replace (class default 1). is_moe_layer and first_last_k_dense_replace are an
// earlier draft's keys (a published revision of K-EXAONE's file wrote the latter) that the
// class does not read: a file where they disagree with what it builds is refused. -1 on failure.
int leading_dense(FamilyContext& c) {
  JsonReader& r = c.r;
  const int L = c.m.num_hidden_layers;
  int dense = 1;  // ExaoneMoeConfig's first_k_dense_replace
  if (const auto listed = dense_of_written_mlp_layer_types(c, "ExaoneMoeDecoderLayer")) {
    dense = *listed;
  } else if (const auto k = r.integer(c.j, "first_k_dense_replace", 0)) {
    dense = *k;
  }
  if (r.failed()) return -1;
  if (const auto it = c.j.find(c.take("is_moe_layer")); it != c.j.end() && !it->is_null()) {
    bool agrees = it->is_array() && static_cast<int>(it->size()) == L;
    for (int i = 0; agrees && i < L; ++i) {
      const nlohmann::json& v = (*it)[static_cast<std::size_t>(i)];
      agrees = (v.is_boolean() || v.is_number_integer()) && (v == true || v == 1) == (i >= dense);
    }
    if (!agrees) {
      r.fail("is_moe_layer", fmt::format("does not list the class's layers (the first {} dense, the rest MoE): "
                                         "ExaoneMoeConfig does not read it, so which the checkpoint has is unknown",
                                         dense));
      return -1;
    }
  }
  c.take("first_last_k_dense_replace");
  if (const auto f = r.integer(c.j, "first_last_k_dense_replace", 0); f && *f != dense) {
    r.fail("first_last_k_dense_replace", fmt::format("is {}, but the class builds {} leading dense layers "
                                                     "(first_k_dense_replace, mlp_layer_types); it does not read "
                                                     "this key", *f, dense));
    return -1;
  }
  return dense;
}

// Which layers attend in a sliding window: layer_types when written, else ExaoneMoeConfig's
// list from an integer sliding_window_pattern (default 4: layer i windowed unless (i + 1) % 4
// is 0). A string pattern ("LLLG") or a null sliding_window without layer_types makes the class
// raise, so the file is refused. Empty with the failure recorded.
std::vector<bool> sliding_layers(FamilyContext& c) {
  if (auto written = sliding_of_layer_types(c, "ExaoneMoeAttention")) return *written;
  const auto p = c.j.find("sliding_window_pattern");
  if (p != c.j.end() && !p->is_null() && !p->is_number_integer()) {
    c.r.fail("sliding_window_pattern", fmt::format("is {} and layer_types is not written: ExaoneMoeConfig derives "
                                                   "layer_types from an integer pattern only; write layer_types",
                                                   p->dump()));
    return {};
  }
  if (const auto w = c.j.find("sliding_window"); w != c.j.end() && w->is_null()) {
    c.r.fail("sliding_window", "is null and layer_types is not written: ExaoneMoeConfig's pattern is then 0, "
                               "which its layer_types cannot be derived from; write layer_types");
    return {};
  }
  return sliding_unless_every(c, "sliding_window_pattern", 4);
}

// Every layer: ExaoneMoeAttention (q_proj, k_proj, v_proj, o_proj without biases, q_norm and
// k_norm of head_dim; RoPE on the sliding-window layers only), input_layernorm and
// post_attention_layernorm of d; a dense layer an ExaoneMoeMLP of intermediate_size, a sparse one
// an ExaoneMoeSparseMoEBlock: gate.weight N_e x d (no bias), num_experts experts of
// moe_intermediate_size, shared_experts one ExaoneMoeMLP of moe_intermediate_size x
// num_shared_experts, and gate.e_score_correction_bias, a persistent buffer of N_e (in the
// checkpoint only).
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // ExaoneMoeConfig's defaults (64 experts, top-8, width 1024, one shared expert) are not
  // K-EXAONE's: moeplan does not guess them.
  read_written_experts(c, k_class);
  if (r.failed()) return;
  const int dense = leading_dense(c);
  if (dense < 0) return;
  if (dense >= m.num_hidden_layers) {
    const bool listed = c.j.contains("mlp_layer_types") && !c.j["mlp_layer_types"].is_null();
    r.fail(listed ? "mlp_layer_types" : "first_k_dense_replace",
           fmt::format("leaves no MoE layer of the {}", m.num_hidden_layers));
    return;
  }
  if (dense > 0 && m.intermediate_size <= 0) {
    r.fail("intermediate_size", "missing: the leading dense layers need their width");
    return;
  }
  m.first_k_dense_replace = dense;
  m.extras.qk_norm = QkNorm::per_head;
  c.router_bias_buffer = true;
  // Multi-token prediction: the checkpoint stores an mtp.* block that the class skips
  // (_keys_to_ignore_on_load_unexpected = [r"mtp.*"]) and no modeling code moeplan reads
  // builds: not counted, and total_params_in_checkpoint is null with this reason.
  c.take("num_nextn_predict_layers");
  if (const auto n = r.integer(c.j, "num_nextn_predict_layers", 0); n && *n > 0) {
    m.extras.mtp_not_counted = fmt::format("its {} MTP block(s) (num_nextn_predict_layers) are in the checkpoint but "
                                           "not built by transformers' ExaoneMoeForCausalLM (it skips mtp.*): not "
                                           "counted", *n);
    m.description += "; " + m.extras.mtp_not_counted;
  }
  const std::vector<bool> sliding = sliding_layers(c);
  if (r.failed()) return;
  // ExaoneMoeConfig's sliding_window default is 4096; it moves the attention's FLOPs, no weight.
  const int window = r.integer(c.j, "sliding_window", 1).value_or(4096);
  if (r.failed()) return;
  window_sliding_nope_full(m, sliding, window);  // ExaoneMoeAttention: RoPE on sliding layers only
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "num_shared_experts", "first_k_dense_replace",
    "mlp_layer_types", "is_moe_layer", "first_last_k_dense_replace"};

}  // namespace exaone_moe_parts

// ExaoneMoeConfig: num_key_value_heads defaults to 32, not num_attention_heads (must be
// written); head_dim, when absent, is hidden_size / num_attention_heads (the attention's
// getattr); tie_word_embeddings False.
extern const FamilyRule k_exaone_moe_rule{.model_types = {"exaone_moe"},
                                          .read = exaone_moe_parts::read,
                                          .layout_keys = exaone_moe_parts::k_layout_keys};

}  // namespace moeplan::hf
