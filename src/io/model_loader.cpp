#include "moeplan/io/model_loader.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
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

// [[model.linear_mixers]]: one table per kind of non-softmax mixer (docs/hybrid-layers.md).
void read_linear_mixers(const toml::node& n, ModelConfig& m, Reader& r) {
  const toml::array* list = n.as_array();
  if (!list || !list->is_array_of_tables()) {
    r.fail(n.source(), "model.linear_mixers", "must be an array of tables ([[model.linear_mixers]])");
    return;
  }
  for (std::size_t i = 0; i < list->size() && !r.failed(); ++i) {
    const toml::table& x = *list->get(i)->as_table();
    const std::string at = fmt::format("model.linear_mixers[{}]", i);
    r.only_keys(x, {"kind", "matrix_params", "other_params", "state_flops", "decode_state_bytes", "source"}, at);
    LinearMixer mixer;
    mixer.kind = r.string(x, "kind", at + ".kind");
    mixer.matrix_params = r.number(x, "matrix_params", at + ".matrix_params", false);
    mixer.other_params = r.number(x, "other_params", at + ".other_params", false);
    mixer.state_flops = r.number(x, "state_flops", at + ".state_flops", false);
    if (x.get("source")) mixer.source = r.string(x, "source", at + ".source");
    // Optional: without it the serving section refuses the model (its cache is unknown).
    if (x.get("decode_state_bytes")) {
      mixer.decode_state_bytes = r.number(x, "decode_state_bytes", at + ".decode_state_bytes", false);
    }
    for (const LinearMixer& other : m.linear_mixers) {
      if (other.kind == mixer.kind && !r.failed()) {
        r.fail(x.source(), at + ".kind", "names a kind described twice; layer_mixers refers to mixers by kind");
      }
    }
    if (!r.failed() && (mixer.kind == "attention" || mixer.kind == "none")) {
      r.fail(x.source(), at + ".kind", "\"attention\" and \"none\" are layer_mixers words, not mixer kinds");
    }
    if (!r.failed() && (mixer.matrix_params < 0 || mixer.other_params < 0 || mixer.state_flops < 0)) {
      r.fail(x.source(), at, "counts must not be negative");
    }
    // Weights are whole numbers, and no layer's mixer has 1e15 of them (a typo otherwise
    // prints a model of 1e300 parameters).
    for (const auto& [key, v] : {std::pair<const char*, double>{"matrix_params", mixer.matrix_params},
                                 {"other_params", mixer.other_params}}) {
      if (!r.failed() && (v != std::floor(v) || v > 1e15)) {
        r.fail(x.get(key)->source(), at + "." + key, fmt::format("must be a whole number of weights up to 1e15, got {}", v));
      }
    }
    if (!r.failed() && mixer.decode_state_bytes && (*mixer.decode_state_bytes < 0 || *mixer.decode_state_bytes > 1e15)) {
      r.fail(x.get("decode_state_bytes")->source(), at + ".decode_state_bytes", "must be from 0 to 1e15 bytes per sequence");
    }
    if (!r.failed() && mixer.state_flops > 1e18) {
      r.fail(x.get("state_flops")->source(), at + ".state_flops", "must be at most 1e18 FLOPs per token");
    }
    m.linear_mixers.push_back(std::move(mixer));
  }
}

// A per-layer list of num_hidden_layers entries, each read by `one`; false when absent.
template <class F>
bool read_per_layer(const toml::table& t, std::string_view key, const ModelConfig& m, Reader& r, F one) {
  const toml::node* n = t.get(key);
  if (!n) return false;
  const std::string path = "model." + std::string(key);
  const toml::array* list = n->as_array();
  if (!list) {
    r.fail(n->source(), path, "must be an array with one entry per layer");
    return false;
  }
  if (static_cast<int>(list->size()) != m.num_hidden_layers) {
    r.fail(n->source(), path, fmt::format("has {} entries, num_hidden_layers is {}", list->size(), m.num_hidden_layers));
    return false;
  }
  for (std::size_t i = 0; i < list->size() && !r.failed(); ++i) one(*list->get(i), i, path);
  return true;
}

// layer_mixers / layer_ffns and their per-layer companions: the layers of a hybrid or
// otherwise non-uniform model, one entry per layer.
void read_layer_pattern(const toml::table& t, ModelConfig& m, Reader& r) {
  if (const toml::node* n = t.get("linear_mixers")) read_linear_mixers(*n, m, r);
  if (r.failed()) return;
  const bool any = t.get("layer_mixers") || t.get("layer_ffns") || t.get("layer_ffn_widths") ||
                   t.get("layer_kv_heads") || t.get("layer_own_kv") || t.get("layer_windows") ||
                   t.get("layer_head_dims") || t.get("layer_k_eq_v") || t.get("layer_q_heads") ||
                   t.get("layer_indexed") || t.get("layer_compress_rates") || t.get("layer_v_head_dims") ||
                   t.get("layer_attention_sinks") || t.get("layer_chunks") ||
                   t.get("layer_indexer_shared");
  if (!any) {
    if (const toml::node* n = t.get("linear_mixers")) {
      r.fail(n->source(), "model.linear_mixers", "needs layer_mixers naming the layers that use them");
    }
    return;
  }
  for (const char* key : {"layer_mixers", "layer_ffns"}) {
    if (!t.get(key)) {
      r.fail(t.source(), std::string("model.") + key, "missing: a per-layer model lists every layer's mixer and FFN");
      return;
    }
  }
  // The uniform layout's keys would say something else than the list: one of the two.
  for (const char* key : {"first_k_dense_replace", "moe_layer_interval"}) {
    if (const toml::node* n = t.get(key)) {
      r.fail(n->source(), std::string("model.") + key, "conflicts with layer_ffns, which lists every layer's FFN");
      return;
    }
  }
  // The list's length first: num_hidden_layers may be up to 1e9, and nothing is allocated for
  // layers the file does not list.
  if (const toml::array* a = t.get("layer_mixers")->as_array();
      !a || static_cast<long long>(a->size()) != m.num_hidden_layers) {
    read_per_layer(t, "layer_mixers", m, r, [](const toml::node&, std::size_t, const std::string&) {});
    return;
  }
  m.layers.assign(static_cast<std::size_t>(m.num_hidden_layers), LayerSpec{});
  const auto word = [&r](const toml::node& v, const std::string& path) -> std::string {
    if (!v.is_string()) {
      r.fail(v.source(), path, fmt::format("entries must be strings, got a {}", toml_type_name(v)));
      return {};
    }
    return std::string(v.as_string()->get());
  };
  read_per_layer(t, "layer_mixers", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    const std::string w = word(v, path);
    if (r.failed()) return;
    if (const auto k = mixer_kind_of(w); k && *k != MixerKind::linear) {
      m.layers[i].mixer = *k;
      return;
    }
    for (std::size_t k = 0; k < m.linear_mixers.size(); ++k) {
      if (m.linear_mixers[k].kind == w) {
        m.layers[i].mixer = MixerKind::linear;
        m.layers[i].linear_mixer = static_cast<int>(k);
        return;
      }
    }
    r.fail(v.source(), path, fmt::format("\"{}\" is neither \"attention\", \"none\" nor a kind of "
                                          "[[model.linear_mixers]]", w));
  });
  for (std::size_t k = 0; k < m.linear_mixers.size() && !r.failed(); ++k) {
    const bool used = std::any_of(m.layers.begin(), m.layers.end(), [k](const LayerSpec& l) {
      return l.mixer == MixerKind::linear && l.linear_mixer == static_cast<int>(k);
    });
    if (!used) {
      r.fail(t.get("linear_mixers")->as_array()->get(k)->source(), fmt::format("model.linear_mixers[{}]", k),
             fmt::format("kind \"{}\" is described but no layer of layer_mixers uses it", m.linear_mixers[k].kind));
    }
  }
  read_per_layer(t, "layer_ffns", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    const std::string w = word(v, path);
    if (r.failed()) return;
    if (const auto k = ffn_kind_of(w)) {
      m.layers[i].ffn = *k;
    } else {
      r.fail(v.source(), path, fmt::format("\"{}\" is not one of \"dense\", \"moe\", \"moe_and_dense\", \"none\"", w));
    }
  });
  const auto count = [&r](const toml::node& v, const std::string& path, int min) -> int {
    const auto x = v.value_exact<int64_t>();
    if (!x || *x < min || *x > 1'000'000'000) {
      r.fail(v.source(), path, fmt::format("entries must be integers in [{}, 1e9]", min));
      return 0;
    }
    return static_cast<int>(*x);
  };
  read_per_layer(t, "layer_ffn_widths", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].dense_width = count(v, path, 0);
  });
  read_per_layer(t, "layer_kv_heads", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].kv_heads = count(v, path, 0);
  });
  read_per_layer(t, "layer_windows", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].window = count(v, path, 0);
  });
  read_per_layer(t, "layer_chunks", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].chunk = count(v, path, 0);
  });
  read_per_layer(t, "layer_head_dims", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].head_dim = count(v, path, 0);
  });
  read_per_layer(t, "layer_q_heads", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].q_heads = count(v, path, 0);
  });
  read_per_layer(t, "layer_compress_rates", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].compress_rate = count(v, path, 0);
  });
  read_per_layer(t, "layer_v_head_dims", m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
    m.layers[i].v_head_dim = count(v, path, 0);
  });
  const auto flags = [&](const char* key, bool LayerSpec::* field) {
    read_per_layer(t, key, m, r, [&](const toml::node& v, std::size_t i, const std::string& path) {
      if (!v.is_boolean()) {
        r.fail(v.source(), path, "entries must be true or false");
      } else {
        m.layers[i].*field = v.as_boolean()->get();
      }
    });
  };
  flags("layer_own_kv", &LayerSpec::own_kv);
  flags("layer_k_eq_v", &LayerSpec::k_eq_v);
  flags("layer_indexed", &LayerSpec::indexed);
  flags("layer_attention_sinks", &LayerSpec::attention_sinks);
  flags("layer_indexer_shared", &LayerSpec::indexer_shared);
}

// [model.compressed_attention]: DeepSeek-V4's attention (CompressedAttention; each layer's rate
// in layer_compress_rates).
void read_compressed_attention(const toml::table& model, ModelConfig& m, Reader& r) {
  const toml::node* n = model.get("compressed_attention");
  if (!n) return;
  const toml::table* t = n->as_table();
  if (!t) {
    r.fail(n->source(), "model.compressed_attention", "must be a table");
    return;
  }
  const std::string s = "model.compressed_attention";
  r.only_keys(*t, {"q_lora_rank", "o_groups", "o_lora_rank", "sliding_window", "csa_rate", "hca_rate", "index_n_heads",
                   "index_head_dim", "index_topk", "hc_mult", "mtp_compress_rates"},
              s);
  CompressedAttention a;
  for (const auto& [key, field] : std::initializer_list<std::pair<const char*, int CompressedAttention::*>>{
           {"q_lora_rank", &CompressedAttention::q_lora_rank}, {"o_groups", &CompressedAttention::o_groups},
           {"o_lora_rank", &CompressedAttention::o_lora_rank}, {"sliding_window", &CompressedAttention::sliding_window},
           {"csa_rate", &CompressedAttention::csa_rate}, {"hca_rate", &CompressedAttention::hca_rate},
           {"index_n_heads", &CompressedAttention::index_n_heads},
           {"index_head_dim", &CompressedAttention::index_head_dim},
           {"index_topk", &CompressedAttention::index_topk}, {"hc_mult", &CompressedAttention::hc_mult}}) {
    a.*field = r.integer(*t, key, fmt::format("{}.{}", s, key), 1);
  }
  if (const toml::node* rates = t->get("mtp_compress_rates")) {
    const toml::array* list = rates->as_array();
    if (!list) {
      r.fail(rates->source(), s + ".mtp_compress_rates", "must be an array of each MTP module's compress rate");
      return;
    }
    for (const toml::node& v : *list) {
      const auto x = v.value_exact<int64_t>();
      if (!x || *x < 0 || *x > 1'000'000'000) {
        r.fail(v.source(), s + ".mtp_compress_rates", "entries must be integers in [0, 1e9]");
        return;
      }
      a.mtp_compress_rates.push_back(static_cast<int>(*x));
    }
  }
  m.compressed_attention = a;
}

// position_embedding, max_position_embeddings (the learned table's rows), partial_rotary_factor
// and no_rope_layers (0-based layers whose attention applies no RoPE).
void read_positions(const toml::table& t, ModelConfig& m, Reader& r) {
  if (const toml::node* n = t.get("position_embedding")) {
    const std::string v = r.string(t, "position_embedding", "model.position_embedding");
    bool known = false;
    for (PositionEmbedding p : {PositionEmbedding::rope, PositionEmbedding::alibi,
                                PositionEmbedding::learned_absolute, PositionEmbedding::none}) {
      if (v == position_embedding_name(p)) {
        m.position_embedding = p;
        known = true;
      }
    }
    if (!known && !r.failed()) {
      r.fail(n->source(), "model.position_embedding",
             fmt::format("must be \"rope\", \"alibi\", \"learned_absolute\" or \"none\", got \"{}\"", v));
    }
  }
  if (t.get("max_position_embeddings")) {
    m.max_position_embeddings = r.integer(t, "max_position_embeddings", "model.max_position_embeddings", 1);
  }
  // RoPE's base and the norms' epsilon, as the source states them (problem() checks them).
  if (t.get("rope_theta")) m.rope_theta = r.number(t, "rope_theta", "model.rope_theta", true);
  if (t.get("rope_local_theta")) m.rope_local_theta = r.number(t, "rope_local_theta", "model.rope_local_theta", true);
  if (t.get("norm_eps")) m.norm_eps = r.number(t, "norm_eps", "model.norm_eps", true);
  // The fraction of each head RoPE rotates; (0, 1] and RoPE only are checked by problem().
  if (t.get("partial_rotary_factor")) {
    m.partial_rotary_factor = r.number(t, "partial_rotary_factor", "model.partial_rotary_factor", true);
  }
  if (const toml::node* a = t.get("ffn_activation")) {
    const std::string v = r.string(t, "ffn_activation", "model.ffn_activation");
    if (v == "gelu") {
      m.ffn_activation = ModelConfig::Activation::gelu;
    } else if (v == "squared_relu") {
      m.ffn_activation = ModelConfig::Activation::squared_relu;
    } else if (!r.failed()) {
      r.fail(a->source(), "model.ffn_activation", fmt::format("must be \"gelu\" or \"squared_relu\", got \"{}\"", v));
    }
  }
  const toml::node* n = t.get("no_rope_layers");
  if (!n) return;
  const toml::array* list = n->as_array();
  if (!list) {
    r.fail(n->source(), "model.no_rope_layers", "must be an array of layer indices (0-based)");
    return;
  }
  for (std::size_t i = 0; i < list->size() && !r.failed(); ++i) {
    const auto* v = list->get(i)->as_integer();
    if (!v || v->get() < 0 || v->get() >= m.num_hidden_layers) {
      r.fail(list->get(i)->source(), fmt::format("model.no_rope_layers[{}]", i),
             "must be a layer index in [0, num_hidden_layers)");
    } else {
      m.no_rope_layers.push_back(static_cast<int>(v->get()));
    }
  }
}

void read_model(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t,
              {"hidden_size", "num_hidden_layers", "first_k_dense_replace", "intermediate_size",
               "moe_intermediate_size", "moe_latent_size", "n_routed_experts", "num_experts_per_tok",
               "n_shared_experts", "shared_expert_intermediate_size", "num_attention_heads",
               "num_key_value_heads", "head_dim", "q_lora_rank", "kv_lora_rank",
               "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "vocab_size",
               "tie_word_embeddings", "moe_layer_interval", "hf_model_type", "qkv_bias",
               "output_bias", "qk_norm", "shared_expert_gate", "router_bias", "expert_bias",
               "attention_sinks", "num_nextn_predict_layers", "mtp_embedding_copies", "norm_bias", "lm_head_bias",
               "residual_ffn_norm", "post_block_norms",
               "ffn_gated", "gated_attention", "zero_experts", "index_n_heads", "index_head_dim",
               "index_topk", "linear_mixers", "layer_mixers", "layer_ffns", "layer_ffn_widths",
               "layer_kv_heads", "layer_own_kv", "layer_windows", "layer_chunks", "layer_indexer_shared", "layer_head_dims", "layer_k_eq_v", "layer_q_heads", "head_wise_attn_gate",
               "mtp_layers_in_pattern", "mtp_head_copies", "mtp_not_counted", "checkpoint_buffer_values", "vision_not_counted", "index_block_size", "index_always_blocks", "layer_indexed",
               "layer_v_head_dims", "layer_attention_sinks",
               "moe_block_norms", "router_scales", "gqa_q_lora_rank", "ffn_bias",
               "position_embedding", "max_position_embeddings", "partial_rotary_factor", "rope_theta", "rope_local_theta", "norm_eps", "no_rope_layers", "ffn_activation",
               "layernorm_1p", "compressed_attention", "layer_compress_rates", "hash_routed_layers"},
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
  optional_int(t, "moe_latent_size", s, 0, m.moe_latent_size, r);  // latent MoE (Nemotron 3 Super); 0: none
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
  optional_bool(t, "mtp_embedding_copies", s, m.extras.mtp_embedding_copies, r);
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
  optional_bool(t, "norm_bias", s, m.extras.norm_bias, r);
  optional_bool(t, "lm_head_bias", s, m.extras.lm_head_bias, r);
  optional_bool(t, "residual_ffn_norm", s, m.extras.residual_ffn_norm, r);
  optional_int(t, "moe_block_norms", s, 0, m.extras.moe_block_norms, r);
  optional_bool(t, "router_scales", s, m.extras.router_scales, r);
  optional_bool(t, "post_block_norms", s, m.extras.post_block_norms, r);
  optional_bool(t, "ffn_bias", s, m.extras.ffn_bias, r);
  optional_bool(t, "layernorm_1p", s, m.layernorm_1p, r);
  optional_bool(t, "ffn_gated", s, m.ffn_gated, r);
  optional_bool(t, "gated_attention", s, m.gated_attention, r);
  optional_bool(t, "head_wise_attn_gate", s, m.head_wise_attn_gate, r);
  read_positions(t, m, r);
  optional_int(t, "zero_experts", s, 0, m.zero_experts, r);
  optional_int(t, "gqa_q_lora_rank", s, 1, m.gqa_q_lora_rank, r);
  if (t.get("index_n_heads") || t.get("index_head_dim") || t.get("index_topk")) {
    AttentionIndexer x;
    x.n_heads = r.integer(t, "index_n_heads", "model.index_n_heads", 1);
    x.head_dim = r.integer(t, "index_head_dim", "model.index_head_dim", 1);
    x.topk = r.integer(t, "index_topk", "model.index_topk", 1);
    // index_block_size: MiniMax-M3's block indexer (topk counts blocks of that many keys)
    if (t.get("index_block_size") || t.get("index_always_blocks")) {
      x.kind = AttentionIndexer::Kind::msa;
      x.block_size = r.integer(t, "index_block_size", "model.index_block_size", 1);
      optional_int(t, "index_always_blocks", s, 0, x.always_blocks, r);
    }
    m.indexer = x;
  }
  // mtp_layers_in_pattern: the per-layer lists go on past the model's layers, one entry per MTP
  // module (Step-3.5-Flash's layers 45-47): those entries are the modules' own layers.
  bool mtp_in_pattern = false;
  optional_bool(t, "mtp_layers_in_pattern", s, mtp_in_pattern, r);
  optional_bool(t, "mtp_head_copies", s, m.extras.mtp_head_copies, r);
  if (t.get("mtp_not_counted")) m.extras.mtp_not_counted = r.string(t, "mtp_not_counted", "model.mtp_not_counted");
  // Buffer values the checkpoint stores beside the parameters (total_params_in_checkpoint only).
  if (const toml::node* n = t.get("checkpoint_buffer_values")) {
    const auto v = n->value_exact<int64_t>();
    if (!v || *v < 0) {
      r.fail(n->source(), "model.checkpoint_buffer_values", "must be a whole number >= 0 (values of the buffers the checkpoint stores)");
    } else {
      m.extras.checkpoint_buffer_values = *v;
    }
  }
  if (t.get("vision_not_counted")) m.extras.vision_not_counted = r.string(t, "vision_not_counted", "model.vision_not_counted");
  const int main_layers = m.num_hidden_layers;
  const int mtp = std::max(0, m.extras.num_nextn_predict_layers);
  if (mtp_in_pattern && mtp == 0 && !r.failed()) {
    r.fail(t.get("mtp_layers_in_pattern")->source(), "model.mtp_layers_in_pattern", "needs num_nextn_predict_layers");
  }
  if (mtp_in_pattern && !r.failed()) m.num_hidden_layers = main_layers + mtp;
  read_compressed_attention(t, m, r);
  optional_int(t, "hash_routed_layers", s, 0, m.hash_routed_layers, r);
  read_layer_pattern(t, m, r);
  if (mtp_in_pattern) {
    m.num_hidden_layers = main_layers;
    if (static_cast<int>(m.layers.size()) == main_layers + mtp) {
      m.extras.mtp_layers.assign(m.layers.begin() + main_layers, m.layers.end());
      m.layers.resize(static_cast<std::size_t>(main_layers));
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

// [checkpoint_storage] (model_export.cpp writes it from config.json's quantization_config): the
// bytes per weight of each kind of linear weight as the checkpoint stores them; bf16 (2 bytes) is
// the widest a quantization_config leaves. known = false: a method moeplan does not read
// (serving refuses it, the description says why), and no bytes are given.
void read_checkpoint_storage(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t, {"quant_method", "description", "known", "routed_bytes_per_weight", "attention_bytes_per_weight",
                  "dense_bytes_per_weight", "shared_bytes_per_weight", "mxfp4_experts", "fp8_math",
                  "weight_block_size"},
              "checkpoint_storage");
  const std::string s = "checkpoint_storage";
  CheckpointStorage c;
  c.method = r.string(t, "quant_method", "checkpoint_storage.quant_method");
  if (!r.failed() && c.method.empty()) {
    r.fail(t.get("quant_method")->source(), "checkpoint_storage.quant_method", "must not be empty");
  }
  c.description = r.string(t, "description", "checkpoint_storage.description");
  optional_bool(t, "known", s, c.known, r);
  const std::pair<const char*, double*> bytes[] = {{"routed_bytes_per_weight", &c.routed},
                                                   {"attention_bytes_per_weight", &c.attention},
                                                   {"dense_bytes_per_weight", &c.dense},
                                                   {"shared_bytes_per_weight", &c.shared}};
  for (const auto& [key, out] : bytes) {
    const toml::node* n = t.get(key);
    if (!c.known) {
      if (n) r.fail(n->source(), s + "." + key, "is not read with known = false (a method moeplan does not read)");
      continue;
    }
    const double v = r.number(t, key, s + "." + key, true);
    if (!r.failed() && v > 2) {
      r.fail(n->source(), s + "." + key, fmt::format("must be at most 2 (bf16), got {}", v));
    }
    *out = v;
  }
  optional_bool(t, "mxfp4_experts", s, c.mxfp4_experts, r);
  optional_bool(t, "fp8_math", s, c.fp8_math, r);
  // weight_block_size = [n, k] (fp8 blocks, as quantization_config writes it): two integers in [1, 65536].
  if (const toml::node* n = t.get("weight_block_size"); n && !r.failed()) {
    const toml::array* a = n->as_array();
    const auto in_range = [](const toml::node* v) {
      return v && v->is_integer() && v->as_integer()->get() >= 1 && v->as_integer()->get() <= 65536;
    };
    if (!a || a->size() != 2 || !in_range(a->get(0)) || !in_range(a->get(1))) {
      r.fail(n->source(), s + ".weight_block_size", "must be two integers [n, k], each in [1, 65536]");
    } else {
      c.block_n = static_cast<int>(a->get(0)->as_integer()->get());
      c.block_k = static_cast<int>(a->get(1)->as_integer()->get());
    }
  }
  m.checkpoint_storage = c;
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

// [router]: how the source trains its router (docs/model-schema.md, "Router"); keys named
// as Megatron-LM's --moe-router-* flags, which `--emit megatron` writes from them.
void read_router_table(const toml::table& t, ModelConfig& m, Reader& r) {
  r.only_keys(t, {"score_function", "norm_topk_prob", "expert_bias", "num_groups", "group_topk",
                  "topk_scaling_factor", "probs_on_input", "balance_loss", "balance_loss_coeff", "logit_norm_std"},
              "router");
  const std::string s = "router";
  RouterSpec x;
  const auto choice = [&](const char* key, std::initializer_list<const char*> names) -> int {
    if (!t.get(key)) return -1;
    const std::string v = r.string(t, key, s + "." + key);
    int i = 0;
    for (const char* n : names) {
      if (v == n) return i;
      ++i;
    }
    if (!r.failed()) {
      std::string list;
      for (const char* n : names) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", n);
      r.fail(t.get(key)->source(), s + "." + key, fmt::format("must be one of {}, got \"{}\"", list, v));
    }
    return -1;
  };
  if (const int i = choice("score_function", {"softmax", "sigmoid", "sqrtsoftplus"}); i >= 0) {
    x.score = static_cast<RouterSpec::Score>(i);
  }
  if (const int i = choice("balance_loss", {"aux_loss", "seq_aux_loss", "none"}); i >= 0) {
    x.balance_loss = static_cast<RouterSpec::BalanceLoss>(i);
  }
  // The loss is the source's only when both are stated (or it has none): a coefficient without
  // its kind, or the kind without its coefficient, would pass a default off as the source's.
  x.balance_loss_stated = t.get("balance_loss") || t.get("balance_loss_coeff");
  if (t.empty() && !r.failed()) r.fail(t.source(), "router", "states nothing: give its keys or leave the table out");
  if (x.balance_loss == RouterSpec::BalanceLoss::none && t.get("balance_loss_coeff") && !r.failed()) {
    r.fail(t.get("balance_loss_coeff")->source(), s + ".balance_loss_coeff",
           "has no loss to weigh: balance_loss is \"none\"");
  }
  if (x.balance_loss_stated && !r.failed() &&
      !(t.get("balance_loss") && t.get("balance_loss_coeff")) && x.balance_loss != RouterSpec::BalanceLoss::none) {
    const char* given = t.get("balance_loss") ? "balance_loss" : "balance_loss_coeff";
    r.fail(t.get(given)->source(), s + "." + given,
           "needs balance_loss and balance_loss_coeff together (or balance_loss = \"none\" alone)");
  }
  optional_bool(t, "norm_topk_prob", s, x.norm_topk_prob, r);
  optional_bool(t, "expert_bias", s, x.expert_bias, r);
  optional_bool(t, "probs_on_input", s, x.probs_on_input, r);
  optional_int(t, "num_groups", s, 1, x.num_groups, r);
  optional_int(t, "group_topk", s, 1, x.group_topk, r);
  if (t.get("topk_scaling_factor")) {
    x.topk_scaling_factor = r.number(t, "topk_scaling_factor", s + ".topk_scaling_factor", true);
  }
  if (t.get("balance_loss_coeff")) {
    x.balance_loss_coeff = r.number(t, "balance_loss_coeff", s + ".balance_loss_coeff", false);
  }
  if (t.get("logit_norm_std")) x.logit_norm_std = r.number(t, "logit_norm_std", s + ".logit_norm_std", false);
  m.router = x;
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
  r.only_keys(*doc, {"schema", "name", "description", "source", "model", "router", "checkpoint_storage", "training",
                     "reference"},
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
  if (doc->get("router")) {
    if (const toml::table* t = r.table(*doc, "router", "router")) read_router_table(*t, m, r);
  }
  if (doc->get("checkpoint_storage")) {
    if (const toml::table* t = r.table(*doc, "checkpoint_storage", "checkpoint_storage")) {
      read_checkpoint_storage(*t, m, r);
    }
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
