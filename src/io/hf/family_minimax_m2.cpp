// minimax_m2 (MiniMax-M2, M2.1, M2.5): transformers models/minimax_m2/modular_minimax_m2.py
// (MiniMaxM2Config, MiniMaxM2Attention(FlexOlmoAttention), MiniMaxM2SparseMoeBlock); the
// checkpoints' remote code modeling_minimax_m2.py loads the same weight names.
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace minimax_m2_parts {  // named: a unity build compiles the family files together

// Every layer: softmax GQA attention (q, k, v, o without biases) with q_norm over all query
// heads (N_q head_dim) and k_norm over all kv heads (N_kv head_dim), and a sparse MoE block of
// num_local_experts experts of intermediate_size (MixtralExperts: gate_up, down) with a
// router of N_e x d; its e_score_correction_bias is a registered buffer (in the checkpoint only). No
// shared expert, no dense layer.
void read(FamilyContext& c) {
  // MiniMaxM2SparseMoeBlock: register_buffer("e_score_correction_bias", zeros(num_local_experts)).
  c.router_bias_buffer = true;
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // MiniMaxM2Config defaults 256 experts, top-8: moeplan does not guess them.
  m.n_routed_experts = r.required(j, c.take("num_local_experts"), 1);
  m.num_experts_per_tok = r.required(j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(j, "intermediate_size", 1);
  m.intermediate_size = 0;  // no dense FFN
  if (r.failed()) return;
  // transformers builds q_norm and k_norm whatever the config says (MiniMaxM2Attention
  // inherits them from Olmo2Attention); the remote code builds them when use_qk_norm is true,
  // over all heads when qk_norm_type is "per_layer". Only files on which both agree are read.
  if (!r.boolean(j, "use_qk_norm").value_or(true)) {
    r.fail("use_qk_norm", "is false: transformers' MiniMaxM2Attention builds q_norm and k_norm "
                          "anyway, the remote code does not; the two would count differently");
    return;
  }
  if (const auto t = r.string(j, "qk_norm_type"); t && *t != "per_layer") {
    r.fail("qk_norm_type", fmt::format("is \"{}\": transformers' MiniMaxM2Attention normalises q and k "
                                       "over all heads (\"per_layer\")", *t));
    return;
  }
  m.extras.qk_norm = QkNorm::full_width;
  // attn_type_list: 1 is softmax attention in the layer; 0 (MiniMax-Text-01's lightning
  // attention) is not what MiniMaxM2 builds (it ignores the list).
  c.take("attn_type_list");
  if (const auto it = j.find("attn_type_list"); it != j.end() && !it->is_null()) {
    bool all_softmax = it->is_array() && static_cast<int>(it->size()) == m.num_hidden_layers;
    for (std::size_t i = 0; all_softmax && i < it->size(); ++i) {
      all_softmax = (*it)[i].is_number_integer() && (*it)[i].get<std::int64_t>() == 1;
    }
    if (!all_softmax) {
      r.fail("attn_type_list", "must list 1 (softmax attention) for each of the num_hidden_layers layers: "
                               "MiniMaxM2 builds softmax attention in every layer");
      return;
    }
  }
  // A shared expert: MiniMaxM2SparseMoeBlock builds none.
  c.take("shared_intermediate_size");
  if (const auto w = r.integer(j, "shared_intermediate_size", 0); w && *w > 0) {
    r.fail("shared_intermediate_size", fmt::format("is {}: MiniMaxM2's MoE block builds no shared expert", *w));
    return;
  }
  // MiniMaxM2Config.convert_rope_params_to_dict (configuration_minimax_m2.py, transformers
  // commit 3e108993) sets rope_parameters["partial_rotary_factor"] to rotary_dim / head_dim,
  // rotary_dim defaulting to head_dim // 2 (0.5), over any factor the file writes: partial
  // RoPE, no weight. A written partial_rotary_factor that disagrees is refused (read_partial_rotary
  // would take it, the class does not).
  const int head_dim = m.head_size();
  const auto rotary = r.integer(j, "rotary_dim", 1);
  if (r.failed() || head_dim <= 0) return;
  if (rotary && *rotary > head_dim) {
    r.fail("rotary_dim", fmt::format("is {}: RoPE cannot rotate more than head_dim ({}) channels", *rotary, head_dim));
    return;
  }
  m.partial_rotary_factor = double(rotary.value_or(head_dim / 2)) / head_dim;
  const nlohmann::json* written = nullptr;
  if (const auto it = j.find("partial_rotary_factor"); it != j.end() && !it->is_null()) written = &*it;
  if (const auto rp = j.find("rope_parameters"); !written && rp != j.end() && rp->is_object()) {
    if (const auto it = rp->find("partial_rotary_factor"); it != rp->end() && !it->is_null()) written = &*it;
  }
  if (written && !(written->is_number() && written->get<double>() == m.partial_rotary_factor)) {
    r.fail("partial_rotary_factor", fmt::format("is {}, but MiniMaxM2Config sets it to rotary_dim / head_dim = {:g}",
                                                written->dump(), m.partial_rotary_factor));
    return;
  }
  // use_mtp / num_mtp_modules / mtp_transformer_layers declare multi-token-prediction modules
  // that MiniMaxM2ForCausalLM does not build (transformers models/minimax_m2/modeling_minimax_m2.py
  // builds no MTP module, nor does the checkpoints' remote code); their shape is in no modeling
  // code, so mtp_params and total_params_in_checkpoint are null with this reason, not 0.
  c.take("num_mtp_modules");
  if (const auto n = r.integer(j, "num_mtp_modules", 0); n && *n > 0 && r.boolean(j, "use_mtp").value_or(false)) {
    m.extras.mtp_not_counted = fmt::format("its {} MTP module(s) (use_mtp, num_mtp_modules) are declared but not built by "
                                           "transformers' MiniMaxM2ForCausalLM (modeling_minimax_m2.py builds none): not counted", *n);
    m.description += "; " + m.extras.mtp_not_counted;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "shared_intermediate_size", "attn_type_list",
    "num_mtp_modules"};

}  // namespace minimax_m2_parts

// MiniMaxM2Config's defaults: num_key_value_heads 8, head_dim 128 (not d / N_q): both must be
// written; tie_word_embeddings defaults to false.
extern const FamilyRule k_minimax_m2_rule{.model_types = {"minimax_m2"}, .read = minimax_m2_parts::read, .head_dim_required = true, .layout_keys = minimax_m2_parts::k_layout_keys};

}  // namespace moeplan::hf
