#include "moeplan/io/model_loader.hpp"

#include <algorithm>
#include <filesystem>

#include "moeplan/io/hf_config.hpp"
#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {
namespace {

// Optional keys: absent leaves the default; present must be valid.
void optional_int(const toml::table& t, std::string_view key, const std::string& section,
                  int min, int& out, Reader& r) {
  if (t.get(key)) {
    out = r.integer(t, key, section + "." + std::string(key), min);
  }
}

void optional_bool(const toml::table& t, std::string_view key, const std::string& section,
                   bool& out, Reader& r) {
  if (const toml::node* n = t.get(key)) {
    if (!n->is_boolean()) {
      r.fail(n->source(), section + "." + std::string(key), "must be true or false");
    } else {
      out = n->as_boolean()->get();
    }
  }
}

template <class Q>
void optional_quantity(const toml::table& t, std::string_view key, const std::string& section,
                       std::optional<Q>& out, Reader& r) {
  if (t.get(key)) {
    out = Q(r.number(t, key, section + "." + std::string(key), true));
  }
}

void read_model(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t,
              {"hidden_size", "num_hidden_layers", "first_k_dense_replace", "intermediate_size",
               "moe_intermediate_size", "n_routed_experts", "num_experts_per_tok",
               "n_shared_experts", "shared_expert_intermediate_size", "num_attention_heads",
               "num_key_value_heads", "head_dim", "q_lora_rank", "kv_lora_rank",
               "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "vocab_size",
               "tie_word_embeddings", "moe_layer_interval", "hf_model_type", "qkv_bias",
               "output_bias", "qk_norm", "shared_expert_gate", "router_bias", "expert_bias",
               "attention_sinks", "num_nextn_predict_layers"},
              "model");
  const std::string s = "model";
  m.hidden_size = r.integer(t, "hidden_size", "model.hidden_size", 1);
  m.num_hidden_layers = r.integer(t, "num_hidden_layers", "model.num_hidden_layers", 1);
  m.num_attention_heads = r.integer(t, "num_attention_heads", "model.num_attention_heads", 1);
  m.num_key_value_heads = m.num_attention_heads;
  optional_int(t, "num_key_value_heads", s, 1, m.num_key_value_heads, r);
  optional_int(t, "head_dim", s, 1, m.head_dim, r);
  optional_int(t, "first_k_dense_replace", s, 0, m.first_k_dense_replace, r);
  optional_int(t, "intermediate_size", s, 1, m.intermediate_size, r);
  optional_int(t, "moe_intermediate_size", s, 1, m.moe_intermediate_size, r);
  optional_int(t, "n_routed_experts", s, 1, m.n_routed_experts, r);
  optional_int(t, "num_experts_per_tok", s, 1, m.num_experts_per_tok, r);
  optional_int(t, "n_shared_experts", s, 0, m.n_shared_experts, r);
  optional_int(t, "shared_expert_intermediate_size", s, 1, m.shared_expert_intermediate_size, r);
  optional_int(t, "moe_layer_interval", s, 1, m.moe_layer_interval, r);
  m.vocab_size = r.integer(t, "vocab_size", "model.vocab_size", 1);
  optional_bool(t, "tie_word_embeddings", s, m.tie_word_embeddings, r);
  // What the architecture builds beside N (docs/model-schema.md, "Beside N").
  if (t.get("hf_model_type")) m.hf_model_type = r.string(t, "hf_model_type", "model.hf_model_type");
  optional_bool(t, "qkv_bias", s, m.extras.qkv_bias, r);
  optional_bool(t, "output_bias", s, m.extras.output_bias, r);
  optional_bool(t, "shared_expert_gate", s, m.extras.shared_expert_gate, r);
  optional_bool(t, "router_bias", s, m.extras.router_bias, r);
  optional_bool(t, "expert_bias", s, m.extras.expert_bias, r);
  optional_bool(t, "attention_sinks", s, m.extras.attention_sinks, r);
  optional_int(t, "num_nextn_predict_layers", s, 0, m.extras.num_nextn_predict_layers, r);
  if (const toml::node* n = t.get("qk_norm")) {
    const std::string v = r.string(t, "qk_norm", "model.qk_norm");
    if (v == "per_head") {
      m.extras.qk_norm = QkNorm::per_head;
    } else if (v == "full_width") {
      m.extras.qk_norm = QkNorm::full_width;
    } else if (v != "none" && !r.failed()) {
      r.fail(n->source(), "model.qk_norm", fmt::format("must be \"none\", \"per_head\" or \"full_width\", got \"{}\"", v));
    }
  }
  if (t.get("kv_lora_rank")) {
    LatentAttention a;
    a.kv_lora_rank = r.integer(t, "kv_lora_rank", "model.kv_lora_rank", 1);
    optional_int(t, "q_lora_rank", s, 0, a.q_lora_rank, r);
    a.qk_nope_head_dim = r.integer(t, "qk_nope_head_dim", "model.qk_nope_head_dim", 0);
    a.qk_rope_head_dim = r.integer(t, "qk_rope_head_dim", "model.qk_rope_head_dim", 0);
    a.v_head_dim = r.integer(t, "v_head_dim", "model.v_head_dim", 1);
    m.latent_attention = a;
  } else {
    for (std::string_view k : {"q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
      if (const toml::node* n = t.get(k)) {
        r.fail(n->source(), "model." + std::string(k), "needs kv_lora_rank (latent attention)");
      }
    }
  }
}

void read_training(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t, {"tokens", "compute", "seq_len", "unique_tokens"}, "training");
  TrainingSetup ts;
  optional_quantity(t, "tokens", "training", ts.tokens, r);
  optional_quantity(t, "compute", "training", ts.compute, r);
  optional_quantity(t, "unique_tokens", "training", ts.unique_tokens, r);
  ts.seq_len = r.integer(t, "seq_len", "training.seq_len", 1);
  m.training = ts;  // "exactly one of tokens and compute" is checked by ModelConfig::problem()
}

void read_reference(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t, {"total_params", "active_params", "includes_embeddings", "note"}, "reference");
  StatedSizes st;
  optional_quantity(t, "total_params", "reference", st.total, r);
  optional_quantity(t, "active_params", "reference", st.active, r);
  if (const toml::node* n = t.get("includes_embeddings")) {
    if (!n->is_boolean()) {
      r.fail(n->source(), "reference.includes_embeddings", "must be true or false");
    } else {
      st.includes_embeddings = n->as_boolean()->get();
    }
  }
  m.stated = st;
}

}  // namespace

std::expected<ModelConfig, InputError> parse_model_config(std::string_view text,
                                                          std::string source) {
  auto doc = parse_toml(text, source);
  if (!doc) {
    return std::unexpected(doc.error());
  }
  Reader r(source);
  ModelConfig m;
  r.only_keys(*doc, {"schema", "name", "description", "source", "model", "training", "reference"},
              "");
  const std::string schema = r.string(*doc, "schema", "schema");
  if (!r.failed() && schema != "moeplan-model/1") {
    r.fail(doc->get("schema")->source(), "schema",
           fmt::format("expected \"moeplan-model/1\", got \"{}\"", schema));
  }
  m.name = r.string(*doc, "name", "name");
  if (doc->get("description")) m.description = r.string(*doc, "description", "description");
  if (doc->get("source")) m.source = r.string(*doc, "source", "source");
  if (const toml::table* t = r.table(*doc, "model", "model")) {
    read_model(*t, m, r);
  }
  if (doc->get("training")) {
    if (const toml::table* t = r.table(*doc, "training", "training")) read_training(*t, m, r);
  }
  if (doc->get("reference")) {
    if (const toml::table* t = r.table(*doc, "reference", "reference")) read_reference(*t, m, r);
  }
  if (!r.failed()) {
    if (const auto p = m.problem()) {
      // Point at the offending key, else at its table ("training"), else the document.
      const auto dot = p->key.find('.');
      const toml::node* where = doc->get(p->key.substr(0, dot));
      if (where && where->is_table() && dot != std::string::npos) {
        if (const toml::node* leaf = where->as_table()->get(p->key.substr(dot + 1))) {
          where = leaf;
        }
      }
      r.fail(where ? where->source() : doc->source(), p->key, p->reason);
    }
  }
  if (r.failed()) {
    return std::unexpected(r.error());
  }
  return m;
}

std::expected<ModelConfig, InputError> load_model_config(const std::string& path_or_preset) {
  std::error_code ec;
  if (!std::filesystem::exists(path_or_preset, ec)) {
    const std::string preset = "models/" + path_or_preset + ".toml";
    if (const auto text = find_embedded_preset(preset)) {
      return parse_model_config(*text, "<embedded:" + preset + ">");
    }
    // A bare name that is no file was read as a preset too: "cannot open file" alone would
    // hide that (a path, with a '/' or an extension, gets read_file's own message).
    const bool path_like = path_or_preset.find('/') != std::string::npos ||
                           path_or_preset.ends_with(".toml") || path_or_preset.ends_with(".json");
    if (!ec && !path_like) {
      std::string names;
      for (const std::string& n : model_preset_names()) names += (names.empty() ? "" : ", ") + n;
      return std::unexpected(InputError{
          path_or_preset, 0, 0, "",
          "neither a file nor a model preset (presets: " + names + "; 'moeplan presets' lists them)"});
    }
  }
  auto text = read_file(path_or_preset);
  if (!text) {
    return std::unexpected(text.error());
  }
  // A HuggingFace config.json by its name or, whatever the name, by its first character.
  const auto first = text->find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (path_or_preset.ends_with(".json") || (first != std::string::npos && (*text)[first] == '{')) {  // a HuggingFace config.json, read by model_type
    return parse_hf_config_json(*text, path_or_preset,
                                std::filesystem::path(path_or_preset).stem().string());
  }
  return parse_model_config(*text, path_or_preset);
}

std::vector<std::string> model_preset_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_presets()) {
    if (f.path.starts_with("models/") && f.path.ends_with(".toml")) {
      names.emplace_back(f.path.substr(7, f.path.size() - 12));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace moeplan
