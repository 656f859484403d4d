// Writing HuggingFace config.json. A class is used only when it builds exactly the counted
// model: each candidate is written, read back with parse_hf_config_json and compared
// field by field with the model, so the writer and the reader cannot drift apart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "hf/family_rule.hpp"
#include "moeplan/io/hf_config.hpp"

namespace moeplan {
namespace {

using Json = nlohmann::ordered_json;

// The rule that writes `family` (its class), or nullptr.
const hf::FamilyRule* writer_of(std::string_view family) {
  const hf::FamilyRule* rule = hf::rule_of(family);
  return rule && rule->write && hf::class_written(*rule, family) ? rule : nullptr;
}

// The shared keys, and the family's own from its rule (src/io/hf/family_*.cpp).
Json write_family(const ModelConfig& m, const std::string& f) {
  const hf::FamilyRule& rule = *writer_of(f);
  Json j;
  j["architectures"] = {hf::class_written(rule, f)};
  j["model_type"] = f;
  j["_name_or_path"] = m.name;
  j["hidden_size"] = m.hidden_size;
  if (m.intermediate_size > 0 && m.dense_layers() > 0) {
    j["intermediate_size"] = m.intermediate_size;
  } else if (m.is_moe() && rule.intermediate_size_always) {
    // With no dense layer no module reads it, so any width builds nothing: the model's own
    // when it has one, else the experts'.
    j["intermediate_size"] = m.intermediate_size > 0 ? m.intermediate_size : m.moe_intermediate_size;
  }
  j["num_hidden_layers"] = m.num_hidden_layers;
  j["num_attention_heads"] = m.num_attention_heads;
  j["num_key_value_heads"] = m.num_key_value_heads;
  // DeepseekV3Config derives head_dim from the MLA ranks (qk_rope_head_dim); a head_dim key
  // would override that and break its rotary embedding.
  if (!m.latent_attention) j["head_dim"] = m.head_size();
  rule.write(m, f, j);
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    if (a.q_lora_rank > 0) {
      j["q_lora_rank"] = a.q_lora_rank;
    } else {
      j["q_lora_rank"] = nullptr;  // full-rank query projection, as DeepSeek-V2-Lite writes it
    }
    j["kv_lora_rank"] = a.kv_lora_rank;
    j["qk_nope_head_dim"] = a.qk_nope_head_dim;
    j["qk_rope_head_dim"] = a.qk_rope_head_dim;
    j["v_head_dim"] = a.v_head_dim;
  }
  j["vocab_size"] = m.vocab_size;
  if (m.training) j["max_position_embeddings"] = m.training->seq_len;
  j["tie_word_embeddings"] = m.tie_word_embeddings;
  // RoPE's base and the norms' epsilon where the source stated them (the reader reads them back).
  if (m.rope_theta) j["rope_theta"] = *m.rope_theta;
  if (m.norm_eps) j["rms_norm_eps"] = *m.norm_eps;
  j["hidden_act"] = "silu";  // SwiGLU FFNs (paper 002 Sec. 3.4)
  j["torch_dtype"] = "bfloat16";
  // Sliding-window layers (gpt-oss): layer_types and one sliding_window, as those configs
  // write them; the reader gives them back. Other per-layer patterns are written by no class
  // here (the read-back comparison then refuses the class).
  int window = 0;
  for (const LayerSpec& l : m.layers) window = l.window > 0 ? l.window : window;
  if (window > 0) {
    Json types = Json::array();
    for (const LayerSpec& l : m.layers) types.push_back(l.window > 0 ? "sliding_attention" : "full_attention");
    j["layer_types"] = types;
    j["sliding_window"] = window;
  }
  return j;
}

// Everything that sets the parameter count and the layer layout.
bool same_architecture(const ModelConfig& a, const ModelConfig& b) {
  const auto mla = [](const ModelConfig& m) {
    const LatentAttention x = m.latent_attention.value_or(LatentAttention{});
    return std::tuple(m.latent_attention.has_value(), x.q_lora_rank, x.kv_lora_rank,
                      x.qk_nope_head_dim, x.qk_rope_head_dim, x.v_head_dim);
  };
  const auto layout = [&mla](const ModelConfig& m) {
    return std::tuple(m.hidden_size, m.num_hidden_layers, m.dense_layers(), m.moe_layers(),
                      m.dense_layers() > 0 ? m.intermediate_size : 0,
                      m.is_moe() ? m.first_k_dense_replace : 0, m.is_moe() ? m.moe_layer_interval : 1,
                      m.moe_intermediate_size, m.n_routed_experts, m.num_experts_per_tok,
                      m.n_shared_experts, m.n_shared_experts > 0 ? m.shared_width() : 0,
                      m.num_attention_heads, m.num_key_value_heads,
                      m.latent_attention ? 0 : m.head_size(),  // MLA: the ranks set the heads
                      m.vocab_size,
                      m.tie_word_embeddings, mla(m));
  };
  // Per-layer patterns, non-softmax mixers and the rest are written by no class here: a model
  // with any of them matches no candidate and is refused.
  const auto unusual = [](const ModelConfig& m) {
    return std::tuple(m.layers, m.linear_mixers, m.indexer, m.compressed_attention, m.hash_routed_layers,
                      m.zero_experts, m.ffn_gated, m.gated_attention,
                      m.gqa_q_lora_rank, m.position_embedding, m.partial_rotary_factor, m.no_rope_layers,
                      m.layernorm_1p, m.head_wise_attn_gate, m.moe_latent_size);
  };
  // The buffers a checkpoint stores (checkpoint_buffer_values) are the class's own (its router's
  // correction bias) and no parameter, and the written config is the text model's (a vision
  // tower left uncounted, vision_not_counted, is not part of what the class must build): the
  // written class need not match the source's in either.
  BuiltExtras ea = a.extras;
  BuiltExtras eb = b.extras;
  eb.checkpoint_buffer_values = ea.checkpoint_buffer_values;
  ea.vision_not_counted.clear();
  eb.vision_not_counted.clear();
  return layout(a) == layout(b) && ea == eb && unusual(a) == unusual(b);
}

// The classes tried, in order: the model's own, the one its rule says builds it, then the
// general ones; each once.
std::vector<std::string> candidate_families(const ModelConfig& m) {
  std::vector<std::string> out;
  const auto add = [&out](std::string_view f) {
    if (writer_of(f) && std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
  };
  if (!m.hf_model_type.empty()) {
    add(m.hf_model_type);
    if (const hf::FamilyRule* rule = hf::rule_of(m.hf_model_type)) {
      for (const auto& [model_type, builder] : rule->built_by) {
        if (model_type == m.hf_model_type) add(builder);
      }
    }
  }
  if (m.latent_attention) {
    add("deepseek_v3");
  } else if (m.is_moe()) {
    for (const char* f : {"glm4_moe", "qwen2_moe", "llama4_text"}) add(f);
  } else {
    add("llama");
  }
  return out;
}

}  // namespace

std::expected<std::string, ConstraintViolation> hf_export_model_type(const ModelConfig& m) {
  std::vector<std::string> tried;
  for (const std::string& f : candidate_families(m)) {
    const std::string text = write_family(m, f).dump();
    const auto back = parse_hf_config_json(text, "<export>", m.name);
    if (back && same_architecture(*back, m)) return f;
    tried.push_back(f);
  }
  if (const auto why = non_uniform_layers(m)) {  // hybrids and patterns: Megatron refuses them too
    return std::unexpected(ConstraintViolation{
        "a transformers class that builds the counted model",
        fmt::format("none of {} does: {}; use --emit toml", fmt::join(tried, ", "), *why)});
  }
  if (m.position_embedding != PositionEmbedding::rope || !m.no_rope_layers.empty()) {
    return std::unexpected(ConstraintViolation{
        "a transformers class that builds the counted model",
        fmt::format("none of {} does: they apply RoPE in every layer and the model's positions are {}; "
                    "use --emit toml",
                    fmt::join(tried, ", "),
                    m.position_embedding == PositionEmbedding::alibi ? "ALiBi (BLOOM's class, which no writer here builds)"
                    : m.position_embedding == PositionEmbedding::learned_absolute
                        ? "a learned absolute table (GPT-2's and gpt_bigcode's classes, which no writer here builds)"
                    : m.position_embedding == PositionEmbedding::none ? "none"
                                                                       : "RoPE but not in every layer (SmolLM3's no_rope_layers)")});
  }
  if (!m.ffn_gated) {  // GPT-2, BLOOM, Falcon, StarCoder: classes no writer here builds
    return std::unexpected(ConstraintViolation{
        "a transformers class that builds the counted model",
        fmt::format("none of {} does: they build gated (SwiGLU) FFNs and the model's are ungated "
                    "(up and down only); use --emit toml or --emit megatron",
                    fmt::join(tried, ", "))});
  }
  return std::unexpected(ConstraintViolation{
      "a transformers class that builds the counted model",
      fmt::format("none of {} does (they differ in layer layout, shared-expert width or the "
                  "biases/norms they build); use --emit toml or --emit megatron",
                  fmt::join(tried, ", "))});
}

std::expected<std::string, ConstraintViolation> to_hf_config_json(const ModelConfig& m,
                                                                  std::string* model_type) {
  const auto family = hf_export_model_type(m);
  if (!family) return std::unexpected(family.error());
  if (model_type) *model_type = *family;
  Json j = write_family(m, *family);
  const BesideN b = count_beside_n(m);
  Json beside;
  const auto count = [](Params p) { return static_cast<std::int64_t>(std::llround(p.value())); };
  beside["routers"] = count(b.routers);
  beside["norms"] = count(b.norms);
  beside["biases"] = count(b.biases);
  beside["gates_and_sinks"] = count(b.gates_and_sinks);
  beside["total"] = count(b.total);
  if (m.extras.num_nextn_predict_layers > 0) {
    beside["mtp_modules"] = count(count_mtp(m).modules);  // not built by the class: skipped on load
  }
  beside["note"] = fmt::format(
      "{} builds paper 002's N exactly, plus these weights beside it (routers, RMSNorms, "
      "biases, gates, sinks), which moeplan reports beside N; transformers ignores this key",
      hf::class_written(*writer_of(*family), *family));
  j["_moeplan_beside_n"] = beside;
  return j.dump(2) + "\n";
}

}  // namespace moeplan
