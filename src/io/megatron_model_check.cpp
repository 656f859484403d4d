// A launch script's model-size flags beside the model moeplan scores
// (include/moeplan/io/megatron_args.hpp, megatron_model_mismatch): each flag as Megatron-LM
// builds the model from it (megatron/training/arguments.py and
// megatron/core/transformer/transformer_config.py, core_v0.15.0), and as --emit megatron
// writes it for the same model (src/io/model_export.cpp), so an exported script reads back.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "moeplan/io/megatron_args.hpp"

namespace moeplan {

namespace {

/// What the model says for one flag, and how (" (2 shared experts x 1408)"); nullopt when the
/// flag does not apply to the model, so it is not judged.
struct Expected {
  long long value = 0;
  std::string how;
};

bool has_flag(const MegatronArgs& a, std::string_view flag) {
  return std::any_of(a.model_flags.begin(), a.model_flags.end(),
                     [&](const MegatronModelFlag& f) { return f.flag == flag; });
}

/// A per-layer model whose layers set their own `field` (kv heads, head sizes, dense widths): no one value
/// of the model to compare a uniform Megatron flag with.
template <typename Field>
bool layers_differ(const ModelConfig& m, Field field) {
  return std::any_of(m.layers.begin(), m.layers.end(), [&](const LayerSpec& l) { return l.*field > 0; });
}

std::optional<Expected> attention_value(const MegatronArgs& a, const ModelConfig& m, std::string_view flag) {
  if (flag == "--num-attention-heads") return Expected{m.num_attention_heads, ""};
  if (flag == "--kv-channels") {
    // MLA's heads are sized by --qk-head-dim, --qk-pos-emb-head-dim and --v-head-dim
    // (MLATransformerConfig; MultiLatentAttention does not read kv_channels): not judged.
    if (m.latent_attention || layers_differ(m, &LayerSpec::head_dim)) return std::nullopt;
    return Expected{m.head_size(), " (its head size)"};
  }
  // --num-query-groups: Megatron reads it only with --group-query-attention (arguments.py,
  // core_v0.15.0: num_query_groups is None without it, then one group per head); MLA has none.
  if (m.latent_attention || !a.group_query_attention || layers_differ(m, &LayerSpec::kv_heads)) return std::nullopt;
  return Expected{m.num_key_value_heads, " key/value heads"};
}

std::optional<Expected> ffn_value(const MegatronArgs& a, const ModelConfig& m, std::string_view flag) {
  if (flag == "--ffn-hidden-size") {
    if (layers_differ(m, &LayerSpec::dense_width)) return std::nullopt;
    if (m.dense_layers() > 0) return Expected{m.intermediate_size, " (its dense FFN width)"};
    // Every layer MoE: Megatron sizes the experts by --ffn-hidden-size when
    // --moe-ffn-hidden-size is not given (arguments.py, core_v0.15.0), else it builds nothing.
    if (m.is_moe() && !has_flag(a, "--moe-ffn-hidden-size")) {
      return Expected{m.moe_intermediate_size, " (its expert width: without --moe-ffn-hidden-size Megatron "
                                               "sizes the experts by --ffn-hidden-size)"};
    }
    return std::nullopt;
  }
  if (flag == "--num-experts") return Expected{m.n_routed_experts, m.is_moe() ? " routed experts" : " (a dense model)"};
  if (!m.is_moe()) return std::nullopt;  // Megatron builds no router or expert without --num-experts
  if (flag == "--moe-router-topk") return Expected{m.num_experts_per_tok, " (K)"};
  if (flag == "--moe-ffn-hidden-size") return Expected{m.moe_intermediate_size, " (one routed expert's width)"};
  // --moe-shared-expert-intermediate-size is all shared experts together (Megatron's
  // SharedExpertMLP is one MLP of that width), as --emit megatron writes it.
  const long long shared = static_cast<long long>(m.n_shared_experts) * m.shared_width();
  return Expected{shared, m.n_shared_experts > 0
                              ? fmt::format(" ({} shared experts x {})", m.n_shared_experts, m.shared_width())
                              : std::string(" (no shared experts)")};
}

// The settings a launch states beside the shape, where the model states them too: the output
// gate (a script that states the model's shape, --num-layers and the rest, without the gate
// builds another model), RoPE's base and the norms' epsilon.
std::optional<InputError> stated_setting_mismatch(const MegatronArgs& a, const ModelConfig& m, const std::string& source) {
  if (a.attention_output_gate_line > 0 && !m.gated_attention) {
    return InputError{source, a.attention_output_gate_line, 0, "--attention-output-gate",
                      "is given, but the scored model has no attention output gate; is the script for another model?"};
  }
  if (m.gated_attention && a.attention_output_gate_line == 0 && !a.model_flags.empty()) {
    return InputError{source, a.model_flags.front().line, 0, "--attention-output-gate",
                      fmt::format("missing: the script states the model ({} ...) without it, but the scored model gates "
                                  "its attention output (gated_attention); is the script for another model?",
                                  a.model_flags.front().flag)};
  }
  if (a.rotary_base && m.rope_theta && !m.rope_local_theta && double(*a.rotary_base) != *m.rope_theta) {
    return InputError{source, a.rotary_base_line, 0, "--rotary-base",
                      fmt::format("{} but the scored model's RoPE base is {} (rope_theta); is the script for another "
                                  "model?", *a.rotary_base, *m.rope_theta)};
  }
  // A script that states the shape without a base or an epsilon trains with Megatron's defaults
  // (arguments.py: --rotary-base default 10000; transformer_config.py: layernorm_epsilon 1e-5,
  // --norm-epsilon), d98e8a64: another model where the scored one states another value.
  // A fractional base is not judged: Megatron's --rotary-base takes an integer, so no script can
  // state it (--emit megatron says so in a note and writes none), and the export must read back.
  if (!a.model_flags.empty() && !a.rotary_base && m.position_embedding == PositionEmbedding::rope && m.rope_theta &&
      !m.rope_local_theta && *m.rope_theta == std::floor(*m.rope_theta) && *m.rope_theta != k_megatron_rotary_base) {
    return InputError{source, a.model_flags.front().line, 0, "--rotary-base",
                      fmt::format("missing: the script states the model ({} ...) without it, so Megatron's default "
                                  "{:.0f} applies, but the scored model's RoPE base is {} (rope_theta); is the script "
                                  "for another model?",
                                  a.model_flags.front().flag, k_megatron_rotary_base, *m.rope_theta)};
  }
  if (!a.model_flags.empty() && !a.norm_epsilon && m.norm_eps && *m.norm_eps != k_megatron_norm_epsilon) {
    return InputError{source, a.model_flags.front().line, 0, "--norm-epsilon",
                      fmt::format("missing: the script states the model ({} ...) without it, so Megatron's default "
                                  "{} applies, but the scored model's norms use {} (its config's epsilon); is the "
                                  "script for another model?",
                                  a.model_flags.front().flag, k_megatron_norm_epsilon, *m.norm_eps)};
  }
  if (a.norm_epsilon && m.norm_eps && *a.norm_epsilon != *m.norm_eps) {
    return InputError{source, a.norm_epsilon_line, 0, "--norm-epsilon",
                      fmt::format("{} but the scored model's norms use {} (its config's epsilon); is the script for "
                                  "another model?", *a.norm_epsilon, *m.norm_eps)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<InputError> megatron_model_mismatch(const MegatronArgs& a, const ModelConfig& m,
                                                  const std::string& source) {
  for (const MegatronModelFlag& f : a.model_flags) {
    std::optional<Expected> want;
    if (f.flag == "--num-layers") {
      want = Expected{m.num_hidden_layers, ""};
    } else if (f.flag == "--hidden-size") {
      want = Expected{m.hidden_size, ""};
    } else if (f.flag == "--num-attention-heads" || f.flag == "--kv-channels" || f.flag == "--num-query-groups") {
      want = attention_value(a, m, f.flag);
    } else {
      want = ffn_value(a, m, f.flag);
    }
    if (!want || want->value == f.value) continue;
    return InputError{source, f.line, 0, f.flag,
                      fmt::format("{} but the scored model has {}{}; is the script for another model?", f.value,
                                  want->value, want->how)};
  }
  // --rotary-percent: Megatron rotates kv_channels x it of each head, the model
  // partial_rotary_factor of them (RoPE models only; MLA's rotary part is --qk-pos-emb-head-dim).
  if (a.rotary_percent && m.position_embedding == PositionEmbedding::rope && !m.latent_attention &&
      *a.rotary_percent != m.partial_rotary_factor) {
    return InputError{source, a.rotary_percent_line, 0, "--rotary-percent",
                      fmt::format("{:g} but the scored model rotates {:g} of each head (partial_rotary_factor); is the "
                                  "script for another model?",
                                  *a.rotary_percent, m.partial_rotary_factor)};
  }
  return stated_setting_mismatch(a, m, source);
}

}  // namespace moeplan
