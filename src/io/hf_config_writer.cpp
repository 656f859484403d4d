// Writing HuggingFace config.json. A class is used only when it builds exactly the counted
// model: each candidate is written, read back with parse_hf_config_json and compared
// field by field with the model, so the writer and the reader cannot drift apart.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "moeplan/io/hf_config.hpp"

namespace moeplan {
namespace {

using Json = nlohmann::ordered_json;

const char* architecture_of(const std::string& family) {
  static const std::vector<std::pair<std::string, const char*>> names{
      {"deepseek_v2", "DeepseekV2ForCausalLM"}, {"deepseek_v3", "DeepseekV3ForCausalLM"},
      {"kimi_k2", "DeepseekV3ForCausalLM"},     {"glm4_moe", "Glm4MoeForCausalLM"},
      {"dots1", "Dots1ForCausalLM"},            {"qwen2_moe", "Qwen2MoeForCausalLM"},
      {"qwen3_moe", "Qwen3MoeForCausalLM"},     {"mixtral", "MixtralForCausalLM"},
      {"olmoe", "OlmoeForCausalLM"},            {"gpt_oss", "GptOssForCausalLM"},
      {"hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM"}, {"llama4_text", "Llama4ForCausalLM"},
      {"llama", "LlamaForCausalLM"},            {"mistral", "MistralForCausalLM"},
      {"qwen2", "Qwen2ForCausalLM"},            {"qwen3", "Qwen3ForCausalLM"},
      {"gemma", "GemmaForCausalLM"},            {"phi3", "Phi3ForCausalLM"},
      // remote-code and newer classes, tried for a config of their own family only
      {"ernie4_5_moe", "Ernie4_5_MoeForCausalLM"}, {"bailing_moe", "BailingMoeForCausalLM"}};
  for (const auto& [family_name, architecture] : names) {
    if (family_name == family) return architecture;
  }
  return nullptr;
}

bool is_deepseek_layout(const std::string& f) {
  return f == "deepseek_v2" || f == "deepseek_v3" || f == "kimi_k2" || f == "glm4_moe" || f == "dots1";
}

// The family's own key names for the experts and the layer layout.
void write_experts(const ModelConfig& m, const std::string& f, Json& j) {
  if (!m.is_moe()) return;
  if (is_deepseek_layout(f)) {
    j["first_k_dense_replace"] = m.first_k_dense_replace;
    j["n_routed_experts"] = m.n_routed_experts;
    j["n_shared_experts"] = m.n_shared_experts;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_layer_freq"] = 1;
    j["n_group"] = 1;  // no group-limited routing: paper 002 routes over all experts
    j["topk_group"] = 1;
    if (m.extras.num_nextn_predict_layers > 0) {  // MTP modules, as DeepSeek-V3 and GLM-4.5 write them
      j["num_nextn_predict_layers"] = m.extras.num_nextn_predict_layers;
    }
  } else if (f == "qwen2_moe" || f == "qwen3_moe") {
    j["num_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    if (f == "qwen2_moe") {
      j["shared_expert_intermediate_size"] = m.n_shared_experts > 0 ? m.shared_width() : 0;
    }
    j["decoder_sparse_step"] = 1;
    Json dense = Json::array();
    for (int k = 0; k < m.first_k_dense_replace; ++k) dense.push_back(k);
    j["mlp_only_layers"] = dense;
  } else if (f == "mixtral" || f == "gpt_oss") {
    j["num_local_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    if (f == "gpt_oss") j["experts_per_token"] = m.num_experts_per_tok;
    j["intermediate_size"] = m.moe_intermediate_size;
  } else if (f == "olmoe") {
    j["num_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["intermediate_size"] = m.moe_intermediate_size;
  } else if (f == "hunyuan_v1_moe") {  // one width for experts and the shared MLP (reader)
    j["num_experts"] = m.n_routed_experts;
    j["moe_topk"] = m.num_experts_per_tok;
    j["intermediate_size"] = m.moe_intermediate_size;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_shared_expert"] = 1;
    j["use_mixed_mlp_moe"] = true;
  } else if (f == "ernie4_5_moe") {  // MoE from moe_layer_start_index to the last layer
    j["moe_num_experts"] = m.n_routed_experts;
    j["moe_k"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["moe_num_shared_experts"] = m.n_shared_experts;  // one MLP of moe_intermediate_size x this
    j["moe_layer_start_index"] = m.first_k_dense_replace;
    j["moe_layer_end_index"] = m.num_hidden_layers - 1;
    j["moe_layer_interval"] = 1;
  } else if (f == "bailing_moe") {  // Ling v1 (BailingMoeForCausalLM)
    j["num_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_shared_experts"] = m.n_shared_experts;  // one MLP of moe_intermediate_size x this
    j["first_k_dense_replace"] = m.first_k_dense_replace;
  } else if (f == "llama4_text") {
    j["num_local_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["interleave_moe_layer_step"] = m.moe_layer_interval;
    j["intermediate_size"] = m.moe_intermediate_size;
    if (m.dense_layers() > 0) j["intermediate_size_mlp"] = m.intermediate_size;
  }
}

// What the family reads as attention biases and qk-norm (hf_config_reader.cpp).
void write_attention_switches(const ModelConfig& m, const std::string& f, Json& j) {
  if (f == "glm4_moe") {
    j["attention_bias"] = m.extras.qkv_bias;
    j["use_qk_norm"] = m.extras.qk_norm == QkNorm::per_head;
  } else if (f == "qwen2_moe") {
    j["qkv_bias"] = m.extras.qkv_bias;
  } else if (f == "hunyuan_v1_moe") {
    j["attention_bias"] = m.extras.qkv_bias;
    j["use_qk_norm"] = true;  // the class builds the q/k norms either way
  } else if (f == "ernie4_5_moe") {  // every projection's bias, MLPs' and lm_head's too
    j["use_bias"] = m.extras.qkv_bias;
  } else if (f == "bailing_moe") {
    j["use_qkv_bias"] = m.extras.qkv_bias;
    j["use_bias"] = m.extras.output_bias;
  } else if (f == "dots1" || f == "olmoe" || f == "qwen3_moe" || f == "gpt_oss" || f == "llama4_text" ||
             f == "llama" || f == "qwen3" || f == "gemma") {
    j["attention_bias"] = m.extras.qkv_bias;
  }
}

Json write_family(const ModelConfig& m, const std::string& f) {
  Json j;
  j["architectures"] = {architecture_of(f)};
  j["model_type"] = f;
  j["_name_or_path"] = m.name;
  j["hidden_size"] = m.hidden_size;
  if (m.intermediate_size > 0 && m.dense_layers() > 0) {
    j["intermediate_size"] = m.intermediate_size;
  } else if (m.is_moe() && (is_deepseek_layout(f) || f == "qwen2_moe" || f == "qwen3_moe")) {
    // These classes size their dense layers from intermediate_size and type it as an int
    // (Glm4MoeConfig, DeepseekV3Config, Qwen3MoeConfig): absent, the class takes a default
    // of its own; null is not an int. With no dense layer no module reads it, so any width
    // builds nothing: the model's own when it has one, else the experts'.
    j["intermediate_size"] = m.intermediate_size > 0 ? m.intermediate_size : m.moe_intermediate_size;
  }
  j["num_hidden_layers"] = m.num_hidden_layers;
  j["num_attention_heads"] = m.num_attention_heads;
  j["num_key_value_heads"] = m.num_key_value_heads;
  // DeepseekV3Config derives head_dim from the MLA ranks (qk_rope_head_dim); a head_dim key
  // would override that and break its rotary embedding.
  if (!m.latent_attention) j["head_dim"] = m.head_size();
  write_experts(m, f, j);
  write_attention_switches(m, f, j);
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
    return std::tuple(m.layers, m.linear_mixers, m.indexer, m.zero_experts, m.ffn_gated, m.gated_attention,
                      m.gqa_q_lora_rank);
  };
  return layout(a) == layout(b) && a.extras == b.extras && unusual(a) == unusual(b);
}

// The classes tried, in order: the model's own, then the general ones.
std::vector<std::string> candidate_families(const ModelConfig& m) {
  std::vector<std::string> out;
  // kimi_k2 has no transformers class of its own (its checkpoints load remote code, a
  // DeepSeek-V3 copy): the native deepseek_v3 class builds the same model.
  if (!m.hf_model_type.empty() && m.hf_model_type != "kimi_k2" && architecture_of(m.hf_model_type)) {
    out.push_back(m.hf_model_type);
  }
  // Families no writer here names, whose model the class of another builds: DBRX and Granite
  // MoE are Mixtral's layout, the VL models' text models are Qwen3-MoE's and GLM-4.5's (each
  // candidate is still checked field by field).
  for (const auto& [family, alike] : {std::pair<std::string_view, const char*>{"dbrx", "mixtral"},
                                      {"granitemoe", "mixtral"}, {"granitemoeshared", "mixtral"},
                                      {"qwen3_vl_moe_text", "qwen3_moe"}, {"glm4v_moe_text", "glm4_moe"}}) {
    if (m.hf_model_type == family) out.emplace_back(alike);
  }
  if (m.latent_attention) {
    out.emplace_back("deepseek_v3");
  } else if (m.is_moe()) {
    for (const char* f : {"glm4_moe", "qwen2_moe", "llama4_text"}) out.emplace_back(f);
  } else {
    out.emplace_back("llama");
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
      architecture_of(*family));
  j["_moeplan_beside_n"] = beside;
  return j.dump(2) + "\n";
}

}  // namespace moeplan
