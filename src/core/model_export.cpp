#include "moeplan/model_export.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <set>
#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "moeplan/model_score.hpp"

namespace moeplan {

// ---- moeplan TOML ------------------------------------------------------------------------

std::string to_model_toml(const ModelConfig& m) {
  // toml++ writes the document so that strings are quoted and escaped correctly and
  // doubles come out in their shortest round-trip form (std::to_chars).
  toml::table doc;
  doc.insert("schema", "moeplan-model/1");
  doc.insert("name", m.name);
  if (!m.description.empty()) doc.insert("description", m.description);
  if (!m.source.empty()) doc.insert("source", m.source);

  toml::table model;
  const auto put = [&model](const char* key, int v) { model.insert(key, int64_t{v}); };
  put("hidden_size", m.hidden_size);
  put("num_hidden_layers", m.num_hidden_layers);
  put("first_k_dense_replace", m.first_k_dense_replace);
  if (m.intermediate_size > 0) put("intermediate_size", m.intermediate_size);
  if (m.is_moe()) {
    put("moe_intermediate_size", m.moe_intermediate_size);
    put("n_routed_experts", m.n_routed_experts);
    put("num_experts_per_tok", m.num_experts_per_tok);
    put("n_shared_experts", m.n_shared_experts);
    if (m.shared_expert_intermediate_size > 0) {
      put("shared_expert_intermediate_size", m.shared_expert_intermediate_size);
    }
  }
  put("num_attention_heads", m.num_attention_heads);
  put("num_key_value_heads", m.num_key_value_heads);
  if (m.head_dim > 0) put("head_dim", m.head_dim);
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    put("q_lora_rank", a.q_lora_rank);
    put("kv_lora_rank", a.kv_lora_rank);
    put("qk_nope_head_dim", a.qk_nope_head_dim);
    put("qk_rope_head_dim", a.qk_rope_head_dim);
    put("v_head_dim", a.v_head_dim);
  }
  put("vocab_size", m.vocab_size);
  model.insert("tie_word_embeddings", m.tie_word_embeddings);
  doc.insert("model", std::move(model));

  if (m.training) {
    const TrainingSetup& t = *m.training;
    toml::table training;
    if (t.tokens) training.insert("tokens", t.tokens->value());
    if (t.compute) training.insert("compute", t.compute->value());
    training.insert("seq_len", int64_t{t.seq_len});
    if (t.unique_tokens) training.insert("unique_tokens", t.unique_tokens->value());
    doc.insert("training", std::move(training));
  }
  if (m.stated) {
    toml::table ref;
    if (m.stated->total) ref.insert("total_params", m.stated->total->value());
    if (m.stated->active) ref.insert("active_params", m.stated->active->value());
    ref.insert("includes_embeddings", m.stated->includes_embeddings);
    doc.insert("reference", std::move(ref));
  }
  std::ostringstream out;
  out << "# moeplan model config (schema moeplan-model/1, docs/model-schema.md);\n"
         "# read it back with: moeplan score FILE\n"
      << doc << "\n";
  return out.str();
}

// ---- HuggingFace config.json ---------------------------------------------------------------

std::string to_hf_config_json(const ModelConfig& m) {
  // Field names and fixed values as in deepseek-ai/DeepSeek-V3's config.json.
  nlohmann::ordered_json j;
  j["architectures"] = {"DeepseekV3ForCausalLM"};
  j["model_type"] = "deepseek_v3";
  j["_name_or_path"] = m.name;
  j["hidden_size"] = m.hidden_size;
  if (m.intermediate_size > 0) j["intermediate_size"] = m.intermediate_size;
  j["num_hidden_layers"] = m.num_hidden_layers;
  j["first_k_dense_replace"] = m.dense_layers();
  if (m.is_moe()) {
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["n_routed_experts"] = m.n_routed_experts;
    j["n_shared_experts"] = m.n_shared_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_layer_freq"] = 1;  // every layer after the first k dense ones is MoE
    if (m.shared_expert_intermediate_size > 0 &&
        m.shared_expert_intermediate_size != m.moe_intermediate_size) {
      // Not a DeepSeek-V3 key (its shared experts have the routed width); Qwen2-MoE's name.
      j["shared_expert_intermediate_size"] = m.shared_expert_intermediate_size;
    }
  }
  j["num_attention_heads"] = m.num_attention_heads;
  j["num_key_value_heads"] = m.num_key_value_heads;
  j["head_dim"] = m.head_size();
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
  j["hidden_act"] = "silu";        // SwiGLU FFNs (paper 002 Sec. 3.4; DeepSeek-V3)
  j["torch_dtype"] = "bfloat16";   // as DeepSeek-V3's config.json
  return j.dump(2) + "\n";
}

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

// The JSON reader: like the TOML Reader, the first problem wins. nlohmann keeps no source
// positions, so a key's place is where `"key":` first appears in the text (good enough for
// the flat objects of config.json).
class JsonReader {
 public:
  JsonReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  void fail(const std::string& key, std::string reason) {
    if (error_) return;
    int line = 0;
    int column = 0;
    const std::string quoted = "\"" + key + "\"";
    for (std::size_t at = text_.find(quoted); at != std::string_view::npos;
         at = text_.find(quoted, at + 1)) {
      std::size_t after = at + quoted.size();
      while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t' ||
                                      text_[after] == '\n' || text_[after] == '\r')) {
        ++after;
      }
      if (after < text_.size() && text_[after] == ':') {
        std::tie(line, column) = line_column(text_, at);
        break;
      }
    }
    error_ = InputError{source_, line, column, key, std::move(reason)};
  }

  // Absent or null: nullopt. Present: an integer in [min, 1e9], else an error.
  std::optional<int> integer(const nlohmann::json& j, const std::string& key, int min) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer()) {
      fail(key, fmt::format("must be an integer, got {}", type_name(*it)));
      return std::nullopt;
    }
    const auto v = it->get<int64_t>();
    if (v < min || v > 1'000'000'000) {
      fail(key, fmt::format("must be in [{}, 1e9], got {}", min, v));
      return std::nullopt;
    }
    return static_cast<int>(v);
  }

  int required(const nlohmann::json& j, const std::string& key, int min) {
    if (!j.contains(key) || j[key].is_null()) {
      fail(key, "missing integer");
      return 0;
    }
    return integer(j, key, min).value_or(0);
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
  static std::string type_name(const nlohmann::json& v) {
    if (v.is_number_float()) return "a float";
    return std::string("a ") + v.type_name();
  }

  std::string_view text_;
  std::string source_;
  std::optional<InputError> error_;
};

}  // namespace

namespace {

bool is_one_of(const std::string& x, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}

std::string supported_model_types() {
  return "supported: deepseek_v2, deepseek_v3, kimi_k2, glm4_moe, dots1, qwen2_moe, "
         "qwen3_moe, mixtral, olmoe, and dense llama, mistral, qwen2, qwen3, gemma, gemma2, phi3";
}

}  // namespace

std::expected<ModelConfig, InputError> parse_hf_config_json(std::string_view text,
                                                            std::string source,
                                                            std::string name_when_missing) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte where parsing stopped.
    const auto [line, column] = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string why = e.what();
    if (const auto colon = why.rfind(": "); colon != std::string::npos) why = why.substr(colon + 2);
    return std::unexpected(InputError{source, line, column, "", "invalid JSON: " + why});
  }
  if (!j.is_object()) {
    return std::unexpected(InputError{source, 1, 1, "", "expected a JSON object (config.json)"});
  }
  JsonReader r(text, source);
  ModelConfig m;
  m.name = r.string(j, "_name_or_path").value_or(std::move(name_when_missing));
  if (const auto mt = r.string(j, "model_type")) m.description = "HuggingFace config.json, model_type " + *mt;
  m.source = source;
  m.hidden_size = r.required(j, "hidden_size", 1);
  m.num_hidden_layers = r.required(j, "num_hidden_layers", 1);
  m.num_attention_heads = r.required(j, "num_attention_heads", 1);
  m.num_key_value_heads = r.integer(j, "num_key_value_heads", 1).value_or(m.num_attention_heads);
  m.head_dim = r.integer(j, "head_dim", 1).value_or(0);
  m.intermediate_size = r.integer(j, "intermediate_size", 1).value_or(0);
  m.vocab_size = r.required(j, "vocab_size", 1);
  m.tie_word_embeddings = r.boolean(j, "tie_word_embeddings").value_or(false);
  // The MoE layout is read by model_type: each family names its experts differently, and a
  // key that is read by the wrong family's rules gives a silently wrong (dense) model.
  std::set<std::string> consumed;
  const auto take = [&](const char* key) {
    consumed.insert(key);
    return key;
  };
  const std::string family = r.string(j, "model_type").value_or("");
  if (!r.failed()) {
    if (family.empty()) {
      r.fail("model_type", fmt::format("missing: moeplan reads config.json by model_type ({})",
                                       supported_model_types()));
    } else if (is_one_of(family, {"deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe", "dots1"})) {
      // DeepSeek layout: n_routed_experts (absent or null: dense), first_k_dense_replace
      // leading dense layers, n_shared_experts of width moe_intermediate_size.
      if (const auto e = r.integer(j, take("n_routed_experts"), 0); e && *e > 0) {
        m.n_routed_experts = *e;
        m.moe_intermediate_size = r.required(j, take("moe_intermediate_size"), 1);
        m.num_experts_per_tok = r.required(j, take("num_experts_per_tok"), 1);
        m.n_shared_experts = r.integer(j, take("n_shared_experts"), 0).value_or(0);
        m.shared_expert_intermediate_size = r.integer(j, take("shared_expert_intermediate_size"), 1).value_or(0);
        m.first_k_dense_replace = r.integer(j, take("first_k_dense_replace"), 0).value_or(0);
        if (const auto freq = r.integer(j, take("moe_layer_freq"), 1); freq && *freq != 1) {
          r.fail("moe_layer_freq", fmt::format("only 1 (every layer after first_k_dense_replace is "
                                               "MoE) is supported, got {}", *freq));
        }
      } else {
        m.first_k_dense_replace = m.num_hidden_layers;
      }
    } else if (is_one_of(family, {"qwen2_moe", "qwen3_moe"})) {
      // Qwen MoE: num_experts of width moe_intermediate_size in every layer (decoder_sparse_step
      // 1, mlp_only_layers empty); qwen2_moe adds one shared expert of
      // shared_expert_intermediate_size (with a sigmoid gate of d parameters, not in N).
      m.n_routed_experts = r.required(j, take("num_experts"), 1);
      m.num_experts_per_tok = r.required(j, take("num_experts_per_tok"), 1);
      m.moe_intermediate_size = r.required(j, take("moe_intermediate_size"), 1);
      if (const auto w = r.integer(j, take("shared_expert_intermediate_size"), 0); w && *w > 0) {
        m.n_shared_experts = 1;
        m.shared_expert_intermediate_size = *w;
      }
      if (const auto step = r.integer(j, take("decoder_sparse_step"), 1); step && *step != 1) {
        r.fail("decoder_sparse_step", fmt::format("only 1 (every layer MoE) is supported, got {}", *step));
      }
      take("mlp_only_layers");
      if (const auto it = j.find("mlp_only_layers"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) {
          r.fail("mlp_only_layers", "must be a list of layer indices");
        } else {
          // Leading dense layers are first_k_dense_replace; any other pattern is refused.
          for (std::size_t k = 0; k < it->size(); ++k) {
            if (!(*it)[k].is_number_integer() || (*it)[k].get<std::int64_t>() != std::int64_t(k)) {
              r.fail("mlp_only_layers", "only a leading run 0, 1, ..., k-1 of dense layers is supported");
              break;
            }
          }
          m.first_k_dense_replace = static_cast<int>(it->size());
        }
      }
    } else if (is_one_of(family, {"mixtral", "olmoe"})) {
      // Every layer MoE; the experts' width is intermediate_size; no shared expert.
      m.n_routed_experts = r.required(j, take(family == "mixtral" ? "num_local_experts" : "num_experts"), 1);
      m.num_experts_per_tok = r.required(j, take("num_experts_per_tok"), 1);
      m.moe_intermediate_size = r.required(j, "intermediate_size", 1);
    } else if (is_one_of(family, {"llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3"})) {
      m.first_k_dense_replace = m.num_hidden_layers;  // dense: every FFN is a dense FFN
    } else {
      r.fail("model_type", fmt::format("'{}' is not a family moeplan can count ({}); refusing "
                                       "rather than reading it as a dense model",
                                       family, supported_model_types()));
    }
  }
  // A MoE key the family's rules did not read means the model is not what moeplan would
  // count: refuse, naming it.
  for (const char* key : {"n_routed_experts", "num_experts", "num_local_experts", "num_experts_per_tok",
                          "moe_intermediate_size", "shared_expert_intermediate_size", "n_shared_experts",
                          "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step",
                          "mlp_only_layers", "moe_topk", "num_shared_expert", "experts_per_token",
                          "interleave_moe_layer_step", "moe_layers", "num_experts_per_topk"}) {
    if (r.failed()) break;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null() || consumed.contains(key)) continue;
    if (it->is_number() && it->get<double>() == 0) continue;  // an explicit "no experts"
    r.fail(key, fmt::format("is a MoE setting that model_type '{}' does not use here; moeplan "
                            "would not count it, so it refuses the file", family));
  }
  if (const auto kv = r.integer(j, "kv_lora_rank", 1)) {
    LatentAttention a;
    a.kv_lora_rank = *kv;
    a.q_lora_rank = r.integer(j, "q_lora_rank", 0).value_or(0);  // null: full rank
    a.qk_nope_head_dim = r.required(j, "qk_nope_head_dim", 0);
    a.qk_rope_head_dim = r.required(j, "qk_rope_head_dim", 0);
    a.v_head_dim = r.required(j, "v_head_dim", 1);
    m.latent_attention = a;
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

// ---- Megatron-LM ---------------------------------------------------------------------------

MegatronHyper megatron_hyper(const LawSet& laws, const ModelConfig& m) {
  MegatronHyper h;
  if (!m.training) return h;
  const ModelScore s = score_model(laws, m);
  if (!s.C || !s.D) return h;
  h.compute = s.C->value();
  if (s.learning_rate_002) h.learning_rate = *s.learning_rate_002;
  if (s.batch_size_002) h.global_batch_size = std::max(1LL, std::llround(*s.batch_size_002));
  h.train_samples = std::max(1LL, std::llround(s.D->value() / m.training->seq_len));
  return h;
}

std::string to_megatron_args(const ModelConfig& m, const MegatronHyper& h) {
  std::vector<std::pair<std::string, std::string>> args;  // flag, value ("" for a switch)
  std::vector<std::string> notes;                          // the comment block
  const auto arg = [&](std::string flag, std::string value, std::string why) {
    notes.push_back(value.empty() ? fmt::format("{}: {}", flag, why)
                                  : fmt::format("{} {}: {}", flag, value, why));
    args.emplace_back(std::move(flag), std::move(value));
  };
  const auto num = [](auto v) { return fmt::format("{}", v); };

  arg("--num-layers", num(m.num_hidden_layers), "L = L_d + L_m (num_hidden_layers)");
  arg("--hidden-size", num(m.hidden_size), "d (hidden_size)");
  if (m.dense_layers() > 0) {
    arg("--ffn-hidden-size", num(m.intermediate_size),
        "d_d, FFN width of the dense layers (intermediate_size; paper 002 Sec. 3.4: 3d)");
  }
  arg("--num-attention-heads", num(m.num_attention_heads), "N_q (num_attention_heads)");
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    arg("--multi-latent-attention", "", "latent attention (kv_lora_rank is set)");
    arg("--q-lora-rank", num(a.q_lora_rank), "q_lora_rank (0: full-rank queries)");
    arg("--kv-lora-rank", num(a.kv_lora_rank), "kv_lora_rank");
    arg("--qk-head-dim", num(a.qk_nope_head_dim), "qk_nope_head_dim");
    arg("--qk-pos-emb-head-dim", num(a.qk_rope_head_dim), "qk_rope_head_dim");
    arg("--v-head-dim", num(a.v_head_dim), "v_head_dim");
  } else {
    if (m.num_key_value_heads < m.num_attention_heads) {
      arg("--group-query-attention", "", "N_kv < N_q (GQA, paper 002 Sec. 3.4)");
    }
    arg("--num-query-groups", num(m.num_key_value_heads), "N_kv (num_key_value_heads)");
  }
  arg("--kv-channels", num(m.head_size()), "d_qkv, the head size (head_dim)");
  arg("--swiglu", "", "SwiGLU FFNs (paper 002 Sec. 3.4; moeplan counts 3 d x width per FFN)");
  arg("--normalization", "RMSNorm", "RMSNorm, as the DeepSeek/Qwen backbones of paper 002 Sec. 3.4 (Megatron's default is LayerNorm)");
  arg("--disable-bias-linear", "", "no biases in linear layers: the counted model has none (Megatron adds them by default)");
  arg("--position-embedding-type", "rope", "RoPE (paper 002 Sec. 3.4)");
  if (!m.tie_word_embeddings) {
    arg("--untie-embeddings-and-output-weights", "", "tie_word_embeddings = false");
  }
  arg("--vocab-size", num(m.vocab_size),
      "V (vocab_size; paper 002 Sec. 3.4: 152064); a tokenizer's own size wins in Megatron");
  if (m.training) {
    arg("--seq-length", num(m.training->seq_len), "S, training context (paper 002: 8192)");
    arg("--max-position-embeddings", num(m.training->seq_len), "= S");
  }
  if (m.is_moe()) {
    arg("--num-experts", num(m.n_routed_experts), "N_e routed experts (n_routed_experts)");
    arg("--moe-router-topk", num(m.num_experts_per_tok), "K (num_experts_per_tok)");
    arg("--moe-ffn-hidden-size", num(m.moe_intermediate_size),
        "d_m, one routed expert's width (moe_intermediate_size)");
    if (m.n_shared_experts > 0) {
      arg("--moe-shared-expert-intermediate-size",
          num(static_cast<long long>(m.n_shared_experts) * m.shared_width()),
          fmt::format("all shared experts together: {} x {} (Megatron takes the sum)",
                      m.n_shared_experts, m.shared_width()));
    }
    arg("--moe-layer-freq",
        fmt::format("'([0]*{}+[1]*{})'", m.dense_layers(), m.moe_layers()),
        fmt::format("first_k_dense_replace = {} dense layers, then {} MoE layers",
                    m.dense_layers(), m.moe_layers()));
    arg("--moe-grouped-gemm", "", "the routed experts' GEMMs as one grouped GEMM");
    arg("--moe-router-load-balancing-type", "aux_loss",
        "auxiliary balance loss (paper 002 names no scheme; the router itself, N_e x d per MoE layer, is outside N)");
  }
  if (h.learning_rate) {
    arg("--lr", fmt::format("{:.3g}", *h.learning_rate),
        fmt::format("paper 002 Table 4 learning rate at C = {:.3g} FLOPs (log-C interpolation, "
                    "end rows held outside 1e18..3e20)", h.compute.value_or(0)));
  }
  if (h.global_batch_size) {
    arg("--global-batch-size", num(*h.global_batch_size),
        "paper 002 Table 4 batch size at C, read as sequences of S tokens "
        "(presets/laws/holistic.toml [training])");
  }
  if (h.train_samples) {
    arg("--train-samples", num(*h.train_samples), "D / S sequences (D = training tokens)");
  }
  {  // Table 4's optimizer settings hold at every compute scale
    arg("--optimizer", "adam", "AdamW (paper 002 Table 4; Megatron's adam decouples weight decay)");
    arg("--adam-beta1", "0.9", "paper 002 Table 4");
    arg("--adam-beta2", "0.95", "paper 002 Table 4");
    arg("--weight-decay", "0.1", "paper 002 Table 4");
    arg("--clip-grad", "1.0", "paper 002 Table 4");
  }

  // Free text goes only into comments, and a comment ends at a line break: every control
  // character becomes '?', so a name holding "\n$(rm -rf ~)" stays inside its comment line.
  const auto inert = [](std::string text) {
    for (char& c : text) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    return text;
  };
  std::string out = fmt::format(
      "# Megatron-LM arguments for {} (written by moeplan; paste after pretrain_gpt.py).\n",
      inert(m.name));
  for (const std::string& n : notes) out += "#   " + inert(n) + "\n";
  if (!h.learning_rate) {
    out += "# No [training] budget (or no Table 4 schedule): --lr, --global-batch-size and\n"
           "# --train-samples are not derived; set them yourself.\n";
  } else {
    out += "# Paper 002 Sec. 3.4 trains with a WSD (warmup-stable-decay) schedule but gives no\n"
           "# warm-up or decay lengths; choose --lr-decay-style and its lengths yourself.\n";
  }
  out += "# Parallelism, micro-batch size and precision depend on the cluster: add them.\n";
  for (const auto& [flag, value] : args) {
    out += value.empty() ? fmt::format("{} \\\n", flag) : fmt::format("{} {} \\\n", flag, value);
  }
  return out;
}

}  // namespace moeplan
