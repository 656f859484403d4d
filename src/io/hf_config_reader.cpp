// Reading HuggingFace config.json by model_type. Each family's rules say which keys hold
// its experts and which tensors its transformers class builds beside paper 002's N; the
// sources are the transformers configuration_*.py / modeling_*.py of each model_type and
// the published config.json files of tests/data/hf (official.csv cites each).
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moeplan/io/hf_config.hpp"

namespace moeplan {
namespace {

// 1-based line and column of byte `offset` in `text`.
std::pair<int, int> line_column(std::string_view text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Like the TOML Reader, the first problem wins. nlohmann keeps no source positions, so a
// key's place is where `"key":` first appears in the text (good enough for config.json).
class JsonReader {
 public:
  JsonReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  /// Keys are looked for among the members of the object `key` of the current one (Llama 4's
  /// text_config); fail() then points at its keys.
  void enter(const std::string& key) {
    if (const auto at = member_offset(key)) scope_ = *at;
  }

  void fail(const std::string& key, std::string reason) {
    if (error_) return;
    int line = 0;
    int column = 0;
    if (const auto at = member_offset(key)) std::tie(line, column) = line_column(text_, *at);
    error_ = InputError{source_, line, column, key, std::move(reason)};
  }

  // Absent or null: nullopt. Present: an integer in [min, 1e9], else an error.
  std::optional<int> integer(const nlohmann::json& j, const std::string& key, int min) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    return checked(*it, key, min);
  }

  int required(const nlohmann::json& j, const std::string& key, int min) {
    if (!j.contains(key) || j[key].is_null()) {
      fail(key, "missing integer");
      return 0;
    }
    return integer(j, key, min).value_or(0);
  }

  // An integer, or a per-layer list of equal integers (Hunyuan writes moe_topk as a list).
  std::optional<int> integer_or_uniform_list(const nlohmann::json& j, const std::string& key, int min) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_array()) return checked(*it, key, min);
    if (it->empty()) {
      fail(key, "is an empty list");
      return std::nullopt;
    }
    std::optional<int> first;
    for (const auto& v : *it) {
      const auto x = checked(v, key, min);
      if (!x) return std::nullopt;
      if (first && *x != *first) {
        fail(key, fmt::format("differs between layers ({} and {}); moeplan counts one layout for all MoE layers",
                              *first, *x));
        return std::nullopt;
      }
      first = x;
    }
    return first;
  }

  std::optional<bool> boolean(const nlohmann::json& j, const std::string& key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) {
      fail(key, fmt::format("must be true or false, got {}", type_name(*it)));
      return std::nullopt;
    }
    return it->get<bool>();
  }

  std::optional<std::string> string(const nlohmann::json& j, const std::string& key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
      fail(key, fmt::format("must be a string, got {}", type_name(*it)));
      return std::nullopt;
    }
    return it->get<std::string>();
  }

 private:
  std::optional<int> checked(const nlohmann::json& v, const std::string& key, int min) {
    if (!v.is_number_integer()) {
      fail(key, fmt::format("must be an integer, got {}", type_name(v)));
      return std::nullopt;
    }
    // Past 2^63 nlohmann holds an unsigned value; compare as double so it is not wrapped.
    const double x = v.is_number_unsigned() ? static_cast<double>(v.get<std::uint64_t>())
                                             : static_cast<double>(v.get<std::int64_t>());
    if (x < min || x > 1e9) {
      fail(key, fmt::format("must be in [{}, 1e9], got {}", min, v.dump()));
      return std::nullopt;
    }
    return static_cast<int>(x);
  }

  static std::string type_name(const nlohmann::json& v) {
    if (v.is_number_float()) return "a float";
    const std::string t = v.type_name();
    return (t == "array" || t == "object" ? "an " : "a ") + t;
  }

  // Where `"key":` is a member of the object that starts at the first '{' from scope_ (the
  // document, or the object entered). nlohmann keeps no source positions, so the text is
  // scanned, counting nesting: a key of the same name inside a nested object (DBRX's
  // attn_config.model_type) is another key. The text has been parsed, so it is valid JSON.
  [[nodiscard]] std::optional<std::size_t> member_offset(const std::string& key) const {
    int depth = 0;
    for (std::size_t i = text_.find('{', scope_); i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return std::nullopt;
      } else if (c == '"') {
        std::size_t end = i + 1;
        while (end < text_.size() && text_[end] != '"') end += text_[end] == '\\' ? 2 : 1;
        std::size_t after = end + 1;
        while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t' ||
                                        text_[after] == '\n' || text_[after] == '\r')) {
          ++after;
        }
        if (depth == 1 && after < text_.size() && text_[after] == ':' &&
            text_.substr(i + 1, end - i - 1) == key) {
          return i;
        }
        i = end;
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::string source_;
  std::size_t scope_ = 0;
  std::optional<InputError> error_;
};

bool is_one_of(const std::string& x, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}

bool is_known_family(const std::string& f) {
  return is_one_of(f, {"deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe", "dots1", "qwen2_moe",
                       "qwen3_moe", "mixtral", "olmoe", "gpt_oss", "hunyuan_v1_moe", "llama4_text",
                       "llama", "mistral", "qwen2", "qwen3", "gemma", "phi3"});
}

// Keys that set up experts in some family. One the family's rules did not read means the
// model is not what moeplan would count: refused, naming it.
constexpr std::initializer_list<const char*> k_moe_keys = {
    "n_routed_experts", "num_experts", "num_local_experts", "num_experts_per_tok",
    "moe_intermediate_size", "shared_expert_intermediate_size", "n_shared_experts",
    "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers",
    "moe_topk", "num_shared_expert", "experts_per_token", "interleave_moe_layer_step",
    "moe_layers", "num_experts_per_topk", "intermediate_size_mlp", "use_mixed_mlp_moe"};

// Reads one family's rules into `m`; `take` marks a key as read.
class FamilyReader {
 public:
  FamilyReader(const nlohmann::json& j, JsonReader& r, ModelConfig& m) : j_(j), r_(r), m_(m) {}

  [[nodiscard]] const std::set<std::string>& consumed() const { return consumed_; }

  void read(const std::string& family) {
    if (is_one_of(family, {"deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe", "dots1"})) {
      deepseek_layout(family);
    } else if (is_one_of(family, {"qwen2_moe", "qwen3_moe"})) {
      qwen_moe(family);
    } else if (is_one_of(family, {"mixtral", "olmoe", "gpt_oss"})) {
      every_layer_moe(family);
    } else if (family == "hunyuan_v1_moe") {
      hunyuan();
    } else if (family == "llama4_text") {
      llama4();
    } else if (is_one_of(family, {"llama", "mistral", "qwen2", "qwen3", "gemma", "phi3"})) {
      dense(family);
    } else {
      r_.fail("model_type", fmt::format("'{}' is not a family moeplan can count ({}); refusing "
                                        "rather than reading it as a dense model",
                                        family, hf_supported_model_types()));
    }
  }

 private:
  const char* take(const char* key) {
    consumed_.insert(key);
    return key;
  }

  // attention_bias: `qkv_only` classes put it on q, k, v (Glm4Moe); the Llama/Qwen3
  // lineage puts it on the output projection too.
  void attention_bias(bool default_value, bool qkv_only) {
    const bool on = r_.boolean(j_, "attention_bias").value_or(default_value);
    m_.extras.qkv_bias = on;
    m_.extras.output_bias = on && !qkv_only;
  }

  // DeepSeek layout: n_routed_experts (absent or null: dense), first_k_dense_replace leading
  // dense layers, n_shared_experts of width moe_intermediate_size.
  void deepseek_layout(const std::string& family) {
    // Absent, the class's own default applies (DeepSeek-V3: 256 experts, 1 shared, 3 dense
    // layers), which moeplan does not guess: these keys must be written out. Null or 0
    // experts is a dense model.
    if (!j_.contains("n_routed_experts")) {
      r_.fail("n_routed_experts", "missing: the class would use its own default; write the "
                                  "expert count (null or 0 for a dense model)");
      return;
    }
    if (const auto e = r_.integer(j_, take("n_routed_experts"), 0); e && *e > 0) {
      m_.n_routed_experts = *e;
      m_.moe_intermediate_size = r_.required(j_, take("moe_intermediate_size"), 1);
      m_.num_experts_per_tok = r_.required(j_, take("num_experts_per_tok"), 1);
      m_.n_shared_experts = r_.required(j_, take("n_shared_experts"), 0);
      m_.first_k_dense_replace = r_.required(j_, take("first_k_dense_replace"), 0);
      if (const auto freq = r_.integer(j_, take("moe_layer_freq"), 1); freq && *freq != 1) {
        r_.fail("moe_layer_freq", fmt::format("only 1 (every layer after first_k_dense_replace is "
                                              "MoE) is supported, got {}", *freq));
      }
    } else {
      m_.first_k_dense_replace = m_.num_hidden_layers;
    }
    // Multi-token-prediction modules, counted beside the main model (count_mtp): 1 in
    // DeepSeek-V3/V3.1/R1 and GLM-4.5(-Air), 0 in Kimi-K2. transformers' classes skip their
    // weights on load (DeepseekV3/Glm4Moe _keys_to_ignore_on_load_unexpected), the
    // checkpoints hold them.
    m_.extras.num_nextn_predict_layers =
        r_.integer(j_, take("num_nextn_predict_layers"), 0).value_or(0);
    if (family == "glm4_moe") {  // Glm4MoeAttention: q, k, v biases; per-head qk-norm
      attention_bias(false, true);
      if (r_.boolean(j_, "use_qk_norm").value_or(false)) m_.extras.qk_norm = QkNorm::per_head;
    } else if (family == "dots1") {  // Dots1Attention (Qwen3's): always qk-norm per head
      attention_bias(false, false);
      m_.extras.qk_norm = QkNorm::per_head;
    } else if (r_.boolean(j_, "attention_bias").value_or(false)) {
      r_.fail("attention_bias", "biases of latent attention are not counted by moeplan");
    }
  }

  // Qwen MoE: num_experts of width moe_intermediate_size in every layer but the leading
  // mlp_only_layers; qwen2_moe adds one shared expert with a sigmoid gate (d weights).
  void qwen_moe(const std::string& family) {
    m_.n_routed_experts = r_.required(j_, take("num_experts"), 1);
    m_.num_experts_per_tok = r_.required(j_, take("num_experts_per_tok"), 1);
    m_.moe_intermediate_size = r_.required(j_, take("moe_intermediate_size"), 1);
    if (family == "qwen2_moe") {  // Qwen3-MoE builds no shared expert: the key is refused there
      if (const auto w = r_.integer(j_, take("shared_expert_intermediate_size"), 0); w && *w > 0) {
        m_.n_shared_experts = 1;
        m_.shared_expert_intermediate_size = *w;
      }
    }
    if (const auto step = r_.integer(j_, take("decoder_sparse_step"), 1); step && *step != 1) {
      r_.fail("decoder_sparse_step", fmt::format("only 1 (every layer MoE) is supported, got {}", *step));
    }
    take("mlp_only_layers");
    if (const auto it = j_.find("mlp_only_layers"); it != j_.end() && !it->is_null()) {
      if (!it->is_array()) {
        r_.fail("mlp_only_layers", "must be a list of layer indices");
      } else {
        // Leading dense layers are first_k_dense_replace; any other pattern is refused.
        for (std::size_t k = 0; k < it->size(); ++k) {
          if (!(*it)[k].is_number_integer() || (*it)[k].get<std::int64_t>() != std::int64_t(k)) {
            r_.fail("mlp_only_layers", "only a leading run 0, 1, ..., k-1 of dense layers is supported");
            break;
          }
        }
        m_.first_k_dense_replace = static_cast<int>(it->size());
        if (m_.first_k_dense_replace >= m_.num_hidden_layers) {
          r_.fail("mlp_only_layers", "covers every layer: no MoE layer is left");
        }
      }
    }
    if (family == "qwen2_moe") {
      // Qwen2MoeSparseMoeBlock builds its shared-expert gate (d weights) in every MoE layer,
      // shared expert or not; Qwen2MoeAttention has q, k, v biases (qkv_bias, default on).
      m_.extras.shared_expert_gate = true;
      m_.extras.qkv_bias = r_.boolean(j_, "qkv_bias").value_or(true);
    } else {                      // Qwen3MoeAttention: per-head qk-norm
      attention_bias(false, false);
      m_.extras.qk_norm = QkNorm::per_head;
    }
  }

  // Every layer MoE; the experts' width is intermediate_size; no shared expert.
  void every_layer_moe(const std::string& family) {
    m_.n_routed_experts = r_.required(j_, take(family == "olmoe" ? "num_experts" : "num_local_experts"), 1);
    m_.moe_intermediate_size = r_.required(j_, "intermediate_size", 1);
    m_.intermediate_size = 0;  // no dense FFN in these classes
    if (family == "gpt_oss") {
      // GptOssConfig writes the top-k twice (experts_per_token, num_experts_per_tok).
      const auto k = r_.integer(j_, take("num_experts_per_tok"), 1);
      const auto k2 = r_.integer(j_, take("experts_per_token"), 1);
      if (k && k2 && *k != *k2) {
        r_.fail("experts_per_token", fmt::format("is {} but num_experts_per_tok is {}", *k2, *k));
      }
      m_.num_experts_per_tok = k.value_or(k2.value_or(0));
      if (!k && !k2) r_.fail("num_experts_per_tok", "missing integer");
      // GptOssAttention: q, k, v, o biases and a learned sink per head; the router has biases,
      // and every expert a gate_up (2 d_m) and a down (d) bias.
      attention_bias(true, false);
      m_.extras.attention_sinks = true;
      m_.extras.router_bias = true;
      m_.extras.expert_bias = true;
    } else {
      m_.num_experts_per_tok = r_.required(j_, take("num_experts_per_tok"), 1);
      if (family == "olmoe") {  // OlmoeAttention: q_norm, k_norm over all heads; attention_bias
        m_.extras.qk_norm = QkNorm::full_width;
        attention_bias(false, false);
      }
    }
  }

  // HunYuan-MoE-V1: num_experts routed experts and one shared MLP in every layer, all of
  // intermediate_size. The remote code of the published checkpoints also reads
  // moe_intermediate_size, num_shared_expert and use_mixed_mlp_moe (per-layer lists
  // allowed), transformers' HunYuanMoEV1 class does not: only configs on which the two agree
  // are counted, so the count does not depend on which code builds the model.
  void hunyuan() {
    m_.n_routed_experts = r_.required(j_, take("num_experts"), 1);
    take("moe_topk");
    m_.num_experts_per_tok = r_.integer_or_uniform_list(j_, "moe_topk", 1).value_or(0);
    if (!r_.failed() && m_.num_experts_per_tok == 0) r_.fail("moe_topk", "missing integer");
    m_.moe_intermediate_size = m_.intermediate_size;
    m_.n_shared_experts = 1;
    take("moe_intermediate_size");
    if (const auto w = r_.integer_or_uniform_list(j_, "moe_intermediate_size", 1); w && *w != m_.intermediate_size) {
      r_.fail("moe_intermediate_size", fmt::format("is {} but intermediate_size is {}: transformers' "
                                                   "HunYuanMoEV1 sizes every expert from intermediate_size, "
                                                   "the remote code from this key", *w, m_.intermediate_size));
    }
    take("num_shared_expert");
    if (const auto n = r_.integer_or_uniform_list(j_, "num_shared_expert", 0); n && *n != 1) {
      r_.fail("num_shared_expert", fmt::format("is {}: transformers' HunYuanMoEV1 builds one shared MLP", *n));
    }
    take("use_mixed_mlp_moe");
    if (!r_.boolean(j_, "use_mixed_mlp_moe").value_or(true)) {
      r_.fail("use_mixed_mlp_moe", "is false: transformers' HunYuanMoEV1 builds the shared MLP anyway");
    }
    if (!m_.head_dim) m_.head_dim = r_.integer(j_, "attention_head_dim", 1).value_or(0);
    attention_bias(false, false);
    m_.extras.qk_norm = QkNorm::per_head;  // query_layernorm, key_layernorm (head_dim each)
  }

  // Llama 4 text model: every interleave_moe_layer_step-th layer is MoE (layers k-1, 2k-1,
  // ...) with num_local_experts routed experts and one shared expert, both of
  // intermediate_size; the other layers are dense FFNs of intermediate_size_mlp. Its qk-norm
  // is an L2 norm without weights.
  void llama4() {
    m_.n_routed_experts = r_.required(j_, take("num_local_experts"), 1);
    m_.num_experts_per_tok = r_.required(j_, take("num_experts_per_tok"), 1);
    m_.moe_intermediate_size = r_.required(j_, "intermediate_size", 1);
    m_.n_shared_experts = 1;
    m_.moe_layer_interval = r_.integer(j_, take("interleave_moe_layer_step"), 1).value_or(1);
    m_.intermediate_size = r_.integer(j_, take("intermediate_size_mlp"), 1).value_or(0);
    if (m_.moe_layer_interval > 1 && m_.intermediate_size == 0 && !r_.failed()) {
      r_.fail("intermediate_size_mlp", "missing: the dense layers between the MoE layers need their width");
    }
    take("moe_layers");
    if (const auto it = j_.find("moe_layers"); it != j_.end() && !it->is_null()) {
      const int k = m_.moe_layer_interval;
      bool same = it->is_array();
      int expected = k - 1;
      for (std::size_t i = 0; same && i < it->size(); ++i, expected += k) {
        same = (*it)[i].is_number_integer() && (*it)[i].get<std::int64_t>() == expected;
      }
      if (!same || expected < m_.num_hidden_layers) {
        r_.fail("moe_layers", fmt::format("only every {}-th layer ({}, {}, ...) as MoE is supported "
                                          "(interleave_moe_layer_step)", k, k - 1, 2 * k - 1));
      }
    }
    attention_bias(false, false);
  }

  void dense(const std::string& family) {
    m_.first_k_dense_replace = m_.num_hidden_layers;
    if (family == "qwen2") {  // Qwen2Attention: q, k, v biases
      m_.extras.qkv_bias = true;
    } else if (is_one_of(family, {"llama", "qwen3", "gemma"})) {  // attention_bias on q, k, v, o
      attention_bias(false, false);
      if (family == "qwen3") m_.extras.qk_norm = QkNorm::per_head;
    }  // MistralAttention and Phi3Attention have no biases and no such key
    if (r_.boolean(j_, "mlp_bias").value_or(false)) {
      r_.fail("mlp_bias", "biases of the FFN are not counted by moeplan");
    }
  }

  const nlohmann::json& j_;
  JsonReader& r_;
  ModelConfig& m_;
  std::set<std::string> consumed_;
};

}  // namespace

std::string_view hf_supported_model_types() {
  return "supported: deepseek_v2, deepseek_v3, kimi_k2, glm4_moe, dots1, qwen2_moe, qwen3_moe, "
         "mixtral, olmoe, gpt_oss, hunyuan_v1_moe, llama4 (its text model), and dense llama, "
         "mistral, qwen2, qwen3, gemma, phi3";
}

std::expected<ModelConfig, InputError> parse_hf_config_json(std::string_view text,
                                                            std::string source,
                                                            std::string name_when_missing) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte where parsing stopped.
    const auto [line, column] = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string why = e.what();
    if (const auto colon = why.rfind(": "); colon != std::string::npos) why = why.substr(colon + 2);
    return std::unexpected(InputError{source, line, column, "", "invalid JSON: " + why});
  } catch (const nlohmann::json::exception& e) {
    // Other parser failures carry no position: a number too large for a double
    // ("1e99999") is out_of_range.406, not a parse_error (found by fuzz_hf_config).
    std::string why = e.what();
    if (const auto bracket = why.find("] "); bracket != std::string::npos) why = why.substr(bracket + 2);
    return std::unexpected(InputError{source, 0, 0, "", "invalid JSON: " + why});
  }
  if (!doc.is_object()) {
    return std::unexpected(InputError{source, 1, 1, "", "expected a JSON object (config.json)"});
  }
  JsonReader r(text, source);
  ModelConfig m;
  m.name = r.string(doc, "_name_or_path").value_or(std::move(name_when_missing));
  m.source = source;
  std::string family = r.string(doc, "model_type").value_or("");
  // Llama 4 checkpoints are multimodal: the language model is text_config (llama4_text).
  const nlohmann::json* body = &doc;
  std::string what = family;
  if (family == "llama4" && !r.failed()) {
    const auto it = doc.find("text_config");
    if (it == doc.end() || !it->is_object()) {
      r.fail("text_config", "model_type llama4 needs the text model's text_config object");
    } else {
      body = &*it;
      r.enter("text_config");
      family = r.string(*body, "model_type").value_or("llama4_text");
      what = "llama4, text_config " + family + " (the vision tower is not counted)";
    }
  }
  // The family first: an unknown one is refused before any of its keys is judged.
  if (!r.failed() && family.empty()) {
    r.fail("model_type", fmt::format("missing: moeplan reads config.json by model_type ({})",
                                     hf_supported_model_types()));
  } else if (!r.failed() && !is_known_family(family)) {
    r.fail("model_type", fmt::format("'{}' is not a family moeplan can count ({}); refusing "
                                     "rather than reading it as a dense model",
                                     family, hf_supported_model_types()));
  }
  if (r.failed()) return std::unexpected(r.error());
  const nlohmann::json& j = *body;
  m.description = "HuggingFace config.json, model_type " + what;
  m.hidden_size = r.required(j, "hidden_size", 1);
  m.num_hidden_layers = r.required(j, "num_hidden_layers", 1);
  m.num_attention_heads = r.required(j, "num_attention_heads", 1);
  // Where a class's default differs from what moeplan would assume (N_kv = N_q, head_dim =
  // d/N_q), the key must be written: moeplan does not guess the class defaults.
  if (!j.contains("num_key_value_heads") && !is_one_of(family, {"llama", "phi3", "olmoe", "deepseek_v2", "deepseek_v3", "kimi_k2"})) {
    r.fail("num_key_value_heads", fmt::format("missing: transformers' {} class has a default of its "
                                              "own; write the number of kv heads", family));
  }
  m.num_key_value_heads = r.integer(j, "num_key_value_heads", 1).value_or(m.num_attention_heads);
  m.head_dim = r.integer(j, "head_dim", 1).value_or(0);
  if (!j.contains("head_dim") && is_one_of(family, {"qwen3", "qwen3_moe", "glm4_moe", "dots1", "gemma",
                                                    "gpt_oss", "llama4_text"})) {
    r.fail("head_dim", fmt::format("missing: transformers' {} class has a default of its own, not "
                                   "hidden_size / num_attention_heads; write it", family));
  }
  m.intermediate_size = r.integer(j, "intermediate_size", 1).value_or(0);
  m.vocab_size = r.required(j, "vocab_size", 1);
  // Gemma ties its embeddings unless told otherwise; the other classes do not.
  const bool tied_by_default = family == "gemma";
  m.tie_word_embeddings = r.boolean(j, "tie_word_embeddings")
                              .value_or(r.boolean(doc, "tie_word_embeddings").value_or(tied_by_default));
  m.hf_model_type = family;
  FamilyReader family_reader(j, r, m);
  if (!r.failed()) family_reader.read(family);
  for (const char* key : k_moe_keys) {
    if (r.failed()) break;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null() || family_reader.consumed().contains(key)) continue;
    if (it->is_number() && it->get<double>() == 0) continue;  // an explicit "no experts"
    if (it->is_array() && it->empty()) continue;
    r.fail(key, fmt::format("is a MoE setting that model_type '{}' does not use here; moeplan "
                            "would not count it, so it refuses the file", family));
  }
  // MTP modules in another family: moeplan knows their shape in the DeepSeek layout only, so
  // it refuses the file rather than drop them from the count.
  if (!r.failed() && !family_reader.consumed().contains("num_nextn_predict_layers")) {
    if (const auto n = r.integer(j, "num_nextn_predict_layers", 0); n && *n > 0) {
      r.fail("num_nextn_predict_layers",
             fmt::format("multi-token-prediction modules in model_type '{}': moeplan counts them "
                         "in the DeepSeek layout only (deepseek_v2, deepseek_v3, kimi_k2, glm4_moe, "
                         "dots1), so it refuses the file rather than leave them out", family));
    }
  }
  if (!r.failed() && (!j.contains("kv_lora_rank") || j["kv_lora_rank"].is_null())) {
    for (const char* key : {"q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
      if (j.contains(key) && !j[key].is_null()) {
        r.fail(key, "is a latent-attention (MLA) key but kv_lora_rank is absent; moeplan would "
                    "count plain attention, so it refuses the file");
        break;
      }
    }
  }
  if (const auto kv = r.integer(j, "kv_lora_rank", 1); kv && !r.failed()) {
    LatentAttention a;
    a.kv_lora_rank = *kv;
    a.q_lora_rank = r.integer(j, "q_lora_rank", 0).value_or(0);  // null: full rank
    a.qk_nope_head_dim = r.required(j, "qk_nope_head_dim", 0);
    a.qk_rope_head_dim = r.required(j, "qk_rope_head_dim", 0);
    a.v_head_dim = r.required(j, "v_head_dim", 1);
    m.latent_attention = a;
    if (!is_one_of(family, {"deepseek_v2", "deepseek_v3", "kimi_k2"})) {
      r.fail("kv_lora_rank", fmt::format("latent attention in model_type '{}', whose class builds "
                                         "no MLA", family));
    }
  }
  if (!r.failed()) {
    if (const auto p = m.problem()) {
      // problem() names TOML keys ("model.x"); the JSON key is the part after the dot.
      const auto dot = p->key.find('.');
      r.fail(dot == std::string::npos ? p->key : p->key.substr(dot + 1), p->reason);
    }
  }
  if (r.failed()) return std::unexpected(r.error());
  return m;
}

}  // namespace moeplan
