#include "moeplan/io/model_export.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <algorithm>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "moeplan/io/megatron_args.hpp"

namespace moeplan {

// ---- moeplan TOML ------------------------------------------------------------------------

namespace {

// [checkpoint_storage]: how the checkpoint stores its weights, as read from config.json's
// quantization_config (src/io/hf_quantization.cpp), so that a model TOML emitted from a quantized
// file serves the same weights (read_checkpoint_storage, model_loader.cpp, reads it back).
void write_checkpoint_storage(const ModelConfig& m, toml::table& doc) {
  if (!m.checkpoint_storage) return;
  const CheckpointStorage& c = *m.checkpoint_storage;
  toml::table t;
  t.insert("quant_method", c.method);
  t.insert("description", c.description);
  if (!c.known) {
    t.insert("known", false);
  } else {
    t.insert("routed_bytes_per_weight", c.routed);
    t.insert("attention_bytes_per_weight", c.attention);
    t.insert("dense_bytes_per_weight", c.dense);
    t.insert("shared_bytes_per_weight", c.shared);
    if (c.mxfp4_experts) t.insert("mxfp4_experts", true);
    if (c.fp8_math) t.insert("fp8_math", true);
    if (c.block_n > 0) t.insert("weight_block_size", toml::array{c.block_n, c.block_k});
  }
  doc.insert("checkpoint_storage", std::move(t));
}

// The per-layer lists of a non-uniform model (docs/hybrid-layers.md): its mixers by kind, its
// FFNs, and the widths, kv heads and K/V sharing where any layer has its own.
void write_layer_pattern(const ModelConfig& m, toml::table& model) {
  if (!m.linear_mixers.empty()) {
    toml::array mixers;
    for (const LinearMixer& x : m.linear_mixers) {
      toml::table t;
      t.insert("kind", x.kind);
      t.insert("matrix_params", x.matrix_params);
      t.insert("other_params", x.other_params);
      t.insert("state_flops", x.state_flops);
      if (x.decode_state_bytes) t.insert("decode_state_bytes", *x.decode_state_bytes);
      if (!x.source.empty()) t.insert("source", x.source);
      mixers.push_back(std::move(t));
    }
    model.insert("linear_mixers", std::move(mixers));
  }
  if (m.layers.empty()) return;
  // MTP modules with layers of their own: listed after the model's (mtp_layers_in_pattern).
  std::vector<LayerSpec> all = m.layers;
  all.insert(all.end(), m.extras.mtp_layers.begin(), m.extras.mtp_layers.end());
  if (!m.extras.mtp_layers.empty()) model.insert("mtp_layers_in_pattern", true);
  toml::array mixer, ffn, width, kv, own, window, head, k_eq_v, q, indexed, rate, v_head, sinks, chunk, shared_indexer;
  bool widths = false, kvs = false, shared = false, windows = false, heads = false, keys_are_values = false;
  bool qs = false, unindexed = false, rates = false, v_heads = false, any_sinks = false, chunks = false;
  bool any_shared_indexer = false;
  for (const LayerSpec& l : all) {
    mixer.push_back(l.mixer == MixerKind::linear
                        ? m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer)).kind
                        : std::string(to_string(l.mixer)));
    ffn.push_back(std::string(to_string(l.ffn)));
    width.push_back(int64_t{l.dense_width});
    kv.push_back(int64_t{l.kv_heads});
    own.push_back(l.own_kv);
    window.push_back(int64_t{l.window});
    chunk.push_back(int64_t{l.chunk});
    chunks |= l.chunk > 0;
    shared_indexer.push_back(l.indexer_shared);
    any_shared_indexer |= l.indexer_shared;
    head.push_back(int64_t{l.head_dim});
    k_eq_v.push_back(l.k_eq_v);
    q.push_back(int64_t{l.q_heads});
    qs |= l.q_heads > 0;
    indexed.push_back(l.indexed);
    unindexed |= !l.indexed;
    rate.push_back(int64_t{l.compress_rate});
    rates |= l.compress_rate > 0;
    v_head.push_back(int64_t{l.v_head_dim});
    sinks.push_back(l.attention_sinks);
    v_heads |= l.v_head_dim > 0;
    any_sinks |= l.attention_sinks;
    heads |= l.head_dim > 0;
    keys_are_values |= l.k_eq_v;
    windows |= l.window > 0;
    widths |= l.dense_width > 0;
    kvs |= l.kv_heads > 0;
    shared |= !l.own_kv;
  }
  model.insert("layer_mixers", std::move(mixer));
  model.insert("layer_ffns", std::move(ffn));
  if (widths) model.insert("layer_ffn_widths", std::move(width));
  if (kvs) model.insert("layer_kv_heads", std::move(kv));
  if (shared) model.insert("layer_own_kv", std::move(own));
  if (windows) model.insert("layer_windows", std::move(window));
  if (chunks) model.insert("layer_chunks", std::move(chunk));
  if (any_shared_indexer) model.insert("layer_indexer_shared", std::move(shared_indexer));
  if (heads) model.insert("layer_head_dims", std::move(head));
  if (keys_are_values) model.insert("layer_k_eq_v", std::move(k_eq_v));
  if (qs) model.insert("layer_q_heads", std::move(q));
  if (unindexed) model.insert("layer_indexed", std::move(indexed));
  if (rates) model.insert("layer_compress_rates", std::move(rate));
  if (v_heads) model.insert("layer_v_head_dims", std::move(v_head));
  if (any_sinks) model.insert("layer_attention_sinks", std::move(sinks));
}

// [model.compressed_attention]: what read_compressed_attention reads back (model_loader.cpp).
void write_compressed_attention(const ModelConfig& m, toml::table& model) {
  if (!m.compressed_attention) return;
  const CompressedAttention& a = *m.compressed_attention;
  toml::table c;
  for (const auto& [key, v] : {std::pair<const char*, int>{"q_lora_rank", a.q_lora_rank}, {"o_groups", a.o_groups},
                               {"o_lora_rank", a.o_lora_rank}, {"sliding_window", a.sliding_window},
                               {"csa_rate", a.csa_rate}, {"hca_rate", a.hca_rate}, {"index_n_heads", a.index_n_heads},
                               {"index_head_dim", a.index_head_dim}, {"index_topk", a.index_topk},
                               {"hc_mult", a.hc_mult}}) {
    c.insert(key, int64_t{v});
  }
  toml::array mtp;
  for (int mtp_rate : a.mtp_compress_rates) mtp.push_back(int64_t{mtp_rate});
  c.insert("mtp_compress_rates", std::move(mtp));
  model.insert("compressed_attention", std::move(c));
}

// Why Megatron's Combined 1F1B (--overlap-moe-expert-parallel-comm; its docs,
// moe_a2a_overlap.html) cannot run on layout `p`, "" when it can: it overlaps the expert
// all-to-all, needs VPP with PP > 1, and is not meant for full recompute.
std::string a2a_overlap_blocker(const ParallelLayout& p) {
  if (p.ep <= 1) return "it overlaps the expert all-to-all and EP is 1";
  if (p.recompute == Recompute::full) return "it is not for full recompute";
  if (p.pp > 1 && p.vpp <= 1) return "with PP > 1 it needs VPP";
  return {};
}

// How positions enter, and the numbers a launch states with them ([model] keys, when not the
// defaults): position_embedding and a learned table's rows, partial_rotary_factor, rope_theta,
// no_rope_layers; the norms' epsilon.
void insert_positions(const ModelConfig& m, toml::table& model) {
  if (m.position_embedding != PositionEmbedding::rope) {
    model.insert("position_embedding", position_embedding_name(m.position_embedding));
    if (m.position_embedding == PositionEmbedding::learned_absolute) {
      model.insert("max_position_embeddings", int64_t{m.max_position_embeddings});
    }
  }
  if (m.partial_rotary_factor != 1) model.insert("partial_rotary_factor", m.partial_rotary_factor);
  if (m.rope_theta) model.insert("rope_theta", *m.rope_theta);
  if (m.rope_local_theta) model.insert("rope_local_theta", *m.rope_local_theta);
  if (m.norm_eps) model.insert("norm_eps", *m.norm_eps);
  if (!m.no_rope_layers.empty()) {
    toml::array layers;
    for (int i : m.no_rope_layers) layers.push_back(int64_t{i});
    model.insert("no_rope_layers", std::move(layers));
  }
}

}  // namespace

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
  // A per-layer model's layer_ffns say which layers are dense: the uniform keys are left out.
  if (m.layers.empty()) put("first_k_dense_replace", m.first_k_dense_replace);
  if (m.intermediate_size > 0) put("intermediate_size", m.intermediate_size);
  if (m.is_moe()) {
    put("moe_intermediate_size", m.moe_intermediate_size);
    if (m.moe_latent_size > 0) put("moe_latent_size", m.moe_latent_size);
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
  if (m.moe_layer_interval != 1 && m.layers.empty()) put("moe_layer_interval", m.moe_layer_interval);
  put("vocab_size", m.vocab_size);
  model.insert("tie_word_embeddings", m.tie_word_embeddings);
  // What the architecture builds beside N, written only when it differs from moeplan's
  // default (no biases, no qk-norm, no gates or sinks), so a plan's TOML stays short.
  if (!m.hf_model_type.empty()) model.insert("hf_model_type", m.hf_model_type);
  const BuiltExtras& x = m.extras;
  const auto flag = [&model](const char* key, bool on) {
    if (on) model.insert(key, true);
  };
  flag("qkv_bias", x.qkv_bias);
  flag("output_bias", x.output_bias);
  if (x.qk_norm != QkNorm::none) {
    model.insert("qk_norm", x.qk_norm == QkNorm::per_head ? "per_head" : "full_width");
  }
  flag("shared_expert_gate", x.shared_expert_gate);
  flag("router_bias", x.router_bias);
  flag("expert_bias", x.expert_bias);
  flag("attention_sinks", x.attention_sinks);
  if (x.num_nextn_predict_layers > 0) put("num_nextn_predict_layers", x.num_nextn_predict_layers);
  if (!x.mtp_embedding_copies) model.insert("mtp_embedding_copies", false);
  flag("mtp_head_copies", x.mtp_head_copies);
  if (!x.mtp_not_counted.empty()) model.insert("mtp_not_counted", x.mtp_not_counted);
  if (x.checkpoint_buffer_values > 0) model.insert("checkpoint_buffer_values", x.checkpoint_buffer_values);
  if (!x.vision_not_counted.empty()) model.insert("vision_not_counted", x.vision_not_counted);
  flag("norm_bias", x.norm_bias);
  flag("lm_head_bias", x.lm_head_bias);
  flag("residual_ffn_norm", x.residual_ffn_norm);
  if (x.moe_block_norms > 0) put("moe_block_norms", x.moe_block_norms);
  flag("router_scales", x.router_scales);
  flag("post_block_norms", x.post_block_norms);
  flag("ffn_bias", x.ffn_bias);
  flag("layernorm_1p", m.layernorm_1p);
  if (!m.ffn_gated) model.insert("ffn_gated", false);
  if (m.ffn_activation != ModelConfig::Activation::unstated) {
    model.insert("ffn_activation", m.ffn_activation == ModelConfig::Activation::gelu ? "gelu" : "squared_relu");
  }
  insert_positions(m, model);
  flag("gated_attention", m.gated_attention);
  flag("head_wise_attn_gate", m.head_wise_attn_gate);
  if (m.zero_experts > 0) put("zero_experts", m.zero_experts);
  if (m.gqa_q_lora_rank > 0) put("gqa_q_lora_rank", m.gqa_q_lora_rank);
  if (m.indexer) {
    put("index_n_heads", m.indexer->n_heads);
    put("index_head_dim", m.indexer->head_dim);
    put("index_topk", m.indexer->topk);
    if (m.indexer->kind == AttentionIndexer::Kind::msa) {  // MiniMax-M3's block indexer
      put("index_block_size", m.indexer->block_size);
      put("index_always_blocks", m.indexer->always_blocks);
    }
  }
  write_compressed_attention(m, model);
  if (m.hash_routed_layers > 0) put("hash_routed_layers", m.hash_routed_layers);
  write_layer_pattern(m, model);
  doc.insert("model", std::move(model));

  if (m.router) {  // what read_router_table reads back (model_loader.cpp)
    const RouterSpec& rs = *m.router;
    toml::table router;
    router.insert("score_function", router_score_name(rs.score));
    router.insert("norm_topk_prob", rs.norm_topk_prob);
    router.insert("expert_bias", rs.expert_bias);
    router.insert("num_groups", int64_t{rs.num_groups});
    router.insert("group_topk", int64_t{rs.group_topk});
    router.insert("topk_scaling_factor", rs.topk_scaling_factor);
    if (rs.probs_on_input) router.insert("probs_on_input", true);
    if (rs.logit_norm_std > 0) router.insert("logit_norm_std", rs.logit_norm_std);
    if (rs.balance_loss_stated) {  // absent: the source states none (RouterSpec)
      router.insert("balance_loss", balance_loss_name(rs.balance_loss));
      router.insert("balance_loss_coeff", rs.balance_loss_coeff);
    }
    doc.insert("router", std::move(router));
  }
  write_checkpoint_storage(m, doc);
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
      // Basic (escaped) strings only: a literal or multi-line string cannot hold every name
      // (a name with a newline and three quotes made toml++ write a file it cannot read back).
      << toml::toml_formatter{doc, toml::toml_formatter::default_flags &
                                       ~toml::format_flags::allow_literal_strings &
                                       ~toml::format_flags::allow_multi_line_strings}
      << "\n";
  return out.str();
}

// ---- Megatron-LM ---------------------------------------------------------------------------

namespace {

/// The flags of a Megatron-LM command line in order, and the comment block that cites each.
struct MegatronArgList {
  std::vector<std::pair<std::string, std::string>> args;  // flag, value ("" for a switch)
  std::vector<std::string> notes;                          // the comment block
  void operator()(std::string flag, std::string value, std::string why) {
    notes.push_back(value.empty() ? fmt::format("{}: {}", flag, why) : fmt::format("{} {}: {}", flag, value, why));
    args.emplace_back(std::move(flag), std::move(value));
  }
};

template <typename T>
std::string num(T v) {
  return fmt::format("{}", v);
}

/// Megatron-LM's --kv-channels for `m`. GQA: the head size. MLA: v_head_dim, which is what the
/// presets write as head_dim ("= v_head_dim", presets/models/deepseek-v3.1.toml). A config.json
/// of an MLA model has no head_dim (its heads are sized by qk_nope_head_dim, qk_rope_head_dim
/// and v_head_dim), so head_size() falls back to hidden_size / heads (7168 / 128 = 56 for
/// DeepSeek-V3), a width no layer of the model has. Megatron's MultiLatentAttention sizes its
/// heads by --qk-head-dim, --qk-pos-emb-head-dim and --v-head-dim and reads no kv_channels
/// (megatron/core/transformer/multi_latent_attention.py, core_v0.15.0).
int megatron_kv_channels(const ModelConfig& m) {
  return m.latent_attention ? m.latent_attention->v_head_dim : m.head_size();
}

/// The one sliding window of the windowed layers (0: none), or nullopt when they differ.
std::optional<int> common_window(const ModelConfig& m) {
  int window = 0;
  for (const LayerSpec& l : m.layers) {
    if (l.window <= 0) continue;
    if (window > 0 && l.window != window) return std::nullopt;
    window = l.window;
  }
  return window;
}

/// Sliding-window attention (LayerSpec::window) as Megatron-LM core_v0.15.0 builds it.
/// --window-size takes "left,right" (arguments.py: tuple_type; TransformerConfig.window_size,
/// handed to Transformer Engine's DotProductAttention, where query i attends keys i - left ..
/// i + right). A config's sliding_window W lets a query see W positions, itself included
/// (transformers masking_utils.sliding_window_overlay: kv_idx > q_idx - W): left = W - 1,
/// right = 0 (causal). The full-attention layers among them: --window-attn-skip-freq
/// (megatron/core/transformer/utils.py is_layer_window_attention: an int N windows layer n,
/// 1-based, unless n % N == 0; a list marks the windowed layers with 1).
void window_flags(const ModelConfig& m, MegatronArgList& arg) {
  const std::optional<int> window = common_window(m);
  if (!window || *window == 0) return;  // different sizes: refused before (megatron_window_problem)
  const int L = static_cast<int>(m.layers.size());
  const auto windowed = [&](int i) { return m.layers[static_cast<std::size_t>(i)].window > 0; };
  arg("--window-size", fmt::format("{},0", *window - 1),
      fmt::format("sliding_window {}: a query sees the last {} positions, itself included (left = W - 1, "
                  "right = 0)", *window, *window));
  int all = 0;
  for (int i = 0; i < L; ++i) all += windowed(i) ? 1 : 0;
  if (all == L) return;
  for (int n = 2; n <= L; ++n) {  // Megatron's int form: every n-th layer full attention
    bool fits = true;
    for (int i = 0; i < L && fits; ++i) fits = windowed(i) == ((i + 1) % n != 0);
    if (!fits) continue;
    arg("--window-attn-skip-freq", num(n),
        fmt::format("layers {}, {}, ... (1-based) full attention, the {} others windowed (layer_types)", n, 2 * n, all));
    return;
  }
  std::string pattern;
  for (int i = 0; i < L; ++i) pattern += fmt::format("{}{}", i > 0 ? "," : "", windowed(i) ? 1 : 0);
  arg("--window-attn-skip-freq", "'[" + pattern + "]'",
      fmt::format("1: a windowed layer, 0: full attention ({} of {} windowed; layer_types)", all, L));
}

/// Attention: latent (MLA) or grouped-query heads, the head size, sliding windows.
void attention_flags(const ModelConfig& m, MegatronArgList& arg) {
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    arg("--multi-latent-attention", "", "latent attention (kv_lora_rank is set)");
    if (a.q_lora_rank > 0) {  // absent: full-rank queries (Megatron reads 0 as a rank-0 bottleneck)
      arg("--q-lora-rank", num(a.q_lora_rank), "q_lora_rank");
    }
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
  arg("--kv-channels", num(megatron_kv_channels(m)),
      m.latent_attention ? "= v_head_dim, as the presets write head_dim for MLA (Megatron's MLA reads "
                           "--qk-head-dim, --qk-pos-emb-head-dim and --v-head-dim, not this)"
                         : "d_qkv, the head size (head_dim)");
  window_flags(m, arg);
  // Megatron-Core's TransformerConfig.attention_output_gate (d98e8a64; argparse's
  // --attention-output-gate from the dataclass): linear_qkv writes a gate of N_q·kv_channels
  // beside q, and the output is x * sigmoid(gate) before linear_proj.
  if (m.gated_attention) {
    arg("--attention-output-gate", "",
        "gated attention: a sigmoid gate of the attention output, N_q x head_dim per token (the source's)");
  }
}

/// How positions enter: Megatron-LM's --position-embedding-type (megatron/training/arguments.py
/// @307dcf37: choices learned_absolute, rope, mrope, relative, none; no ALiBi, refused before by
/// megatron_position_problem) and --no-rope-freq for layers without RoPE (same file: a list
/// expression, 1 marks a no-rope layer).
void position_flags(const ModelConfig& m, MegatronArgList& arg) {
  if (m.position_embedding == PositionEmbedding::learned_absolute) {
    arg("--position-embedding-type", "learned_absolute", "learned absolute positions, a table of max_position_embeddings x d");
  } else if (m.position_embedding == PositionEmbedding::none) {
    arg("--position-embedding-type", "none", "no position embedding, as the source");
  } else {
    arg("--position-embedding-type", "rope", "RoPE (paper 002 Sec. 3.4)");
    // Megatron-LM's --rotary-percent (arguments.py, d98e8a64: "Percent of rotary dimension to
    // use", default 1.0): RotaryEmbedding rotates kv_channels x it of each head.
    if (m.partial_rotary_factor != 1) {
      arg("--rotary-percent", fmt::format("{:g}", m.partial_rotary_factor),
          "the fraction of each head RoPE rotates (partial_rotary_factor), as the source");
    }
    // Megatron-LM's --rotary-base (arguments.py, d98e8a64: type=int, default 10000; its own HF
    // check maps rope_theta to rotary_base): written where the source states the base.
    if (m.rope_theta && m.rope_local_theta) {
      arg.notes.emplace_back(fmt::format("RoPE's base is {:g} in the full-attention layers and {:g} in the sliding ones: "
                                         "Megatron-LM's --rotary-base takes one for every layer, so none is written "
                                         "(its default is {:.0f})",
                                         *m.rope_theta, *m.rope_local_theta, k_megatron_rotary_base));
    } else if (m.rope_theta) {
      if (*m.rope_theta == std::floor(*m.rope_theta)) {
        arg("--rotary-base", fmt::format("{:.0f}", *m.rope_theta), "RoPE's base (rope_theta), as the source");
      } else {
        arg.notes.emplace_back(fmt::format("rope_theta {} is not a whole number: Megatron-LM's --rotary-base takes an "
                                           "integer, so it is not written (its default is {:.0f})",
                                           *m.rope_theta, k_megatron_rotary_base));
      }
    }
  }
  if (m.no_rope_layers.empty()) return;
  std::string pattern;
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    const bool nope = std::find(m.no_rope_layers.begin(), m.no_rope_layers.end(), i) != m.no_rope_layers.end();
    pattern += fmt::format("{}{}", i > 0 ? "," : "", nope ? 1 : 0);
  }
  arg("--no-rope-freq", "'[" + pattern + "]'",
      fmt::format("{} of {} layers without RoPE (1 marks one), as the source", m.no_rope_layers.size(), m.num_hidden_layers));
}

/// The model's shape: layers, widths, heads and attention, vocabulary and context.
void shape_flags(const ModelConfig& m, MegatronArgList& arg) {
  arg("--num-layers", num(m.num_hidden_layers), "L = L_d + L_m (num_hidden_layers)");
  arg("--hidden-size", num(m.hidden_size), "d (hidden_size)");
  if (m.dense_layers() > 0) {
    arg("--ffn-hidden-size", num(m.intermediate_size),
        "d_d, FFN width of the dense layers (intermediate_size; paper 002 Sec. 3.4: 3d)");
  }
  arg("--num-attention-heads", num(m.num_attention_heads), "N_q (num_attention_heads)");
  attention_flags(m, arg);
  if (m.ffn_gated) {
    arg("--swiglu", "", "SwiGLU FFNs (paper 002 Sec. 3.4; moeplan counts 3 d x width per FFN)");
  } else if (m.ffn_activation == ModelConfig::Activation::squared_relu) {
    // Megatron-LM's MLP without --swiglu is linear_fc1, its activation, linear_fc2 (2 d x width);
    // the activation defaults to GELU (megatron/training/arguments.py: --squared-relu for ReLU^2).
    arg("--squared-relu", "", "an ungated FFN with squared ReLU (relu2), as the source (2 d x width)");
  } else if (m.ffn_activation == ModelConfig::Activation::gelu) {
    arg.notes.emplace_back("no --swiglu: an ungated FFN (up and down, 2 d x width) with Megatron's default "
                           "activation, GELU, as the source");
  } else {
    arg.notes.emplace_back("no --swiglu: an ungated FFN (up and down, 2 d x width); Megatron's "
                           "activation is then GELU, add --squared-relu for a squared-ReLU model "
                           "(a moeplan config records no activation)");
  }
  if (m.extras.norm_bias) {  // PhiMoE, BLOOM, Falcon: LayerNorm with a bias
    arg("--normalization", "LayerNorm", "LayerNorm with a bias, as the source architecture builds it (Megatron's default)");
  } else {
    arg("--normalization", "RMSNorm", "RMSNorm, as the DeepSeek/Qwen backbones of paper 002 Sec. 3.4 (Megatron's default is LayerNorm)");
  }
  // TransformerConfig.layernorm_epsilon's flag (d98e8a64: --norm-epsilon, default 1e-5).
  if (m.norm_eps) arg("--norm-epsilon", fmt::format("{}", *m.norm_eps), "the norms' epsilon (rms_norm_eps), as the source");
  if (m.layernorm_1p) {
    arg("--apply-layernorm-1p", "", "LayerNorm weights applied as 1 + w, as the source's (NemotronLayerNorm1P)");
  }
  if (m.ffn_gated || !m.extras.output_bias) {
    arg("--disable-bias-linear", "", "no biases in linear layers: the counted model has none (Megatron adds them by default)");
  } else {
    arg.notes.emplace_back("no --disable-bias-linear: biases in the linear layers (Megatron's "
                           "default), as the source architecture (GPT-style, ungated FFN) builds them");
  }
  if (m.extras.qkv_bias) arg("--add-qkv-bias", "", "q, k, v biases, as the source architecture builds them");
  if (m.extras.qk_norm != QkNorm::none) {
    arg("--qk-layernorm", "", "qk-norm, as the source architecture builds it");
  } else if (m.latent_attention) {  // Megatron-LM gpt_layer_specs.py: MLA's norms only with this flag
    arg("--qk-layernorm", "", "MLA's RMSNorms of the compressed query and key/value (DeepSeek-V3's "
                              "q_a_layernorm, kv_a_layernorm), which Megatron builds only with this flag");
  }
  position_flags(m, arg);
  if (m.latent_attention) {
    arg("--rope-type", "rope", "plain RoPE in pre-training (Megatron's MLA default is YaRN, a context extension)");
  }
  if (!m.tie_word_embeddings) {
    arg("--untie-embeddings-and-output-weights", "", "tie_word_embeddings = false");
  }
  arg("--vocab-size", num(m.vocab_size),
      "V (vocab_size; paper 002 Sec. 3.4: 152064); a tokenizer's own size wins in Megatron");
  if (m.position_embedding == PositionEmbedding::learned_absolute) {  // the table's rows, S or more
    if (m.training) arg("--seq-length", num(m.training->seq_len), "S, training context (paper 002: 8192)");
    arg("--max-position-embeddings", fmt::format("{}", m.max_position_embeddings),
        "the learned position table's rows (max_position_embeddings), as counted");
  } else if (m.training) {
    arg("--seq-length", num(m.training->seq_len), "S, training context (paper 002: 8192)");
    arg("--max-position-embeddings", num(m.training->seq_len), "= S");
  }
}

/// The experts and their FFN layout (the router is router_flags').
void moe_flags(const ModelConfig& m, MegatronArgList& arg) {
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
  if (m.moe_layer_interval == 1) {
    arg("--moe-layer-freq",
        fmt::format("'([0]*{}+[1]*{})'", m.dense_layers(), m.moe_layers()),
        fmt::format("first_k_dense_replace = {} dense layers, then {} MoE layers",
                    m.dense_layers(), m.moe_layers()));
  } else {  // one entry per layer: layer i >= k is MoE when (i - k + 1) % interval == 0
    std::string pattern;
    for (int i = 0; i < m.num_hidden_layers; ++i) {
      const bool moe = i >= m.first_k_dense_replace &&
                       (i - m.first_k_dense_replace + 1) % m.moe_layer_interval == 0;
      if (i > 0) pattern += ',';
      pattern += moe ? '1' : '0';
    }
    arg("--moe-layer-freq", "'[" + pattern + "]'",
        fmt::format("every {}-th layer MoE ({} dense, {} MoE layers)", m.moe_layer_interval,
                    m.dense_layers(), m.moe_layers()));
  }
  arg("--moe-grouped-gemm", "", "the routed experts' GEMMs as one grouped GEMM");
  if (m.extras.shared_expert_gate) {
    arg("--moe-shared-expert-gate", "", "the shared experts' sigmoid gate, as the source builds it (Qwen2-MoE)");
  }
}

/// The router: the source's as its config states it, else paper 000's.
void router_flags(const ModelConfig& m, MegatronArgList& arg) {
  // The source's own router as its config states it (RouterSpec), else paper 000's: softmax
  // top-K, normalised over the K, with its balance and z-losses (stated by no source).
  RouterSpec x = m.router.value_or(RouterSpec{});
  if (!m.router) x.balance_loss_stated = false;
  if (m.router) arg("--moe-router-score-function", router_score_name(x.score), "the source's scoring function");
  if (x.score == RouterSpec::Score::softmax && (!x.norm_topk_prob || m.num_experts_per_tok == 1)) {
    arg("--moe-router-pre-softmax", "", m.num_experts_per_tok == 1
                                            ? "softmax over all experts, then top-1 (Megatron requires it for K = 1)"
                                            : "softmax over all experts, then top-K (norm_topk_prob = false)");
  }
  if (x.expert_bias) {
    arg("--moe-router-enable-expert-bias", "",
        "aux-loss-free balancing: a per-expert bias in the top-K choice (DeepSeek-V3 Sec. 2.1.2)");
    arg("--moe-router-bias-update-rate", "1e-3",
        "the bias update speed gamma = 0.001 of DeepSeek-V3 Sec. 4.2 (its last 500B tokens used 0)");
  }
  if (x.num_groups > 1) {
    arg("--moe-router-num-groups", num(x.num_groups), "n_group: experts in groups (group-limited routing)");
    arg("--moe-router-group-topk", num(x.group_topk), "topk_group: groups a token's K come from");
  }
  if (x.probs_on_input) {
    arg("--moe-apply-probs-on-input", "", "the gate scales the expert's input, as the source does (Llama 4)");
  }
  if (x.topk_scaling_factor != 1.0) {
    arg("--moe-router-topk-scaling-factor", fmt::format("{:g}", x.topk_scaling_factor),
        "routed_scaling_factor");
  }
  if (x.balance_loss_stated) {
    arg("--moe-router-load-balancing-type", balance_loss_name(x.balance_loss), "the source's balance loss");
    if (x.balance_loss != RouterSpec::BalanceLoss::none) {
      arg("--moe-aux-loss-coeff", fmt::format("{:g}", x.balance_loss_coeff), "the source's balance-loss alpha");
    }
  } else if (x.expert_bias) {  // the bias method's own complement (its source, DeepSeek-V3 Sec. 4.2)
    arg("--moe-router-load-balancing-type", "seq_aux_loss",
        "not stated by the source: DeepSeek-V3's complement to bias balancing (Sec. 2.1.2)");
    arg("--moe-aux-loss-coeff", "1e-4", "not stated by the source: DeepSeek-V3 Sec. 4.2's alpha");
  } else {  // paper 000's, for a model with no router of its own or one that states no loss
    const char* stated = "not stated by the source: paper 000 Sec. 2's";
    arg("--moe-router-load-balancing-type", "aux_loss",
        m.router ? stated : "auxiliary balance loss (the router itself, N_e x d per MoE layer, is outside N)");
    arg("--moe-aux-loss-coeff", "0.01",
        m.router ? stated
                 : "load-balancing loss coefficient of paper 000 Sec. 2 (Megatron's default 0 would switch it off)");
    arg("--moe-z-loss-coeff", "0.001", m.router ? stated : "router z-loss coefficient of paper 000 Sec. 2");
  }
}

/// The layout moeplan chose (docs/cluster.md) and what the step time assumed, in Megatron-LM's
/// own flag names.
// The whole training as the estimate timed it, in Megatron-LM's flags: the batch ramp
// (--rampup-batch-size START INCREMENT SAMPLES, in increments of micro-batch x DP, which every
// batch of Megatron's ramp must be a multiple of: num_microbatches_calculator.py), asynchronous
// saves, and the intervals given in steps.
void whole_training_flags(const ModelConfig& m, const MegatronRun& run, MegatronArgList& arg) {
  const ParallelLayout& p = run.layout;
  const long long step = static_cast<long long>(p.micro_batch) * p.dp;
  const int S = m.training ? m.training->seq_len : 0;
  if (run.ramp_start_sequences > 0 && S > 0 && step > 0) {
    const long long start = std::max(step, run.ramp_start_sequences / step * step);
    if (start < p.global_batch) {
      arg("--rampup-batch-size",
          fmt::format("{} {} {}", start, step, static_cast<long long>(std::llround(run.ramp_tokens / S))),
          fmt::format("--batch-ramp {}:{:g} as timed (linear there; here {} more sequences a batch in equal "
                      "steps over the ramp's samples{})",
                      run.ramp_start_sequences, run.ramp_tokens, step,
                      start != run.ramp_start_sequences ? ", START rounded down to a multiple of micro-batch x DP"
                                                        : ""));
    }
  }
  if (run.async_save) arg("--async-save", "", "asynchronous checkpoint saves (--async-checkpoint), as timed");
  if (run.save_interval_steps) {
    arg("--save-interval", num(*run.save_interval_steps),
        run.save_interval_minutes > 0
            ? fmt::format("steps between saves: the timed interval of {:.3g} minutes at the step time", run.save_interval_minutes)
            : std::string("steps between saves, as timed"));
  }
  if (run.eval_interval_steps && run.eval_iters) {
    arg("--eval-interval", num(*run.eval_interval_steps), "steps between evaluations, as timed");
    arg("--eval-iters", num(*run.eval_iters),
        run.eval_minutes > 0 ? fmt::format("batches an evaluation runs: its {:g} minutes timed, a batch a third of a "
                                           "step (a forward pass)", run.eval_minutes)
                             : std::string("batches an evaluation runs, as timed"));
  } else if (run.no_evaluation) {
    arg("--eval-iters", "0", "no evaluation timed (Megatron-LM's default evaluates 100 batches every 1000 steps)");
  }
}

// Megatron-FSDP's flags where the run shards more than the optimizer states.
void fsdp_flags(const MegatronRun& run, MegatronArgList& arg) {
  if (!run.megatron_fsdp) return;
  arg("--use-megatron-fsdp", "", "Megatron-FSDP, as the memory per GPU and the data-parallel time count it "
                                 "(Megatron-LM asserts CUDA_DEVICE_MAX_CONNECTIONS is not 1 with it)");
  const DpSharding sharding = *run.megatron_fsdp;
  arg("--data-parallel-sharding-strategy", to_string(sharding),
      sharding == DpSharding::optim_grads_params ? "weights, gradients and optimizer states sharded over DP"
      : sharding == DpSharding::optim_grads       ? "gradients and optimizer states sharded over DP"
                                                   : "optimizer states sharded over DP");
  arg("--ckpt-format", "fsdp_dtensor", "the checkpoint format Megatron-LM requires with Megatron-FSDP (arguments.py)");
}

void layout_flags(const ModelConfig& m, const MegatronRun& run, MegatronArgList& arg) {
  const ParallelLayout& p = run.layout;
  arg("--tensor-model-parallel-size", num(p.tp), "TP: divides N_q and N_kv, within a node");
  if (p.tp > 1 && p.sequence_parallel) {
    arg("--sequence-parallel", "", "SP with TP (Korthikanti et al. 2022): activations / TP");
  }
  if (p.cp > 1) arg("--context-parallel-size", num(p.cp), "CP: the sequence split over ranks");
  arg("--pipeline-model-parallel-size", num(p.pp), "PP stages");
  if (p.pp > 1 && !p.pipeline_layout.empty()) {  // the layout string gives the split and VPP
    arg("--pipeline-model-parallel-layout", fmt::format("'{}'", p.pipeline_layout),
        fmt::format("the given layout: first rank {} decoder layers, last {}, VPP {}", p.first_stage_layers,
                    p.last_stage_layers, p.vpp));
  }
  const bool accounted = p.pp > 1 && (p.embedding_in_split || p.loss_in_split || !p.pipeline_layout.empty());
  if (!p.pipeline_layout.empty()) {
  } else if (p.vpp > 1 && accounted) {  // L / (PP VPP) is not whole: VPP itself
    arg("--num-virtual-stages-per-pipeline-rank", num(p.vpp), "interleaved 1F1B");
  } else if (p.vpp > 1) {
    arg("--num-layers-per-virtual-pipeline-stage", num(m.num_hidden_layers / (p.pp * p.vpp)),
        fmt::format("interleaved 1F1B, {} virtual stages per rank", p.vpp));
  }
  if (!p.pipeline_layout.empty()) {
  } else if (accounted) {
    if (p.embedding_in_split) {
      arg("--account-for-embedding-in-pipeline-split", "", "the embedding counts as a layer of the first stage");
    }
    if (p.loss_in_split) arg("--account-for-loss-in-pipeline-split", "", "the loss counts as a layer of the last stage");
  } else if (p.first_stage_layers > 0) {
    arg("--decoder-first-pipeline-num-layers", num(p.first_stage_layers), "uneven pipeline: first stage");
  }
  if (!accounted && p.last_stage_layers > 0) {
    arg("--decoder-last-pipeline-num-layers", num(p.last_stage_layers), "uneven pipeline: last stage");
  }
  if (m.is_moe()) {
    arg("--expert-model-parallel-size", num(p.ep), "EP: divides N_e");
    arg("--expert-tensor-parallel-size", num(p.etp), "ETP (MoE parallel folding)");
    if (run.force_load_balancing) {
      arg("--moe-router-force-load-balancing", "",
          "routing forced to balance (--load-imbalance 1), as timed: a benchmark's setting, not a training's");
    }
  }
  if (p.distributed_optimizer) {
    arg("--use-distributed-optimizer", "", "optimizer states sharded over DP (ZeRO-1)");
  }
  fsdp_flags(run, arg);
  if ((p.dp > 1 || p.edp > 1) && run.overlap_grad_reduce) {  // what the step time assumed (docs/cluster.md)
    arg("--overlap-grad-reduce", "", "the data-parallel gradient reduction overlapped with the backward "
                                     "pass, as the step time counts it (only its exposed part)");
    if (p.distributed_optimizer && run.overlap_param_gather) {
      arg("--overlap-param-gather", "",
          run.megatron_fsdp == DpSharding::optim_grads_params
              ? "the weights' all-gathers overlapped with the passes (Megatron-FSDP overlaps them anyway)"
              : "the distributed optimizer's parameter all-gather overlapped with the forward pass");
    }
  }
  arg("--micro-batch-size", num(p.micro_batch), "sequences per micro-batch");
  if (run.tp_comm_overlap && p.tp > 1) {
    arg("--tp-comm-overlap", "", "TP all-gathers and reduce-scatters overlapped with the linear layers' GEMMs "
                                 "(Transformer Engine userbuffers), as the step time counts them");
  }
  if (run.cuda_graphs.impl != CudaGraphImpl::none) {
    arg("--cuda-graph-impl", to_string(run.cuda_graphs.impl), "CUDA graphs, as the step's host term counts them");
    if (run.cuda_graphs.impl == CudaGraphImpl::full_iteration) {  // arguments.py asserts it for full_iteration
      arg("--no-check-for-nan-in-loss-and-grad", "", "a full-iteration graph cannot check the loss on the host");
    }
    if (run.cuda_graphs.modules != 0) {  // Megatron-Core 0.20's name (--cuda-graph-scope before it)
      arg("--cuda-graph-modules", cuda_graph_modules_string(run.cuda_graphs.modules), "the regions captured");
    }
  }
  if (!run.p2p_overlap && p.vpp > 1) {
    arg("--no-overlap-p2p-communication", "", "the interleaved schedule's sends not overlapped, as the step "
                                              "time counts them");
  }
  if (run.bf16_moments) {
    arg("--use-precision-aware-optimizer", "", "the optimizer keeps states in the dtypes below");
    arg("--exp-avg-dtype", "bf16", "Adam's m in bf16, as the memory and the optimizer step count it");
    arg("--exp-avg-sq-dtype", "bf16", "Adam's v in bf16");
  }
  if (run.grad_reduce_in_bf16 && run.megatron_fsdp) {
    arg("--bf16", "", "bf16 weights and activations, fp32 optimizer states; Megatron-FSDP keeps the gradients in the "
                      "weights' dtype (its main-grads dtype 'auto'), as the memory per GPU counts them");
  } else if (run.grad_reduce_in_bf16) {
    arg("--bf16", "", "bf16 weights and activations, fp32 optimizer states: what the memory per GPU counts");
    arg("--grad-reduce-in-bf16", "", "gradients accumulated and reduced in bf16 (2 bytes each), as the memory "
                                     "per GPU and the data-parallel time count them");
  } else {
    arg("--bf16", "", "bf16 weights and activations, fp32 gradients and optimizer states: what "
                      "the memory per GPU counts (6 + 12/DP bytes per parameter)");
  }
  if (run.precision == Precision::fp8) {
    arg("--fp8-format", "hybrid", "fp8 GEMMs of the linear layers (Transformer Engine: e4m3 forward, e5m2 "
                                  "gradients), as the step time counts them; fp8 weight copies in the memory");
    if (run.fp8_param_gather) {
      arg("--fp8-param-gather", "", "the weights kept in fp8 only (no bf16 copy) and all-gathered in fp8, "
                                    "as the memory per GPU counts them");
    }
    if (p.recompute == Recompute::selective &&
        (p.recompute_modules & (recompute_layernorm | recompute_moe_act)) != 0) {
      // Megatron's default recipe, delayed scaling, refuses these ("Delayed scaling does not
      // support moe_act and layernorm recompute for fp8"); per-tensor current scaling. The step
      // time counts one cast pass of each GEMM input (4 bytes an element); this recipe's separate
      // amax read is not counted (docs/measurements/h200-2026-11-29b).
      arg("--fp8-recipe", "tensorwise", "current scaling: Megatron's delayed default refuses layernorm and "
                                        "moe_act recompute under fp8");
    }
  }
  if (m.is_moe() && p.ep > 1) {
    // Megatron-Core 0.20's MoE README (d98e8a64): "--moe-token-dispatcher-type flex
    // --moe-flex-dispatcher-backend deepep"; --moe-enable-deepep is deprecated (transformer_config.py
    // warns "moe_enable_deepep is deprecated. Please use --moe-flex-dispatcher-backend=deepep").
    if (run.deepep) {
      arg("--moe-token-dispatcher-type", "flex", "the expert all-to-all the step time counts: DeepEP, one copy "
                                                 "per remote node (Megatron's default is allgather)");
      arg("--moe-flex-dispatcher-backend", "deepep", "DeepEP kernels for the flex dispatcher");
      // token_dispatcher.py: unset means 20 SMs for DeepEP.
      if (run.a2a_comm_sms != 20) {
        arg("--moe-flex-dispatcher-num-sms", std::to_string(run.a2a_comm_sms), "the SMs DeepEP's kernels hold");
      }
    } else {
      arg("--moe-token-dispatcher-type", "alltoall",
          "the expert-parallel all-to-all the step time counts (Megatron's default is allgather)");
    }
    // Megatron's Combined 1F1B hides one micro-batch's dispatch and combine behind another's compute.
    if (run.a2a_overlap > 0 && a2a_overlap_blocker(p).empty()) {
      arg("--overlap-moe-expert-parallel-comm", "",
          fmt::format("Megatron's Combined 1F1B, for the {:.0f} % of the all-to-all the step time hid "
                      "(--a2a-overlap; Megatron publishes no fraction)", 100 * run.a2a_overlap));
    }
  }
  if (p.recompute == Recompute::selective) {
    if (p.recompute_modules == k_default_recompute_modules) {
      arg("--recompute-granularity", "selective", "the attention core is recomputed");
    } else {
      arg("--recompute-granularity", "selective", "the modules below are recomputed");
      arg("--recompute-modules", recompute_modules_string(p.recompute_modules, " "),
          "what the step time and memory count as recomputed");
    }
  } else if (p.recompute == Recompute::full) {
    arg("--recompute-granularity", "full", "every layer recomputed from its input");
    arg("--recompute-method", "uniform", "with --recompute-num-layers 1");
    arg("--recompute-num-layers", "1", "every layer's input kept");
  }
  arg("--global-batch-size", num(p.global_batch),
      fmt::format("the chosen layout's: the laws' batch at C (or --global-batch-tokens) as a multiple of "
                  "micro-batch x DP = {} x {}{}, capped at D / S or raised when no layout keeps it "
                  "(suggest's cluster.global_batch_source says which)",
                  p.micro_batch, p.dp, p.vpp > 1 ? fmt::format(" x PP {}", p.pp) : std::string()));
  whole_training_flags(m, run, arg);
}

/// The comment block above the flags: every value cited, and what the flags cannot say.
std::string megatron_header(const ModelConfig& m, const TrainingHyperparameters& h, const MegatronRun* run,
                            const std::vector<std::string>& notes) {
  const ParallelLayout* layout = run ? &run->layout : nullptr;
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
  {
    std::vector<std::string> lost;
    if (m.extras.output_bias) lost.emplace_back("the attention output bias");
    if (m.extras.attention_sinks) lost.emplace_back("attention sinks");
    if (m.extras.expert_bias || m.extras.router_bias) lost.emplace_back("expert and router biases");
    if (m.extras.qk_norm == QkNorm::full_width) lost.emplace_back("qk-norm over all heads (Megatron's is per head)");
    if (m.extras.post_block_norms) lost.emplace_back("the norms after each block (Gemma 2/3/4's and Trinity's post-attention and post-FFN norms)");
    if (m.extras.moe_block_norms > 0) lost.emplace_back("the MoE block's own norms (Gemma 4's)");
    if (m.extras.router_scales) lost.emplace_back("the router's input and per-expert scales (Gemma 4's)");
    if (!lost.empty()) {
      out += "# Not expressed by these flags (outside paper 002's N): " + fmt::format("{}", fmt::join(lost, ", ")) + ".\n";
    }
  }
  if (!layout) out += "# Parallelism, micro-batch size and precision depend on the cluster: add them.\n";
  if (run && run->a2a_overlap > 0) {
    const std::string blocker = a2a_overlap_blocker(*layout);
    out += fmt::format("# The step time assumed {:.0f} % of the expert all-to-all hidden behind computation\n"
                       "# (--a2a-overlap; DualPipe or Megatron's Combined 1F1B). {}\n"
                       "# These arguments read back (--megatron-args) take --a2a-overlap from the command line\n"
                       "# (default 0): the fraction is not a Megatron setting.\n",
                       100 * run->a2a_overlap,
                       blocker.empty()
                           ? std::string("--overlap-moe-expert-parallel-comm below asks Megatron for its overlap.")
                           : fmt::format("Megatron's --overlap-moe-expert-parallel-comm cannot be asked for here: {}\n"
                                         "# (DualPipe is DeepSeek's own schedule).",
                                         blocker));
  }
  if (m.is_moe() && m.router) {
    out += m.router->balance_loss_stated
               ? "# Router: the source's, as its config states it (scores, balancing, groups, scaling, loss).\n"
               : "# Router: the source's scores, balancing, groups and scaling, as its config states them; it\n"
                 "# states no balance loss, so the one written is said below.\n";
    if (m.router->score == RouterSpec::Score::sigmoid && !m.router->norm_topk_prob) {
      out += "# Its sigmoid scores are not renormalised over the K chosen (norm_topk_prob = false);\n"
             "# Megatron-LM renormalises them when K > 1: no flag here keeps that.\n";
    }
  } else if (m.is_moe()) {
    out += "# Router: softmax top-K with paper 000's balance loss (0.01) and z-loss (0.001); the model's\n"
           "# config states no router of its own (a [router] table, or config.json's scoring_func,\n"
           "# topk_method, n_group, routed_scaling_factor, ... would set the --moe-router-* flags).\n";
  }
  return out;
}

}  // namespace

std::optional<std::string> megatron_window_problem(const ModelConfig& m) {
  // Chunks at least S long are full causal attention at S (the chunked mask masks nothing): written
  // as such (emit.cpp notes it); a shorter chunk Megatron cannot build.
  int chunked = 0, shortest = 0;
  for (const LayerSpec& l : m.layers) {
    if (l.chunk <= 0) continue;
    ++chunked;
    shortest = shortest > 0 ? std::min(shortest, l.chunk) : l.chunk;
  }
  if (chunked > 0 && (!m.training || shortest < m.training->seq_len)) {
    return fmt::format("chunked attention in {} layers (chunks of {} positions{}): Megatron-LM builds full and "
                       "sliding-window attention only (no attention-chunk option in arguments.py or "
                       "transformer_config.py), so moeplan refuses rather than write another model",
                       chunked, shortest,
                       m.training ? fmt::format(", shorter than S = {}", m.training->seq_len)
                                  : std::string("; no sequence length given: with a budget and --seq-len at most "
                                                "the chunk they are full attention and are written as such"));
  }
  if (common_window(m)) return std::nullopt;
  std::map<int, int> layers_of;  // window -> windowed layers
  for (const LayerSpec& l : m.layers) {
    if (l.window > 0) ++layers_of[l.window];
  }
  std::vector<std::string> sizes;
  for (const auto& [w, n] : layers_of) sizes.push_back(fmt::format("{} in {} layers", w, n));
  return fmt::format("sliding windows of different sizes ({}): Megatron-LM's --window-size is one size for "
                     "every windowed layer (arguments.py, core_v0.15.0), so moeplan refuses rather than write "
                     "another model", fmt::join(sizes, ", "));
}

std::optional<std::string> megatron_position_problem(const ModelConfig& m) {
  if (m.position_embedding == PositionEmbedding::alibi) {
    return std::string("ALiBi positions (BLOOM, MPT): Megatron-LM's --position-embedding-type has no alibi "
                       "(megatron/training/arguments.py @307dcf37: learned_absolute, rope, mrope, relative, "
                       "none), so moeplan refuses rather than write RoPE in its place");
  }
  if (m.training) {
    if (const auto why = position_table_problem(m, m.training->seq_len)) {
      return fmt::format("seq_len {} {}", m.training->seq_len, *why);
    }
  }
  return std::nullopt;
}

std::string to_megatron_args(const ModelConfig& m, const TrainingHyperparameters& h,
                             const MegatronRun* run) {
  const ParallelLayout* layout = run ? &run->layout : nullptr;
  MegatronArgList arg;

  shape_flags(m, arg);
  if (m.is_moe()) {
    moe_flags(m, arg);
    router_flags(m, arg);
  }
  {
    const int mtp = run && run->mtp_layers ? *run->mtp_layers : m.extras.num_nextn_predict_layers;
    if (mtp > 0) {
      arg("--mtp-num-layers", num(mtp),
          run && run->mtp_layers && *run->mtp_layers != m.extras.num_nextn_predict_layers
              ? "the multi-token-prediction modules the step time and memory counted (--mtp-num-layers)"
              : "the source's multi-token-prediction modules (DeepSeek-V3 Sec. 2.2); counted beside N, not in M");
    }
  }
  if (h.learning_rate) {
    const bool table4 = h.source == HyperparameterSource::holistic_table4;
    arg("--lr", fmt::format("{:.3g}", *h.learning_rate),
        table4 ? fmt::format("paper 002 Table 4 learning rate at C = {:.3g} FLOPs (log-C "
                             "interpolation between its rows, 1e18..3e20)", h.compute.value_or(0))
               : fmt::format("paper 000 Eq. 5 eta_opt(C) at C = {:.3g} FLOPs "
                             "(outside Table 4's rows 1e18..3e20, which would hold an end row)",
                             h.compute.value_or(0)));
  }
  if (run) layout_flags(m, *run, arg);
  if (h.global_batch_size && !layout) {
    const bool table4 = h.source == HyperparameterSource::holistic_table4;
    arg("--global-batch-size", num(*h.global_batch_size),
        table4 ? std::string("paper 002 Table 4 batch size at C, read as sequences of S tokens "
                             "(presets/laws/holistic.toml [training])")
               : std::string("paper 000 Eq. 5 B_opt(C), tokens, in sequences "
                             "of S (outside Table 4's rows)"));
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

  std::string out = megatron_header(m, h, run, arg.notes);
  // " \" continues every line but the last, so a paste ends the command there.
  for (std::size_t i = 0; i < arg.args.size(); ++i) {
    const auto& [flag, value] = arg.args[i];
    out += value.empty() ? flag : fmt::format("{} {}", flag, value);
    out += i + 1 < arg.args.size() ? " \\\n" : "\n";
  }
  return out;
}

}  // namespace moeplan
