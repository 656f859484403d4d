#include "moeplan/model/model_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "moeplan/model/architecture.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/base/work_counts.hpp"

namespace moeplan {

int ModelConfig::dense_layers() const {
  if (!layers.empty()) {
    int n = 0;
    for (const LayerSpec& l : layers) n += l.ffn == FfnKind::dense ? 1 : 0;
    return n;
  }
  if (!is_moe()) return num_hidden_layers;
  // Layer i >= first_k is MoE when (i - first_k + 1) is a multiple of the interval
  // (Llama 4: interleave_moe_layer_step 2 makes layers 1, 3, 5, ... MoE).
  const int after = num_hidden_layers - first_k_dense_replace;
  return num_hidden_layers - (moe_layer_interval > 0 ? after / moe_layer_interval : after);
}

int ModelConfig::moe_layers() const {
  if (layers.empty()) return num_hidden_layers - dense_layers();
  int n = 0;
  for (const LayerSpec& l : layers) n += l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense ? 1 : 0;
  return n;
}

std::vector<LayerSpec> ModelConfig::layer_specs() const {
  if (!layers.empty()) return layers;
  std::vector<LayerSpec> out(static_cast<std::size_t>(std::max(num_hidden_layers, 0)));
  for (int i = 0; i < num_hidden_layers; ++i) out[static_cast<std::size_t>(i)] = uniform_layer(*this, i);
  return out;
}

std::vector<std::pair<LayerSpec, int>> ModelConfig::layer_census() const {
  std::vector<std::pair<LayerSpec, int>> out;
  const auto add = [&out](const LayerSpec& l, int n) {
    if (n <= 0) return;
    for (auto& [spec, count] : out) {
      if (spec == l) {
        count += n;
        return;
      }
    }
    out.emplace_back(l, n);
  };
  if (!layers.empty()) {
    for (const LayerSpec& l : layers) add(l, 1);
    return out;
  }
  LayerSpec dense, moe;
  dense.ffn = FfnKind::dense;
  moe.ffn = FfnKind::moe;
  const int n_dense = dense_layers();
  const int n_moe = std::max(num_hidden_layers, 0) - n_dense;
  // Layer 0 is dense when there are leading dense layers or the interval skips it.
  if (first_k_dense_replace > 0 || std::max(moe_layer_interval, 1) > 1 || !is_moe()) {
    add(dense, n_dense);
    add(moe, n_moe);
  } else {
    add(moe, n_moe);
    add(dense, n_dense);
  }
  return out;
}

int ModelConfig::attention_layers() const {
  if (layers.empty()) return num_hidden_layers;
  int n = 0;
  for (const LayerSpec& l : layers) n += l.mixer == MixerKind::attention ? 1 : 0;
  return n;
}

std::vector<std::string> ModelConfig::outside_law_architecture() const {
  // Papers 000-004 fit their laws on uniform decoder stacks of softmax attention and SwiGLU
  // (or gated) FFNs/experts; whatever else a model builds is named here, once per kind.
  std::vector<std::string> out;
  std::vector<int> per_mixer(linear_mixers.size(), 0);
  int mixerless = 0, ffnless = 0, residual = 0, shared_kv = 0, windowed = 0, window = 0, chunked = 0, chunk = 0;
  int own_heads = 0, own_head = 0, keys_are_values = 0, own_q = 0, most_q = 0, own_values = 0, own_value = 0,
      sinks = 0;
  for (const LayerSpec& l : layers) {
    if (l.mixer == MixerKind::attention && l.q_heads > 0 && l.q_heads != num_attention_heads) {
      ++own_q;
      most_q = std::max(most_q, l.q_heads);
    }
    if (l.mixer == MixerKind::attention && l.v_head_dim > 0 && l.v_head_dim != head_size_of(*this, l)) {
      ++own_values;
      own_value = std::max(own_value, l.v_head_dim);
    }
    sinks += l.mixer == MixerKind::attention && l.attention_sinks ? 1 : 0;
    if (l.mixer == MixerKind::attention && l.head_dim > 0 && l.head_dim != head_size()) {
      ++own_heads;
      own_head = std::max(own_head, l.head_dim);
    }
    keys_are_values += l.mixer == MixerKind::attention && l.k_eq_v ? 1 : 0;
    if (l.mixer == MixerKind::linear && l.linear_mixer >= 0 &&
        l.linear_mixer < static_cast<int>(per_mixer.size())) {
      ++per_mixer[static_cast<std::size_t>(l.linear_mixer)];
    }
    mixerless += l.mixer == MixerKind::none ? 1 : 0;
    ffnless += l.ffn == FfnKind::none ? 1 : 0;
    residual += l.ffn == FfnKind::moe_and_dense ? 1 : 0;
    shared_kv += l.mixer == MixerKind::attention && !l.own_kv ? 1 : 0;
    if (l.mixer == MixerKind::attention && l.window > 0) {
      ++windowed;
      window = std::max(window, l.window);
    }
    if (l.mixer == MixerKind::attention && l.chunk > 0) {
      ++chunked;
      chunk = std::max(chunk, l.chunk);
    }
  }
  const auto of = [this](int n) { return std::to_string(n) + " of " + std::to_string(num_hidden_layers) + " layers"; };
  for (std::size_t k = 0; k < per_mixer.size(); ++k) {
    if (per_mixer[k] > 0) out.push_back(linear_mixers[k].kind + " mixers (not softmax attention) in " + of(per_mixer[k]));
  }
  if (mixerless > 0) out.push_back("no token mixer in " + of(mixerless));
  if (ffnless > 0) out.push_back("no FFN in " + of(ffnless));
  if (residual > 0) out.push_back("a dense FFN beside the experts in " + of(residual));
  if (shared_kv > 0) out.push_back("K, V shared with an earlier layer (cross-layer attention) in " + of(shared_kv));
  if (windowed > 0) {
    out.push_back("sliding-window attention (window up to " + std::to_string(window) + ") in " + of(windowed));
  }
  if (chunked > 0) {
    out.push_back("chunked attention (chunks of up to " + std::to_string(chunk) + " positions) in " + of(chunked));
  }
  if (own_heads > 0) {
    out.push_back("attention heads of their own size (up to " + std::to_string(own_head) + ", head_dim " +
                  std::to_string(head_size()) + ") in " + of(own_heads));
  }
  if (own_q > 0) {
    out.push_back("query heads of their own (up to " + std::to_string(most_q) + ", num_attention_heads " +
                  std::to_string(num_attention_heads) + ") in " + of(own_q));
  }
  if (own_values > 0) {
    out.push_back("value heads of another size than the key heads (v_head_dim up to " + std::to_string(own_value) +
                  ", head_dim " + std::to_string(head_size()) + ") in " + of(own_values));
  }
  if (sinks > 0) out.push_back("attention sinks (a learned logit per query head) in " + of(sinks));
  if (keys_are_values > 0) out.push_back("keys that are also the values (k_proj, no v_proj) in " + of(keys_are_values));
  if (zero_experts > 0) out.push_back(std::to_string(zero_experts) + " zero-width experts beside the routed ones (tokens routed to them skip the FFN)");
  if (indexer && indexer->kind == AttentionIndexer::Kind::dsa) {
    out.push_back("a sparse-attention indexer: each query attends to " + std::to_string(indexer->topk) + " keys");
    const int shared = static_cast<int>(std::count_if(layers.begin(), layers.end(), [](const LayerSpec& l) {
      return l.mixer == MixerKind::attention && l.indexer_shared;
    }));
    if (shared > 0) out.push_back("the top-k keys of an earlier layer's indexer reused (IndexShare) in " + of(shared));
  }
  if (indexer && indexer->kind == AttentionIndexer::Kind::msa) {
    const int indexed = static_cast<int>(std::count_if(layers.begin(), layers.end(), [](const LayerSpec& l) {
      return l.mixer == MixerKind::attention && l.indexed;
    }));
    out.push_back(fmt::format("a block-sparse attention indexer: each query attends to at most {} blocks of {} keys "
                              "in {}", indexer->topk + indexer->always_blocks, indexer->block_size,
                              layers.empty() ? "every layer" : of(indexed)));
  }
  if (compressed_attention) {
    const CompressedAttention& a = *compressed_attention;
    int csa = 0, hca = 0;
    for (const LayerSpec& l : layers) {
      csa += l.compress_rate > 0 && l.compress_rate == a.csa_rate ? 1 : 0;
      hca += l.compress_rate > 0 && l.compress_rate != a.csa_rate ? 1 : 0;
    }
    out.push_back(fmt::format("DeepSeek-V4 compressed attention (one shared key/value head, a grouped output "
                              "projection): keys pooled 1 per {} tokens with an indexer keeping {} of them in {}, "
                              "1 per {} tokens in {}",
                              a.csa_rate, a.index_topk, of(csa), a.hca_rate, of(hca)));
    out.push_back(fmt::format("hyper-connections: {} residual streams mixed around every block", a.hc_mult));
  }
  if (hash_routed_layers > 0) out.push_back("experts picked by a fixed token-id table (hash routing) in " + of(hash_routed_layers));
  if (!ffn_gated) out.push_back("ungated FFNs (up and down only)");
  if (moe_latent_size > 0) {
    out.push_back(fmt::format("latent MoE: routed experts read and write a latent of {} (moe_latent_size), projected "
                              "from and back to {} around them", moe_latent_size, hidden_size));
  }
  if (gated_attention) out.push_back("gated attention (a sigmoid gate of the attention output, N_q·head_dim x d: q_proj's second half or a gate_proj)");
  if (head_wise_attn_gate) out.push_back("a head-wise attention output gate (g_proj, one scalar per head)");
  if (position_embedding == PositionEmbedding::alibi) out.push_back("ALiBi attention biases in place of RoPE");
  if (position_embedding == PositionEmbedding::learned_absolute) out.push_back("learned absolute positions in place of RoPE");
  if (position_embedding == PositionEmbedding::none) out.push_back("no position embedding");
  if (!no_rope_layers.empty()) out.push_back("no RoPE in " + of(static_cast<int>(no_rope_layers.size())));
  return out;
}

namespace {

// A layer's own value head size (LayerSpec::v_head_dim) and sinks: GQA attention only, and no
// value heads unlike the keys where the keys are the values.
std::optional<ConfigProblem> value_heads_and_sinks_problem(const ModelConfig& m, const LayerSpec& l) {
  if (l.v_head_dim < 0 || (l.v_head_dim > 0 && (l.mixer != MixerKind::attention || m.latent_attention ||
                                                (l.k_eq_v && l.v_head_dim != head_size_of(m, l))))) {
    return ConfigProblem{"model.layer_v_head_dims", "a value head size of a layer's own needs a (GQA) attention "
                                                    "layer whose keys are not its values"};
  }
  if (l.attention_sinks && l.mixer != MixerKind::attention) {
    return ConfigProblem{"model.layer_attention_sinks", "attention sinks need an attention layer"};
  }
  return std::nullopt;
}

}  // namespace

int ModelConfig::head_size() const {
  if (head_dim > 0) return head_dim;
  return num_attention_heads > 0 ? hidden_size / num_attention_heads : 0;
}

int ModelConfig::shared_width() const {
  return shared_expert_intermediate_size > 0 ? shared_expert_intermediate_size
                                             : moe_intermediate_size;
}

const char* position_embedding_name(PositionEmbedding p) {
  switch (p) {
    case PositionEmbedding::rope: return "rope";
    case PositionEmbedding::alibi: return "alibi";
    case PositionEmbedding::learned_absolute: return "learned_absolute";
    case PositionEmbedding::none: return "none";
  }
  return "rope";
}

const char* router_score_name(RouterSpec::Score s) {
  switch (s) {
    case RouterSpec::Score::sigmoid: return "sigmoid";
    case RouterSpec::Score::sqrtsoftplus: return "sqrtsoftplus";
    case RouterSpec::Score::softmax: return "softmax";
  }
  return "softmax";
}

const char* balance_loss_name(RouterSpec::BalanceLoss b) {
  switch (b) {
    case RouterSpec::BalanceLoss::aux_loss: return "aux_loss";
    case RouterSpec::BalanceLoss::seq_aux_loss: return "seq_aux_loss";
    case RouterSpec::BalanceLoss::none: return "none";
  }
  return "aux_loss";
}

namespace {

// problem()'s rules for the attention extras: the indexers (DeepSeek-V3.2's DSA, MiniMax-M3's
// block indexer), the head-wise gate and the MTP modules' own layers.
std::optional<ConfigProblem> attention_extras_problem(const ModelConfig& m) {
  const auto& x = m.indexer;
  if (x && x->kind == AttentionIndexer::Kind::dsa &&
      (x->n_heads <= 0 || x->head_dim <= 0 || x->topk <= 0 || !m.latent_attention ||
       m.latent_attention->q_lora_rank <= 0)) {
    return ConfigProblem{"model.index_n_heads", "the indexer needs index_n_heads, index_head_dim, "
                                                "index_topk (positive) and latent attention with a q_lora_rank"};
  }
  if (x && x->kind == AttentionIndexer::Kind::msa &&
      (x->n_heads <= 0 || x->head_dim <= 0 || x->topk <= 0 || x->block_size <= 0 || x->always_blocks < 0 ||
       m.latent_attention)) {
    return ConfigProblem{"model.index_block_size", "a block indexer needs index_n_heads, index_head_dim, index_topk "
                                                   "and index_block_size (positive) and GQA attention"};
  }
  if (m.head_wise_attn_gate && (m.latent_attention || m.gated_attention)) {
    return ConfigProblem{"model.head_wise_attn_gate", "a head-wise gate (g_proj) goes with GQA without "
                                                      "gated_attention's per-channel gate"};
  }
  if (!m.extras.mtp_layers.empty() &&
      static_cast<int>(m.extras.mtp_layers.size()) != std::max(0, m.extras.num_nextn_predict_layers)) {
    return ConfigProblem{"model.num_nextn_predict_layers", "the MTP modules' own layers must be one per module"};
  }
  return std::nullopt;
}

// DeepSeek-V4's attention: one key/value head, every layer listed with a rate it names, positive
// sizes; neither MLA nor V3.2's indexer beside it.
std::optional<ConfigProblem> compressed_attention_problem(const ModelConfig& m) {
  if (!m.compressed_attention) return std::nullopt;
  const CompressedAttention& a = *m.compressed_attention;
  const bool rates_ok = std::all_of(m.layers.begin(), m.layers.end(), [&a](const LayerSpec& l) {
    return l.compress_rate == 0 || l.compress_rate == a.csa_rate || l.compress_rate == a.hca_rate;
  });
  // The two a config gets wrong most, named by their own keys; the rest below as one rule.
  if (m.num_key_value_heads != 1) {
    return ConfigProblem{"model.num_key_value_heads",
                         fmt::format("is {}: DeepSeek-V4's attention has one key/value head", m.num_key_value_heads)};
  }
  if (a.o_groups > 0 && (m.num_attention_heads * m.head_size()) % a.o_groups != 0) {
    return ConfigProblem{"model.compressed_attention.o_groups",
                         fmt::format("is {}: the output projection's groups must divide the query heads' width, {} "
                                     "heads x {} = {}", a.o_groups, m.num_attention_heads, m.head_size(),
                                     m.num_attention_heads * m.head_size())};
  }
  if (m.latent_attention || m.indexer ||
      static_cast<int>(m.layers.size()) != m.num_hidden_layers || a.q_lora_rank <= 0 || a.o_groups <= 0 ||
      a.o_lora_rank <= 0 || (m.num_attention_heads * m.head_size()) % a.o_groups != 0 || a.sliding_window <= 0 ||
      a.csa_rate <= 0 || a.hca_rate <= 0 || a.csa_rate == a.hca_rate || a.index_n_heads <= 0 ||
      a.index_head_dim <= 0 || a.index_topk <= 0 || a.hc_mult <= 0 || !rates_ok) {
    return ConfigProblem{"model.compress_ratios", "DeepSeek-V4's attention needs one key/value head, a layer list "
                                                  "with each layer's compress rate (0, the CSA or the HCA rate), "
                                                  "positive ranks, groups dividing the query heads' width, window, "
                                                  "indexer and hc_mult, and neither MLA nor a V3.2 indexer"};
  }
  // Its weights are counted by compressed_attention_params alone: the other families' per-layer
  // attention fields (Step-3.5's query heads and head-wise gate, MiniMax-M3's unindexed layers,
  // MiMo-V2-Flash's value heads and sinks) would be silently left out, so they are refused.
  const bool others = m.head_wise_attn_gate || std::any_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& l) {
                        return l.q_heads > 0 || !l.indexed || l.v_head_dim > 0 || l.attention_sinks;
                      });
  if (others) {
    return ConfigProblem{"model.compressed_attention", "DeepSeek-V4's attention goes with no layer_q_heads, "
                                                       "layer_indexed, layer_v_head_dims, layer_attention_sinks "
                                                       "nor head_wise_attn_gate (its sinks and heads are its own)"};
  }
  return std::nullopt;
}

// Latent MoE: routed experts at the latent (NemotronHMoE); its projections carry no bias here
// (mlp_bias false in every checkpoint moeplan reads), so experts with biases are refused.
std::optional<ConfigProblem> latent_moe_problem(const ModelConfig& m) {
  if (m.moe_latent_size < 0 || (m.moe_latent_size > 0 && (!m.is_moe() || m.extras.expert_bias))) {
    return ConfigProblem{"model.moe_latent_size", "must not be negative; a latent needs routed experts, without "
                                                  "expert biases (moeplan counts none on the latent projections)"};
  }
  // A latent is a narrower width the experts work at (NemotronHMoE's fc1_latent_proj projects
  // hidden_size down to it, fc2_latent_proj back): one as wide as hidden_size or wider is no
  // latent MoE (0 is none: experts at hidden_size).
  if (m.moe_latent_size > 0 && m.moe_latent_size >= m.hidden_size) {
    return ConfigProblem{"model.moe_latent_size", fmt::format("is {}: a latent must be narrower than hidden_size ({}); "
                                                              "no latent is 0 in a model TOML, null in config.json",
                                                              m.moe_latent_size, m.hidden_size)};
  }
  return std::nullopt;
}

// How positions enter (and the numbers a launch states with them): the learned table's rows,
// RoPE's base, the part of each head it rotates, the layers without it; the norms' epsilon.
std::optional<ConfigProblem> positions_problem(const ModelConfig& m) {
  const auto need = [](bool ok, const char* key, const char* why) {
    return ok ? std::optional<ConfigProblem>() : ConfigProblem{key, why};
  };
  for (const std::optional<ConfigProblem>& p :
       {need(m.position_embedding != PositionEmbedding::learned_absolute || m.max_position_embeddings > 0,
             "model.max_position_embeddings", "is required with learned_absolute positions (the table's rows)"),
        need(!m.rope_theta || (*m.rope_theta > 0 && *m.rope_theta < 1e12), "model.rope_theta",
             "must be a positive number below 1e12 (RoPE's base)"),
        need(!m.rope_theta || m.position_embedding == PositionEmbedding::rope, "model.rope_theta",
             "applies to RoPE positions only"),
        need(!m.norm_eps || (*m.norm_eps > 0 && *m.norm_eps < 1), "model.norm_eps",
             "must be a positive number below 1 (the norms' epsilon)"),
        need(m.partial_rotary_factor > 0 && m.partial_rotary_factor <= 1, "model.partial_rotary_factor",
             "must be a fraction in (0, 1] (of each head's dimensions RoPE rotates)"),
        need(m.partial_rotary_factor == 1 || m.position_embedding == PositionEmbedding::rope, "model.partial_rotary_factor",
             "applies to RoPE positions only"),
        need(std::all_of(m.no_rope_layers.begin(), m.no_rope_layers.end(),
                         [&m](int i) { return i >= 0 && i < m.num_hidden_layers; }),
             "model.no_rope_layers", "must list layers in [0, num_hidden_layers)")}) {
    if (p) return p;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// Which keys a layer's attention may reach (a window, chunks, a shared indexer's top-k), each on
// an attention layer only.
std::optional<ConfigProblem> attention_span_problem(const ModelConfig& m, const LayerSpec& l) {
  if (l.window < 0 || (l.window > 0 && l.mixer != MixerKind::attention)) {
    return ConfigProblem{"model.layer_windows", "a sliding window needs an attention layer"};
  }
  if (l.chunk < 0 || (l.chunk > 0 && l.mixer != MixerKind::attention)) {
    return ConfigProblem{"model.layer_chunks", "chunked attention needs an attention layer"};
  }
  if (l.chunk > 0 && l.window > 0) {
    return ConfigProblem{"model.layer_chunks", "a layer attends in a sliding window or in chunks, not both"};
  }
  if (l.indexer_shared && (l.indexed || !m.indexer || m.indexer->kind != AttentionIndexer::Kind::dsa ||
                           l.mixer != MixerKind::attention)) {
    return ConfigProblem{"model.layer_indexer_shared", "a layer that reuses an earlier indexer's top-k needs a "
                                                       "DSA indexer, attention, and no indexer of its own"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ConfigProblem> ModelConfig::problem() const {
  const auto need = [](bool ok, const char* key, const char* why) {
    return ok ? std::optional<ConfigProblem>() : ConfigProblem{key, why};
  };
  for (const std::optional<ConfigProblem>& p :
       {need(hidden_size > 0, "model.hidden_size", "must be positive"),
        need(num_hidden_layers > 0, "model.num_hidden_layers", "must be positive"),
        need(num_attention_heads > 0, "model.num_attention_heads", "must be positive"),
        need(num_key_value_heads > 0 && num_key_value_heads <= num_attention_heads &&
                 num_attention_heads % num_key_value_heads == 0,
             "model.num_key_value_heads", "must divide num_attention_heads (each kv head serves a group of query heads)"),
        need(head_size() > 0, "model.head_dim", "must be positive"),
        need(first_k_dense_replace >= 0 && first_k_dense_replace <= num_hidden_layers,
             "model.first_k_dense_replace", "must be in [0, num_hidden_layers]"),
        need(!layers.empty() || dense_layers() == 0 || intermediate_size > 0, "model.intermediate_size",
             "is required when the model has dense layers"),
        need(!is_moe() || moe_intermediate_size > 0, "model.moe_intermediate_size",
             "is required for an MoE model"),
        need(!is_moe() || (num_experts_per_tok >= 1 && num_experts_per_tok <= n_routed_experts),
             "model.num_experts_per_tok", "must be in [1, n_routed_experts]"),
        need(!is_moe() || moe_layers() >= 1, "model.first_k_dense_replace",
             "leaves no MoE layer"),
        need(n_shared_experts >= 0, "model.n_shared_experts", "must not be negative"),
        need(extras.num_nextn_predict_layers >= 0, "model.num_nextn_predict_layers", "must not be negative"),
        need(moe_layer_interval >= 1 && moe_layer_interval <= num_hidden_layers,
             "model.moe_layer_interval", "must be in [1, num_hidden_layers]")}) {
    if (p) return p;
  }
  if (auto p = positions_problem(*this)) return p;
  if (latent_attention) {
    const LatentAttention& a = *latent_attention;
    if (a.kv_lora_rank <= 0 || a.qk_nope_head_dim < 0 || a.qk_rope_head_dim < 0 ||
        a.v_head_dim <= 0 || a.qk_nope_head_dim + a.qk_rope_head_dim <= 0 || a.q_lora_rank < 0) {
      return ConfigProblem{"model.kv_lora_rank",
                           "latent attention needs kv_lora_rank, qk_nope_head_dim, "
                           "qk_rope_head_dim and v_head_dim (all positive)"};
    }
  }
  if (!layers.empty()) {
    if (static_cast<int>(layers.size()) != num_hidden_layers) {
      return ConfigProblem{"model.layer_mixers", "must list num_hidden_layers layers"};
    }
    bool kv_before = false;       // an earlier attention layer with its own K and V
    bool indexer_before = false;  // an earlier attention layer with its own indexer
    for (const LayerSpec& l : layers) {
      if (l.indexer_shared && !indexer_before) {
        return ConfigProblem{"model.layer_indexer_shared", "a layer reuses an earlier indexer's top-k, but no earlier "
                                                           "layer has an indexer (layer_indexed)"};
      }
      indexer_before |= l.mixer == MixerKind::attention && l.indexed && indexer.has_value();
      if (!l.own_kv && (l.mixer != MixerKind::attention || !kv_before)) {
        return ConfigProblem{"model.layer_own_kv", "a layer that reuses K and V needs attention and an earlier "
                                                   "attention layer with K and V of its own"};
      }
      kv_before |= l.mixer == MixerKind::attention && l.own_kv;
      if (auto p = attention_span_problem(*this, l)) return p;
      if (l.mixer == MixerKind::linear &&
          (l.linear_mixer < 0 || l.linear_mixer >= static_cast<int>(linear_mixers.size()))) {
        return ConfigProblem{"model.linear_mixers", "a layer names a linear mixer that is not described"};
      }
      if ((l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense) && !is_moe()) {
        return ConfigProblem{"model.layer_ffns", "an MoE layer in a model without experts"};
      }
      if ((l.ffn == FfnKind::dense || l.ffn == FfnKind::moe_and_dense) && l.dense_width <= 0 &&
          intermediate_size <= 0) {
        return ConfigProblem{"model.intermediate_size", "is required when the model has dense FFNs"};
      }
      if (l.kv_heads < 0 || (l.kv_heads > 0 && (l.kv_heads > num_attention_heads ||
                                                num_attention_heads % l.kv_heads != 0))) {
        return ConfigProblem{"model.layer_kv_heads", "must divide num_attention_heads"};
      }
      if (l.head_dim < 0 || (l.head_dim > 0 && (l.mixer != MixerKind::attention || latent_attention))) {
        return ConfigProblem{"model.layer_head_dims", "a head size of a layer's own needs a (GQA) attention layer"};
      }
      if (l.q_heads < 0 || (l.q_heads > 0 && (l.mixer != MixerKind::attention || latent_attention))) {
        return ConfigProblem{"model.layer_q_heads", "query heads of a layer's own need a (GQA) attention layer"};
      }
      if (auto p = value_heads_and_sinks_problem(*this, l)) return p;
      if (l.k_eq_v && (l.mixer != MixerKind::attention || !l.own_kv || latent_attention)) {
        return ConfigProblem{"model.layer_k_eq_v", "keys that are the values need a (GQA) attention layer with K "
                                                   "and V of its own"};
      }
    }
  }
  if (router) {  // the keys are the [router] table's (docs/model-schema.md, "Router")
    const RouterSpec& r = *router;
    if (!is_moe()) return ConfigProblem{"router", "describes a router, but the model has no experts"};
    if (r.num_groups < 1 || n_routed_experts % r.num_groups != 0) {
      return ConfigProblem{"router.num_groups", fmt::format("must be positive and divide n_routed_experts: {} "
                                                            "groups of {} experts", r.num_groups, n_routed_experts)};
    }
    if (r.group_topk < 1 || r.group_topk > r.num_groups) {
      return ConfigProblem{"router.group_topk", fmt::format("must be in [1, num_groups = {}], got {}", r.num_groups,
                                                            r.group_topk)};
    }
    // Group-limited routing takes the K experts from group_topk groups, each group scored by
    // its best K / group_topk experts (DeepSeek-V3 Sec. 2.1.2; Megatron-LM group_limited_topk):
    // the chosen groups must hold K experts, and K / group_topk must be at least 1.
    if (r.num_groups > 1 && (r.group_topk > num_experts_per_tok ||
                             double(r.group_topk) * (n_routed_experts / r.num_groups) < num_experts_per_tok)) {
      return ConfigProblem{"router.group_topk",
                           fmt::format("{} of {} groups of {} experts: must be at most K = {} and hold K experts",
                                       r.group_topk, r.num_groups, n_routed_experts / r.num_groups,
                                       num_experts_per_tok)};
    }
    if (r.score == RouterSpec::Score::sigmoid && !r.norm_topk_prob && num_experts_per_tok > 1) {
      return ConfigProblem{"router.norm_topk_prob", "false with sigmoid scores and K > 1: Megatron-LM always "
                                                    "normalises sigmoid gates over the K chosen"};
    }
    if (r.expert_bias && r.score == RouterSpec::Score::softmax) {
      return ConfigProblem{"router.expert_bias", "needs score_function \"sigmoid\" (bias-corrected top-K, DeepSeek-V3 "
                                                 "Sec. 2.1.2; Megatron-LM refuses it with softmax)"};
    }
    if (!(r.topk_scaling_factor > 0 && r.topk_scaling_factor < 1e6)) {
      return ConfigProblem{"router.topk_scaling_factor", "must be positive and below 1e6"};
    }
    if (!(r.balance_loss_coeff >= 0 && r.balance_loss_coeff < 1e6)) {
      return ConfigProblem{"router.balance_loss_coeff", "must be in [0, 1e6)"};
    }
  }
  for (const LinearMixer& x : linear_mixers) {
    if (!(x.matrix_params >= 0 && x.other_params >= 0 && x.state_flops >= 0) || x.kind.empty()) {
      return ConfigProblem{"model.linear_mixers", "needs a kind and non-negative counts"};
    }
  }
  if (zero_experts < 0) return ConfigProblem{"model.zero_experts", "must not be negative"};
  if (auto p = latent_moe_problem(*this)) return p;
  if (gqa_q_lora_rank < 0 || (gqa_q_lora_rank > 0 && (latent_attention || gated_attention))) {
    return ConfigProblem{"model.gqa_q_lora_rank", "must not be negative; a low-rank GQA query goes with neither "
                                                  "latent attention (its own q_lora_rank) nor gated_attention "
                                                  "(whose gate is part of a full-rank q_proj)"};
  }
  if (auto p = attention_extras_problem(*this)) return p;
  if (const auto p = compressed_attention_problem(*this)) return p;
  if (hash_routed_layers < 0 || hash_routed_layers > moe_layers()) {
    return ConfigProblem{"model.hash_routed_layers", "must be in [0, the MoE layers]"};
  }
  if (training) {
    if (training->tokens.has_value() == training->compute.has_value()) {
      return ConfigProblem{"training", "give exactly one of tokens and compute"};
    }
    if (training->seq_len <= 0) return ConfigProblem{"training.seq_len", "must be positive"};
  }
  return std::nullopt;
}

namespace {

// DeepSeek-V4's attention matrices of one layer (CompressedAttention; modeling_deepseek_v4.py):
// q_a_proj, q_b_proj, kv_proj, o_a_proj (o_groups blocks of N_q·h/g x o_lora_rank), o_b_proj;
// a compressor's kv_proj and gate_proj (2h wide for CSA's overlapping windows, h for HCA); CSA's
// indexer: its compressor's kv_proj and gate_proj (2·h_I wide), q_b_proj and weights_proj.
double compressed_attention_params(const ModelConfig& m, const LayerSpec& layer) {
  const CompressedAttention& a = *m.compressed_attention;
  const double d = m.hidden_size, nq = m.num_attention_heads, h = m.head_size(), r = a.q_lora_rank;
  double p = d * r + r * nq * h + d * h + nq * h * a.o_lora_rank + double(a.o_groups) * a.o_lora_rank * d;
  if (layer.compress_rate > 0 && layer.compress_rate == a.csa_rate) {
    const double ih = a.index_head_dim, in = a.index_n_heads;
    p += 2.0 * d * 2.0 * h + 2.0 * d * 2.0 * ih + r * in * ih + d * in;
  } else if (layer.compress_rate > 0) {
    p += 2.0 * d * h;
  }
  return p;
}

// What DeepSeek-V4's attention builds beside N in one layer: q_a_norm, kv_norm and each
// compressor's kv_norm (norms); the compressors' position_bias (biases); the sinks and the
// layer's two hyper-connections (gates).
struct CompressedBeside {
  double norms = 0, biases = 0, gates = 0;
};
CompressedBeside compressed_attention_beside(const ModelConfig& m, const LayerSpec& layer) {
  const CompressedAttention& a = *m.compressed_attention;
  const double h = m.head_size(), rate = layer.compress_rate, n = a.hc_mult;
  CompressedBeside b;
  b.norms = a.q_lora_rank + h;
  if (layer.compress_rate > 0 && layer.compress_rate == a.csa_rate) {
    const double ih = a.index_head_dim;
    b.norms += h + ih;
    b.biases = rate * 2.0 * h + rate * 2.0 * ih;
  } else if (layer.compress_rate > 0) {
    b.norms += h;
    b.biases = rate * h;
  }
  const double hyper = (2.0 + n) * n * n * m.hidden_size + (2.0 + n) * n + 3.0;  // fn, base, scale
  b.gates = m.num_attention_heads + 2.0 * hyper;
  return b;
}

}  // namespace

double attention_params_of(const ModelConfig& m, const LayerSpec& layer) {
  const double d = m.hidden_size;
  const double h = q_heads_of(m, layer);
  if (m.compressed_attention) return compressed_attention_params(m, layer);
  double indexer = 0;
  if (m.indexer && m.latent_attention && layer.indexed) {  // wq_b, wk, weights_proj (DeepSeek-V3.2 model.py, Indexer)
    const AttentionIndexer& x = *m.indexer;
    indexer = double(m.latent_attention->q_lora_rank) * x.n_heads * x.head_dim + d * x.head_dim + d * x.n_heads;
  }
  if (m.indexer && m.indexer->kind == AttentionIndexer::Kind::msa && layer.indexed) {
    // MiniMaxM3VLIndexer: q_proj d -> n_heads x head_dim, k_proj d -> head_dim (no bias)
    indexer = d * m.indexer->n_heads * m.indexer->head_dim + d * m.indexer->head_dim;
  }
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    const double q = a.q_lora_rank > 0 ? d * a.q_lora_rank + a.q_lora_rank * h * qk : d * h * qk;
    const double kv = d * (a.kv_lora_rank + a.qk_rope_head_dim) +
                      a.kv_lora_rank * h * (a.qk_nope_head_dim + a.v_head_dim);
    return q + kv + h * a.v_head_dim * d + indexer;  // + output projection
  }
  // GQA: Q and O d × (N_q·d_head), K and V d × (N_kv·d_head) — paper 002 Eq. 6. A layer
  // that reuses an earlier layer's K and V builds Q and O only; a gated attention's q_proj
  // writes N_q·d_head more outputs (the gate).
  // A low-rank query (Step3's MFA) replaces Q's d·N_q·d_head by d·r + r·N_q·d_head. A layer
  // of its own head size sizes all four by it; one whose keys are the values (Gemma 4's
  // attention_k_eq_v: Gemma4TextAttention builds v_proj = None) has no V.
  // A layer whose value heads differ from its key heads (MiMo-V2-Flash: v_head_dim) sizes V
  // (d x N_kv·v) and O (N_q·v x d) by them: (v - h)·d·(N_q + N_kv) more than Eq. 6's square heads.
  const int kv = kv_heads_of(m, layer);
  const int head = head_size_of(m, layer);
  const double hd = head;
  // Step-3.5's head-wise gate: g_proj d -> N_q, one scalar per head (vLLM Step3p5Attention).
  const double gate = (m.gated_attention ? d * h * hd : 0.0) + (m.head_wise_attn_gate ? d * h : 0.0);
  const double dv = v_head_size_of(m, layer) - hd;
  const double r = m.gqa_q_lora_rank;
  const double low_rank_q = r > 0 ? d * r + r * h * hd - d * h * hd : 0.0;
  if (!layer.own_kv) return 2.0 * d * h * hd + d * h * dv + low_rank_q + gate + indexer;
  const double no_v = layer.k_eq_v ? d * kv * hd : 0.0;
  return attention_params_per_layer(AttentionHeads{q_heads_of(m, layer), kv, head}, d) - no_v + d * dv * (h + kv) +
         low_rank_q + gate + indexer;
}

double attention_params_per_layer(const ModelConfig& m) { return attention_params_of(m, LayerSpec{}); }

Params embedding_params(const ModelConfig& m) {
  // Learned absolute positions (GPT-2's and gpt_bigcode's wpe): a table of
  // max_position_embeddings x d beside the token embedding, never tied to the head.
  const double positions = m.position_embedding == PositionEmbedding::learned_absolute
                               ? double(m.max_position_embeddings) * m.hidden_size
                               : 0.0;
  return Params(double(m.vocab_size) * m.hidden_size * (m.tie_word_embeddings ? 1.0 : 2.0) + positions);
}

LayerParams layer_params(const ModelConfig& m, const LayerSpec& l) {
  const double d = m.hidden_size;
  const double ffn = m.ffn_gated ? 3.0 : 2.0;  // gate, up, down (SwiGLU) or up, down
  LayerParams p;
  if (l.mixer == MixerKind::attention) p.attention = attention_params_of(m, l);
  if (l.mixer == MixerKind::linear) p.linear_mixer = m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer)).matrix_params;
  if (l.ffn == FfnKind::dense || l.ffn == FfnKind::moe_and_dense) {
    p.dense_ffn = ffn * d * (l.dense_width > 0 ? l.dense_width : m.intermediate_size);  // Eq. 8
  }
  if (m.is_moe() && (l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense)) {
    // Eq. 9, one expert; a latent MoE's experts read and write the latent (NemotronHExperts:
    // up_proj E x width x l, down_proj E x l x width), its two projections d x l every token uses.
    const double expert = ffn * m.expert_io_width() * m.moe_intermediate_size;
    p.routed_total = expert * m.n_routed_experts;
    p.routed_active = expert * m.num_experts_per_tok;
    p.shared = ffn * d * m.shared_width() * m.n_shared_experts;
    p.latent_proj = 2.0 * d * m.moe_latent_size;  // fc1_latent_proj, fc2_latent_proj (no bias)
  }
  return p;
}

LayerSpec uniform_layer(const ModelConfig& m, int i) {
  LayerSpec l;
  l.ffn = is_uniform_moe_layer(m, i) ? FfnKind::moe : FfnKind::dense;
  return l;
}

ParameterCounts count_parameters(const ModelConfig& m) {
  work::tally(work::Step::parameter_count);
  ParameterCounts p;
  if (m.layers.empty()) {  // L alike layers: one of each kind, times its count
    const LayerParams dense = layer_params(m, FfnKind::dense);
    const LayerParams moe = layer_params(m, FfnKind::moe);
    p.attention = Params(dense.attention * m.num_hidden_layers);
    p.dense_ffn = Params(dense.dense_ffn * m.dense_layers());
    if (m.is_moe()) {
      p.routed_total = Params(moe.routed_total * m.moe_layers());
      p.routed_active = Params(moe.routed_active * m.moe_layers());
      p.shared = Params(moe.shared * m.moe_layers());
      p.latent_projections = Params(moe.latent_proj * m.moe_layers());
    }
  } else {
    double attention = 0, mixers = 0, dense = 0, routed = 0, active = 0, shared = 0, latent = 0;
    for (const LayerSpec& spec : m.layers) {
      const LayerParams l = layer_params(m, spec);
      attention += l.attention;
      mixers += l.linear_mixer;
      dense += l.dense_ffn;
      routed += l.routed_total;
      active += l.routed_active;
      shared += l.shared;
      latent += l.latent_proj;
    }
    p.attention = Params(attention);
    p.linear_mixers = Params(mixers);
    p.dense_ffn = Params(dense);
    p.routed_total = Params(routed);
    p.routed_active = Params(active);
    p.shared = Params(shared);
    p.latent_projections = Params(latent);
  }
  p.embedding = embedding_params(m);
  p.N = p.attention + p.linear_mixers + p.dense_ffn + p.routed_total + p.shared + p.latent_projections;
  p.N_a = p.attention + p.linear_mixers + p.dense_ffn + p.routed_active + p.shared + p.latent_projections;
  return p;
}

std::optional<std::string> position_table_problem(const ModelConfig& m, std::int64_t seq_len) {
  if (m.position_embedding != PositionEmbedding::learned_absolute || seq_len <= m.max_position_embeddings) {
    return std::nullopt;
  }
  return fmt::format("is longer than the learned position table's {} rows (max_position_embeddings): positions "
                     "past it have no embedding",
                     m.max_position_embeddings);
}

std::optional<std::string> non_uniform_layers(const ModelConfig& m) {
  // Sliding windows change attention FLOPs, not the weights or the layout: a model whose
  // layers differ only in them is laid out as its uniform self.
  ModelConfig full = m;
  for (LayerSpec& l : full.layers) {
    l.window = 0;
    l.chunk = 0;  // the same for chunked attention
  }
  // Ungated FFNs (GELU, squared ReLU: up and down only) are laid out, timed and exported as
  // Megatron runs them (issue 51): not a reason to refuse here.
  full.ffn_gated = true;
  // Positions build no layer weight and change no GEMM: ALiBi's per-head score bias and NoPE
  // layers cost what RoPE costs in this model, a learned table is counted with the embedding
  // (memory_model.cpp puts it on the first stage); the exports judge them themselves.
  full.position_embedding = PositionEmbedding::rope;
  full.no_rope_layers.clear();
  // Gated attention's gate is a projection counted with the attention weights (the step model's
  // QKV GEMM is as wide as they are) and Megatron-Core builds it (--attention-output-gate, beside
  // q in linear_qkv); its elementwise work and kept activations are counted (step_terms.cpp,
  // memory_model.cpp). Megatron's MLA has none (MLATransformerConfig raises): refused there, by name.
  const bool mla_gate = full.latent_attention && full.gated_attention;
  full.gated_attention = false;
  if (!full.layers.empty()) {
    ModelConfig uniform = full;
    uniform.layers.clear();
    // Leading dense layers, MoE after them, are the uniform layout whatever first_k_dense_replace
    // says: a TOML's layer_ffns lists them layer by layer and leaves that key out (a review found
    // K-EXAONE's --emit toml refused on a cluster where its config.json was laid out).
    if (uniform.moe_layer_interval == 1) {
      std::size_t lead = 0;
      while (lead < full.layers.size() && full.layers[lead].ffn == FfnKind::dense) ++lead;
      uniform.first_k_dense_replace = static_cast<int>(lead);
    }
    if (uniform.layer_specs() == full.layers) full.layers.clear();
  }
  std::vector<std::string> what = full.outside_law_architecture();
  if (what.empty() && !full.layers.empty()) what.emplace_back("a per-layer pattern of dense and MoE FFNs");
  if (mla_gate) {
    what.emplace_back("an attention output gate with MLA (Megatron-Core's MLATransformerConfig raises "
                      "NotImplementedError: \"Output gate is not supported for MLA yet\")");
  }
  // Their attention is full-rank GQA or MLA: a low-rank GQA query (Step3) is refused too.
  if (m.gqa_q_lora_rank > 0) what.emplace_back("a low-rank query (gqa_q_lora_rank " + std::to_string(m.gqa_q_lora_rank) + ")");
  // The step and memory models build each MTP module as one of the model's MoE layers.
  if (!m.extras.mtp_layers.empty()) what.emplace_back("MTP modules with layers of their own (not the model's MoE layer)");
  if (what.empty()) return std::nullopt;
  std::string out = "its layers are not uniform (" + what.front();
  for (std::size_t i = 1; i < what.size(); ++i) out += "; " + what[i];
  return out + "): the cluster, GEMM and Megatron models count alike softmax-attention layers, "
               "so moeplan refuses rather than miscount";
}

ModelConfig model_config_of(const MoeArchitecture& a) {
  const ArchitectureFamily& f = a.family;
  ModelConfig m;
  m.name = "suggested";
  m.hidden_size = a.d;
  m.num_hidden_layers = a.layers();
  m.first_k_dense_replace = a.L_d;
  m.intermediate_size = a.d_d;
  m.moe_intermediate_size = a.d_m;
  m.n_routed_experts = f.n_experts;
  m.num_experts_per_tok = f.top_k;
  m.n_shared_experts = f.n_shared_experts;
  m.num_attention_heads = f.heads.n_q;
  m.num_key_value_heads = f.heads.n_kv;
  m.head_dim = f.heads.d_qkv;
  m.vocab_size = f.vocab_size;
  return m;
}

Accounting account_of(const ModelConfig& m, const ParameterCounts& p, int seq_len) {
  // M has one formula, paper 002's (flops_conventions.cpp, holistic_002: Eq. 12 summed layer
  // by layer), for a plan as for a scored config or the cluster's step; for paper 002's own
  // family (uniform softmax GQA) it is 6·N_a + 6·S·N_q·d_qkv·L to the last bit (every term
  // is a whole number below 2^53).
  const FlopsBreakdown f = flops_per_token(m, p, FlopsConvention::holistic_002, seq_len);
  Accounting acc;
  acc.N_a = p.N_a;                                                            // Eq. 10
  acc.N = p.N;                                                                // Eq. 3
  acc.M = f.M();                                                              // Eq. 12
  acc.M_attention_scores = acc.M - FlopsPerToken(6.0 * acc.N_a.value());     // Eq. 11
  acc.embedding = p.embedding;
  // Eq. 4: shares of M. Attention owns its projections (6·params) and the score FLOPs.
  const double M = acc.M.value();
  acc.r_a = f.attention / M;
  acc.r_d = f.dense_ffn / M;
  acc.r_m = f.experts / M;
  return acc;
}

BesideN count_beside_n(const ModelConfig& m) {
  const BuiltExtras& x = m.extras;
  const double d = m.hidden_size;
  const double E = m.n_routed_experts;
  const double norm = x.norm_bias ? 2.0 * d : d;  // one RMSNorm (or LayerNorm with bias) of d
  const double one_expert_bias = x.expert_bias ? 2.0 * m.moe_intermediate_size + d : 0.0;
  double routers = 0, norms = norm, biases = x.lm_head_bias ? double(m.vocab_size) : 0.0;
  double gates = 0, mixer_other = 0, moe_layers = 0;
  for (const auto& [l, count] : m.layer_census()) {
    const double n = count;
    // Each block a layer has (its mixer, its FFN) is preceded by one norm of d: 2 per layer
    // in a standard decoder, 1 in Nemotron-H's single-block layers.
    norms += n * ((l.mixer != MixerKind::none ? norm : 0.0) + (l.ffn != FfnKind::none ? norm : 0.0));
    if (l.ffn == FfnKind::moe_and_dense && x.residual_ffn_norm) norms += n * norm;  // Arctic's residual_layernorm
    if (m.is_moe() && (l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense)) {
      norms += n * x.moe_block_norms * norm;  // Gemma 4's MoE block: 3 of d
    }
    if (x.post_block_norms) {  // Gemma 2/3: a norm after each block as well as before it
      norms += n * ((l.mixer != MixerKind::none ? norm : 0.0) + (l.ffn != FfnKind::none ? norm : 0.0));
    }
    if (l.mixer == MixerKind::attention && m.compressed_attention) {
      const CompressedBeside c = compressed_attention_beside(m, l);
      norms += n * c.norms;
      biases += n * c.biases;
      gates += n * c.gates;
    } else if (l.mixer == MixerKind::attention) {
      const double nq = q_heads_of(m, l);
      const double nkv = kv_heads_of(m, l);
      const double hd = head_size_of(m, l);
      const double kv_tensors = l.own_kv ? (l.k_eq_v ? 1.0 : 2.0) : 0.0;  // k and v projections built
      double qk = 0;
      if (m.latent_attention) {  // MLA normalises the compressed q and kv (DeepSeek-V2/V3)
        qk = m.latent_attention->q_lora_rank + m.latent_attention->kv_lora_rank;
      } else if (x.qk_norm == QkNorm::per_head) {
        qk = 2.0 * hd;
      } else if (x.qk_norm == QkNorm::full_width) {
        qk = (nq + (l.own_kv ? nkv : 0.0)) * hd;
      }
      if (!m.latent_attention) qk += m.gqa_q_lora_rank;  // a low-rank query's norm (Step3's inter_norm)
      // DSA's k_norm: LayerNorm, weight and bias; MSA's q_norm and k_norm of head_dim: the same 2h.
      if (m.indexer && l.indexed) qk += 2.0 * m.indexer->head_dim;
      norms += n * qk;
      // q, k, v biases: v's of the layer's value heads (MiMo-V2-Flash's v_head_dim) where it has a v_proj.
      const double v_bias = l.own_kv && !l.k_eq_v ? nkv * (v_head_size_of(m, l) - hd) : 0.0;
      biases += n * ((x.qkv_bias ? (nq + kv_tensors * nkv) * hd + v_bias : 0.0) + (x.output_bias ? d : 0.0));
      gates += n * (x.attention_sinks || l.attention_sinks ? nq : 0.0);
    } else if (l.mixer == MixerKind::linear) {
      mixer_other += n * m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer)).other_params;
    }
    if (x.ffn_bias && l.ffn == FfnKind::dense) {  // up (and gate) outputs, then the down output
      const double w = l.dense_width > 0 ? l.dense_width : m.intermediate_size;
      biases += n * ((m.ffn_gated ? 2.0 : 1.0) * w + d);
    }
    if (m.is_moe() && (l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense)) {
      moe_layers += n;
      // The router scores the zero-width experts too (LongCat-Flash).
      routers += n * (E + m.zero_experts) * (d + (x.router_bias ? 1.0 : 0.0));
      routers += n * (x.router_scales ? d + E : 0.0);  // Gemma4TextRouter.scale, .per_expert_scale
      biases += n * E * one_expert_bias;
      gates += n * (x.shared_expert_gate ? d : 0.0);
    }
  }
  if (m.compressed_attention) {  // hc_head: fn of n x n·d, base of n, scale of 1
    const double hc = m.compressed_attention->hc_mult;
    gates += hc * hc * d + hc + 1.0;
  }
  BesideN b;
  b.routers = Params(routers);
  b.norms = Params(norms);
  b.biases = Params(biases);
  b.gates_and_sinks = Params(gates);
  b.mixer_other = Params(mixer_other);
  b.total = b.routers + b.norms + b.biases + b.gates_and_sinks + b.mixer_other;
  b.active = b.total - Params(moe_layers * (E - m.num_experts_per_tok) * one_expert_bias);
  return b;
}

int mtp_modules(const ModelConfig& m) { return std::max(0, m.extras.num_nextn_predict_layers); }

MtpCounts count_mtp(const ModelConfig& m) {
  const int modules = mtp_modules(m);
  if (modules == 0) return {};
  // The decoder layer of a module is built like the main model's MoE layers (DeepSeek-V3's
  // layer 61 and GLM-4.5's layer 92 are MoE layers) unless the model lists the modules' own
  // (extras.mtp_layers: Step-3.5-Flash's dense layers 45-47 of its attention pattern): a
  // one-layer model of that kind counts it, and count_beside_n's final norm of that one-layer
  // model is the module's final norm (shared_head.norm).
  const double d = m.hidden_size;
  const double fusion = 2.0 * d + 2.0 * d * d;  // enorm + hnorm, eh_proj (2d -> d, no bias)
  const auto one = [&m, fusion](const LayerSpec* own) {
    ModelConfig layer = m;
    layer.num_hidden_layers = 1;
    layer.first_k_dense_replace = m.is_moe() ? 0 : 1;
    layer.moe_layer_interval = 1;
    layer.layers.clear();  // softmax attention and the MoE FFN, as DeepSeek's layer 61
    if (own != nullptr) layer.layers = {*own};
    layer.extras.num_nextn_predict_layers = 0;
    layer.extras.mtp_layers.clear();
    return count_parameters(layer).N.value() + count_beside_n(layer).total.value() + fusion;
  };
  // Stored with each module: the embedding and the head (DeepSeek-V3), the head alone
  // (Step-3.5-Flash's shared_head.head), or nothing (the main model's are used).
  const double copies = m.extras.mtp_embedding_copies ? embedding_params(m).value()
                        : m.extras.mtp_head_copies    ? double(m.vocab_size) * m.hidden_size
                                                      : 0.0;
  double all = 0;
  if (m.compressed_attention) {
    // DeepSeek-V4 (inference model.py, MTPBlock): block i is the model's Block of layer L + i
    // (its compress rate, a scored MoE), plus e_proj and h_proj (d x d each: eh_proj's 2d²),
    // enorm, hnorm, its own norm and hc_head (count_beside_n of the one-layer model counts the
    // last two as that model's final norm and hc_head).
    const std::vector<int>& rates = m.compressed_attention->mtp_compress_rates;
    for (int i = 0; i < modules; ++i) {
      LayerSpec spec;
      spec.compress_rate = i < static_cast<int>(rates.size()) ? rates[static_cast<std::size_t>(i)] : 0;
      spec.window = m.compressed_attention->sliding_window;
      all += one(&spec);
    }
  } else if (m.extras.mtp_layers.empty()) {
    all = modules * one(nullptr);
  } else {
    for (const LayerSpec& l : m.extras.mtp_layers) all += one(&l);
  }
  return {Params(all), Params(modules * copies)};
}

}  // namespace moeplan
