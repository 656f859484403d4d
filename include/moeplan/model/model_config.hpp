#pragma once
/// A concrete model as people write it down: HuggingFace config.json field names for
/// MoE models (DeepSeek-V3 conventions) plus training fields. `moeplan score` reads these
/// from TOML (docs/model-schema.md); the candidates of `suggest` are converted to it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "moeplan/base/units.hpp"
#include "moeplan/model/architecture.hpp"
#include "moeplan/model/checkpoint_storage.hpp"
#include "moeplan/model/layer_pattern.hpp"

namespace moeplan {

/// Multi-head latent attention (DeepSeek-V2/V3, Kimi-K2).
struct LatentAttention {
  int q_lora_rank = 0;  ///< 0: full-rank query projection
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

/// DeepSeek-V4's attention (transformers models/deepseek_v4/modeling_deepseek_v4.py at commit
/// 01976081 of huggingface/transformers: DeepseekV4Attention and its compressors). Every layer:
/// a low-rank query (q_a_proj d x r, q_a_norm of r, q_b_proj r x N_q·h), one shared key/value
/// head (kv_proj d x h, kv_norm of h: K = V, MQA), a sink per query head, and a grouped output
/// projection (o_a_proj: o_groups blocks of N_q·h/g -> o_lora_rank, then o_b_proj g·o_lora_rank
/// x d); every query attends to the last sliding_window tokens. A layer of compress rate m
/// (LayerSpec::compress_rate) also attends to entries that a compressor pools from each m
/// tokens: kv_proj and gate_proj (d x 2h for the overlapping CSA windows, d x h for HCA), a
/// position_bias of m x 2h (m x h) and a kv_norm of h. CSA layers (csa_rate) add the lightning
/// indexer: its own compressor at index_head_dim (kv_proj, gate_proj d x 2·h_I, position_bias
/// m x 2·h_I, kv_norm of h_I), q_b_proj (r x n_I·h_I) and weights_proj (d x n_I); each query
/// keeps index_topk compressed entries. Matrices are in N; norms, sinks and position biases
/// beside it. Each layer's residual is hc_mult streams mixed by two hyper-connections (attn_hc,
/// ffn_hc: fn of (2+n)n x n·d, base of (2+n)n, scale of 3) and the model ends in hc_head (fn of
/// n x n·d, base of n, scale of 1): beside N, with the gates.
struct CompressedAttention {
  int q_lora_rank = 0;
  int o_groups = 0;
  int o_lora_rank = 0;
  int sliding_window = 0;
  int csa_rate = 4;    ///< compress_rates["compressed_sparse_attention"]
  int hca_rate = 128;  ///< compress_rates["heavily_compressed_attention"]
  int index_n_heads = 0;
  int index_head_dim = 0;
  int index_topk = 0;
  int hc_mult = 0;  ///< hyper-connection streams (mHC)
  /// The compress rate of each MTP module's layer (DeepSeek's inference model.py builds MTP
  /// block i as layer num_hidden_layers + i: compress_ratios[L + i]).
  std::vector<int> mtp_compress_rates;
  bool operator==(const CompressedAttention&) const = default;
};

struct TrainingSetup {
  std::optional<Tokens> tokens;         ///< D; with compute given instead, D = C/M (002)
  std::optional<Flops> compute;         ///< C
  /// S: [training] seq_len (required there); a setup moeplan makes takes the laws' family S
  /// (HolisticLaws::family_defaults, paper 002 Sec. 3.4). No value of its own.
  int seq_len = 0;
  std::optional<Tokens> unique_tokens;  ///< D̂ for data reuse (paper 003 Sec. 6)
};

/// What an architecture builds beside paper 002's N (routers, norms, biases, gates, sinks).
/// Paper 002 counts the projection matrices only (Eq. 3); these tensors are real weights of
/// the transformers classes, so moeplan reports them beside N instead of leaving them out
/// silently. Read from config.json by model_type (docs/model-schema.md, "Beside N").
enum class QkNorm {
  none,
  per_head,    ///< RMSNorm of head_dim on q and on k (Qwen3, GLM-4.5 use_qk_norm, dots1, Hunyuan)
  full_width,  ///< RMSNorm over all query heads and over all kv heads (OLMoE)
};

struct BuiltExtras {
  bool qkv_bias = false;            ///< q, k, v projection biases (Qwen2-MoE, GLM-4.5, gpt-oss)
  bool output_bias = false;         ///< attention output projection bias (gpt-oss)
  QkNorm qk_norm = QkNorm::none;
  bool shared_expert_gate = false;  ///< Qwen2-MoE: a sigmoid gate of d weights per MoE layer
  /// N_e per MoE layer beside the router weights: gpt-oss's router biases; ERNIE 4.5's
  /// moe_statics.e_score_correction_bias (an nn.Parameter, not a buffer)
  bool router_bias = false;
  bool expert_bias = false;         ///< gpt-oss: 2 d_m + d biases in every expert
  bool attention_sinks = false;     ///< gpt-oss: one learned logit per query head and layer
  bool norm_bias = false;           ///< LayerNorm with a bias (PhiMoE): 2 weights per channel
  bool lm_head_bias = false;        ///< the output head has V biases (PhiMoE)
  /// The dense FFN beside the experts (FfnKind::moe_and_dense) normalises its input with a
  /// norm of its own (Arctic's residual_layernorm): one more norm of d in each such layer.
  bool residual_ffn_norm = false;
  /// Norms of d that each layer with experts adds to its FFN block's own (Gemma 4's MoE block:
  /// post_feedforward_layernorm_1 after the dense MLP, pre_feedforward_layernorm_2 and
  /// post_feedforward_layernorm_2 around the experts: 3).
  int moe_block_norms = 0;
  /// The router scales its normalised input by a learned vector of d and the chosen experts'
  /// weights by a learned scale per expert (Gemma 4's Gemma4TextRouter.scale and
  /// .per_expert_scale): d + N_e more router weights per MoE layer.
  bool router_scales = false;
  /// A norm after each block too (Gemma 2's post_attention_layernorm and
  /// post_feedforward_layernorm beside input_layernorm and pre_feedforward_layernorm): one
  /// more norm of d per block, 4 a standard layer.
  bool post_block_norms = false;
  /// Biases on the dense FFN's projections (GPT-2/StarCoder's c_fc and c_proj, Granite's and
  /// Nemotron's mlp_bias): the up (and gate) outputs and the down output, w (2 w gated) + d per
  /// dense FFN. Experts' biases are expert_bias.
  bool ffn_bias = false;
  /// Multi-token-prediction modules after the last layer (config.json num_nextn_predict_layers:
  /// 1 in DeepSeek-V3/V3.1/R1 and GLM-4.5/-Air). Trained beside the main model and shipped in
  /// its checkpoint, they are outside N, N_a, M and the as-built totals (count_mtp).
  int num_nextn_predict_layers = 0;
  /// The checkpoint stores a copy of the embedding and output head with each MTP module
  /// (DeepSeek-V3, GLM-4.5: embed_tokens, shared_head.head); false: the modules use the main
  /// model's (Ling 2.0's BailingMoeV2MTPLayer), total_params_in_checkpoint adds no copies.
  bool mtp_embedding_copies = true;
  /// The checkpoint stores an output head (only) with each MTP module, no embedding copy
  /// (Step-3.5-Flash: vLLM's Step3p5MTP loads a shared_head.head per module and maps every
  /// embed_tokens to the one model.embed_tokens); read with mtp_embedding_copies false.
  bool mtp_head_copies = false;
  /// Each MTP module's decoder layer, where it is not the model's MoE layer (empty: DeepSeek-V3's
  /// module, a layer like the model's MoE layers). Step-3.5-Flash's modules are layers
  /// num_hidden_layers + i of its pattern: their attention kind by layer_types, their FFN dense
  /// (moe_layers_enum lists main layers only). One entry per module when set.
  std::vector<LayerSpec> mtp_layers;
  /// Why the checkpoint's MTP modules cannot be counted (MiMo-V2-Flash: model.mtp.* stored, no
  /// class builds them and no config states their number); non-empty: mtp_params and
  /// total_params_in_checkpoint are null with this reason, not 0 and the as-built total.
  std::string mtp_not_counted;
  /// Values of buffers the checkpoint stores beside its parameters (registered with
  /// register_buffer, so no parameter of the class, but saved in its safetensors): the router's
  /// e_score_correction_bias (DeepSeek-V3 and its copies: N_e + zero experts per MoE layer, the
  /// MTP modules' MoE layers included), Ling 2.0's and LFM2-MoE's expert_bias, DeepSeek-V4's
  /// tid2eid tables (V x K per hash-routed layer). Set by the config.json reader per family
  /// (src/io/hf/); added to total_params_in_checkpoint only: not in N, N_a, M or as built.
  std::int64_t checkpoint_buffer_values = 0;
  /// Why a multimodal checkpoint's vision (and audio) tower is not counted (config.json's
  /// vision_config, or a text_config family of a multimodal class); non-empty: vision_params
  /// is null with this reason and the totals are the text model's alone.
  std::string vision_not_counted;
  bool operator==(const BuiltExtras&) const = default;
};

/// How positions enter the model. RoPE (the default: paper 002's backbone) builds no weight;
/// ALiBi (BLOOM, MPT: a fixed per-head bias of the attention scores) builds none either;
/// learned absolute positions (GPT-2, StarCoder's gpt_bigcode: wpe) are a table of
/// max_position_embeddings x d added to the token embedding, counted in the embedding
/// parameters; none: no position signal at all.
enum class PositionEmbedding { rope, alibi, learned_absolute, none };
/// The [model] position_embedding names: "rope", "alibi", "learned_absolute", "none"
/// (Megatron-LM's --position-embedding-type names where it has them).
const char* position_embedding_name(PositionEmbedding p);

/// How the source trains its router: what a Megatron-LM launch must set to train the same
/// model (`--emit megatron`). Read from config.json where the file states it (docs/model-
/// schema.md, "Router"); absent, moeplan's own plans use paper 000's router (softmax top-K, a
/// balance loss of 0.01 and a z-loss of 0.001, Sec. 2). It changes no count and no law.
struct RouterSpec {
  /// sqrtsoftplus: sqrt(softplus(logit)), DeepSeek-V4's (DeepseekV4TopKRouter, scoring_func).
  enum class Score { softmax, sigmoid, sqrtsoftplus };
  enum class BalanceLoss { aux_loss, seq_aux_loss, none };
  Score score = Score::softmax;  ///< scoring_func / score_function
  /// Scores normalised over the K chosen (norm_topk_prob = true); false: the full softmax's
  /// probabilities of the K (Megatron's --moe-router-pre-softmax).
  bool norm_topk_prob = true;
  /// Aux-loss-free balancing by a per-expert bias added to the scores for the top-K choice only
  /// (DeepSeek-V3 Sec. 2.1.2; config.json topk_method "noaux_tc", moe_router_enable_expert_bias,
  /// use_routing_bias; Glm4MoeTopkRouter always).
  bool expert_bias = false;
  int num_groups = 1;   ///< n_group: experts in groups, a token's K taken from group_topk of them
  int group_topk = 1;   ///< topk_group
  double topk_scaling_factor = 1.0;  ///< routed_scaling_factor: the routed output's scale
  /// The gate scales the expert's input, not its output (Llama 4's Llama4TextMoe; Megatron-LM's
  /// --moe-apply-probs-on-input): with SwiGLU experts f(s x) is not s f(x).
  bool probs_on_input = false;
  /// Gating logit normalization (Skywork-MoE, arXiv:2406.06563; its config's moe_use_logits_norm
  /// and moe_gate_norm_std): the logits divided by their standard deviation over the experts,
  /// times this target, before the softmax; 0: none. Megatron-LM and the transformers classes
  /// moeplan writes have no such router: the exports refuse it by name.
  double logit_norm_std = 0;
  BalanceLoss balance_loss = BalanceLoss::aux_loss;
  double balance_loss_coeff = 0.01;  ///< alpha of the balance loss
  /// false: the source states no balance loss; balance_loss and its alpha are paper 000's.
  bool balance_loss_stated = true;
  bool operator==(const RouterSpec&) const = default;
};
/// The names the [router] table and Megatron-LM's flags give these: "softmax", "sigmoid"
/// ("sqrtsoftplus": config.json's name; no Megatron-LM flag value);
/// "aux_loss", "seq_aux_loss", "none".
const char* router_score_name(RouterSpec::Score s);
const char* balance_loss_name(RouterSpec::BalanceLoss b);

/// Officially stated sizes, to check the counting against.
struct StatedSizes {
  std::optional<Params> total;
  std::optional<Params> active;
  bool includes_embeddings = true;
};

/// What is wrong with a config: the dotted key (e.g. "model.num_experts_per_tok") and why.
struct ConfigProblem {
  std::string key;
  std::string reason;
};

struct ModelConfig {
  std::string name;
  std::string description;
  std::string source;  ///< where the numbers come from (config.json URL, paper table)

  int hidden_size = 0;
  int num_hidden_layers = 0;
  int first_k_dense_replace = 0;  ///< leading dense-FFN layers
  /// After the leading dense layers, every k-th layer is MoE and the others dense
  /// (Llama 4's interleave_moe_layer_step); 1: all of them are MoE.
  int moe_layer_interval = 1;
  int intermediate_size = 0;      ///< dense FFN width
  int moe_intermediate_size = 0;  ///< one routed expert's width
  /// Latent MoE (Nemotron 3 Super/Ultra, config.json moe_latent_size; transformers
  /// modular_nemotron_h.py NemotronHMoE @ 008d9e95): the router reads the token at hidden_size,
  /// fc1_latent_proj (d -> l) projects it to the latent, every routed expert reads and writes
  /// l (up l x width, down width x l), fc2_latent_proj (l -> d) projects the routed sum back;
  /// the shared experts work at d. 2·d·l projection weights per MoE layer, in N and N_a (every
  /// token uses them: LayerParams::latent_proj). 0: no latent, experts at hidden_size.
  int moe_latent_size = 0;
  int n_routed_experts = 0;       ///< 0: dense model
  int num_experts_per_tok = 0;    ///< K
  int n_shared_experts = 0;
  int shared_expert_intermediate_size = 0;  ///< one shared expert's width; 0: = moe width
  int num_attention_heads = 0;
  int num_key_value_heads = 0;
  int head_dim = 0;  ///< 0: hidden_size / num_attention_heads
  std::optional<LatentAttention> latent_attention;
  int vocab_size = 0;
  bool tie_word_embeddings = false;
  /// config.json's max_position_embeddings: the longest context the model was built for (the
  /// serving section warns past it); 0: not given.
  std::int64_t max_position_embeddings = 0;
  /// The keys of config.json (its text model's) from which vLLM and SGLang derive their default
  /// context (docs/serving.md "The context"): max_position_embeddings, n_positions, max_seq_len,
  /// seq_length, model_max_length, max_sequence_length, max_seq_length, seq_len, those present
  /// as positive integers, in that order; nullopt for moeplan's own configs (TOML, presets).
  /// Counts nothing.
  std::optional<std::vector<std::pair<std::string, std::int64_t>>> context_length_keys;
  /// config.json's rope_scaling as the engines read it for that context: its rope_type (or
  /// "type"), factor (1 when absent), original_max_position_embeddings (0 when absent).
  struct RopeScaling {
    std::string type;
    double factor = 1;
    std::int64_t original_max_position_embeddings = 0;
  };
  std::optional<RopeScaling> rope_scaling;
  PositionEmbedding position_embedding = PositionEmbedding::rope;
  /// The fraction of each head's dimensions RoPE rotates (config.json partial_rotary_factor,
  /// Megatron-LM's --rotary-percent; the rest pass unrotated): 1, all of them (Llama, DeepSeek);
  /// 0.5 in Nemotron-4 and GLM-4.5, 0.25 in Qwen3-Next. RoPE only; it builds no weight and
  /// changes no count, but a launch must state it to train the same model.
  double partial_rotary_factor = 1.0;
  /// Layers (0-based) whose attention applies no RoPE (SmolLM3's no_rope_layers entries of 0,
  /// every fourth layer): the weights and the KV cache are those of any attention layer; the
  /// exports must say which layers they are. Empty: RoPE in every layer.
  std::vector<int> no_rope_layers;
  std::optional<TrainingSetup> training;
  std::optional<StatedSizes> stated;
  /// The transformers model_type the config was read from ("" for moeplan's own configs);
  /// `--emit hf-config` writes the same class back when it can express the model.
  std::string hf_model_type;
  BuiltExtras extras;
  /// The source's router as its config states it; nullopt: not stated (paper 000's is assumed).
  std::optional<RouterSpec> router;
  /// How the checkpoint stores its weights (config.json quantization_config); nullopt: as the
  /// model's dtype (bf16). Serving only: it changes no count.
  std::optional<CheckpointStorage> checkpoint_storage;

  /// Every layer, for models whose layers differ (layer_pattern.hpp); empty: uniform, as
  /// first_k_dense_replace and moe_layer_interval say.
  std::vector<LayerSpec> layers;
  std::vector<LinearMixer> linear_mixers;  ///< the non-softmax mixers `layers` refers to
  std::optional<AttentionIndexer> indexer;  ///< DeepSeek-V3.2's DSA indexer, every attention layer
  /// DeepSeek-V4's attention in every layer (CompressedAttention; LayerSpec::compress_rate).
  std::optional<CompressedAttention> compressed_attention;
  /// The leading MoE layers whose router picks a token's experts from a fixed table of its
  /// token id (DeepSeek-V4's hash_moe layers: HashRouter.tid2eid, a vocab x K buffer); the
  /// router's weight still scores them. It changes no count.
  int hash_routed_layers = 0;
  /// Experts of zero width the router may pick (LongCat-Flash's zero-computation experts):
  /// the router scores n_routed_experts + zero_experts; a token sent to one costs nothing,
  /// so the routed experts a token uses range from 0 to K (N_a counts K: the upper bound).
  int zero_experts = 0;
  /// SwiGLU-style FFNs and experts (gate, up, down: 3·d·width); false: up and down only
  /// (Nemotron-H's squared ReLU: 2·d·width).
  bool ffn_gated = true;
  /// The activation of an ungated FFN, where the source names it (GPT-2/StarCoder's GELU,
  /// Nemotron's relu2); it changes no count, but Megatron-LM builds GELU unless told
  /// --squared-relu. unstated: the source does not say (moeplan's own configs, TOML without it).
  enum class Activation { unstated, gelu, squared_relu };
  Activation ffn_activation = Activation::unstated;
  /// LayerNorms whose weight is stored as w - 1 and applied as 1 + w (Nemotron's
  /// NemotronLayerNorm1P, Megatron-LM's --apply-layernorm-1p): the same count, another
  /// parametrisation, which a launch must state to train the same model.
  bool layernorm_1p = false;
  /// q_proj also writes a per-channel output gate (Qwen3-Next's gated attention): N_q·h·d
  /// more projection weights per attention layer.
  bool gated_attention = false;
  /// Softmax attention (GQA) with a low-rank query: q = W_qb · RMSNorm(W_qa · x) through a rank
  /// of gqa_q_lora_rank (Step3's MFA: q_proj d -> r, inter_norm of r, wq r -> N_q·d_head), so
  /// d·r + r·N_q·d_head projection weights in place of d·N_q·d_head and a norm of r beside N
  /// per attention layer; 0: full rank. (MLA's low-rank query is LatentAttention::q_lora_rank.)
  int gqa_q_lora_rank = 0;
  /// A head-wise output gate (Step-3.5-Flash's use_head_wise_attn_gate): g_proj d -> N_q (no
  /// bias), one sigmoid scalar per query head scales that head's output before o_proj: d·N_q
  /// more projection weights per attention layer (in N, with the attention).
  bool head_wise_attn_gate = false;
  /// RoPE's base (config.json rope_theta, or rope_parameters.rope_theta as transformers 5 writes
  /// it) and the norms' epsilon (rms_norm_eps, layer_norm_eps, ...), where the source states them:
  /// they count nothing, but a Megatron-LM launch must state them to train the same model
  /// (--rotary-base, default 10,000; --norm-epsilon, default 1e-5). nullopt: not stated.
  std::optional<double> rope_theta;
  std::optional<double> norm_eps;
  /// The sliding-window layers' own RoPE base where it differs from rope_theta (Gemma 3's
  /// rope_local_base_freq, MiMo-V2-Flash's swa_rope_theta): Megatron-LM takes one base, so
  /// --emit megatron writes none and says why. nullopt: one base for every layer.
  std::optional<double> rope_local_theta;

  [[nodiscard]] bool is_moe() const { return n_routed_experts > 0; }
  /// Layers whose FFN is dense only (paper 002's L_d).
  [[nodiscard]] int dense_layers() const;
  /// Layers with experts (paper 002's L_m), a dense residual FFN beside them or not.
  [[nodiscard]] int moe_layers() const;
  /// Every layer: `layers`, or the uniform layout written out (L entries: for export and tests).
  [[nodiscard]] std::vector<LayerSpec> layer_specs() const;
  /// The distinct layers and how many of each, in order of first appearance: what every
  /// count sums over (a uniform model has at most two kinds, whatever its L).
  [[nodiscard]] std::vector<std::pair<LayerSpec, int>> layer_census() const;
  /// Layers with softmax attention (all of them in a uniform model).
  [[nodiscard]] int attention_layers() const;
  /// Anything the papers' laws were not fitted on (they are fitted on uniform softmax-attention
  /// MoEs with gated FFNs): one line per kind, empty when the model is like theirs.
  [[nodiscard]] std::vector<std::string> outside_law_architecture() const;
  [[nodiscard]] int head_size() const;
  [[nodiscard]] int shared_width() const;
  /// The width a routed expert reads and writes: moe_latent_size in a latent MoE, else hidden_size.
  [[nodiscard]] int expert_io_width() const { return moe_latent_size > 0 ? moe_latent_size : hidden_size; }
  /// Validates ranges and cross-field rules; the first problem, or nullopt.
  [[nodiscard]] std::optional<ConfigProblem> problem() const;
};

/// Exact parameter counts of paper 002's N (SwiGLU FFNs with 3·d·width weights; attention
/// projections; Eq. 3). Routers, norms, biases, gates and sinks are not in N: see BesideN.
struct ParameterCounts {
  Params attention;       ///< all softmax-attention layers (gates and an indexer included)
  Params linear_mixers;   ///< projection matrices of the non-softmax mixers (LinearMixer)
  Params dense_ffn;       ///< all dense layers
  Params routed_total;    ///< all routed experts of all MoE layers
  Params routed_active;   ///< K routed experts per MoE layer
  Params shared;          ///< shared experts of all MoE layers
  Params latent_projections;  ///< a latent MoE's fc1/fc2_latent_proj, all MoE layers (in N and N_a)
  Params embedding;       ///< input embedding + output head (once if tied)
  Params N;               ///< total, non-embedding
  Params N_a;             ///< active, non-embedding
  [[nodiscard]] Params N_with_embedding() const { return N + embedding; }
  [[nodiscard]] Params N_a_with_embedding() const { return N_a + embedding; }
};

/// The weights a transformers class builds beside N and the embeddings (BuiltExtras,
/// routers of N_e x d per MoE layer, RMSNorms of d twice per layer and once at the end).
struct BesideN {
  Params routers;          ///< router weights (and biases) of all MoE layers
  Params norms;            ///< RMSNorm weights: 2 per layer, the final one, qk-norms, MLA's
  Params biases;           ///< projection and expert biases
  Params gates_and_sinks;  ///< shared-expert gates, attention sinks
  Params mixer_other;      ///< what non-softmax mixers build beside their matrices (convs, A_log, D, ...)
  Params total;            ///< the five together
  Params active;           ///< what one token uses: all but K/N_e of the expert biases
};
BesideN count_beside_n(const ModelConfig& m);

/// The multi-token-prediction modules of a checkpoint (BuiltExtras::num_nextn_predict_layers).
/// One module, as DeepSeek-V3 builds it (tech report arXiv:2412.19437 Sec. 2.2 and the
/// checkpoint's README_WEIGHTS.md: model.layers.61.*; GLM-4.5 the same, model.layers.92.*):
/// enorm + hnorm (2d), eh_proj (2d x d), one decoder layer like the model's MoE layers
/// (attention, experts, router, its norms, biases) and a final norm (d). Its embedding and
/// output head are the main model's (shared), but the published checkpoints store a copy of
/// each with every module (embed_tokens, shared_head.head): DeepSeek's 671B + 14B = 685B.
struct MtpCounts {
  Params modules;        ///< the modules' own weights (shared embedding and head not counted)
  Params stored_copies;  ///< the embedding and output-head copies the checkpoint stores with them
};
MtpCounts count_mtp(const ModelConfig& m);
/// The model's MTP modules (num_nextn_predict_layers, 0 when unset or negative).
int mtp_modules(const ModelConfig& m);

/// Why the cluster, GEMM and Megatron models (which count L alike layers of softmax attention
/// and gated FFNs, dense or MoE by first_k_dense_replace) cannot take `m`; nullopt when they can.
std::optional<std::string> non_uniform_layers(const ModelConfig& m);

/// Why `m` cannot take sequences of `seq_len` tokens: a learned absolute position table has
/// max_position_embeddings rows and none past them (a learned table cannot be extrapolated, as
/// RoPE's rotations can); nullopt when it can. The reason reads after "seq_len N ".
std::optional<std::string> position_table_problem(const ModelConfig& m, std::int64_t seq_len);

/// The key/value heads of one layer: its own (LayerSpec::kv_heads), else the model's.
inline int kv_heads_of(const ModelConfig& m, const LayerSpec& layer) {
  return layer.kv_heads > 0 ? layer.kv_heads : m.num_key_value_heads;
}

/// The query heads of one attention layer: its own (LayerSpec::q_heads), else the model's.
inline int q_heads_of(const ModelConfig& m, const LayerSpec& layer) {
  return layer.q_heads > 0 ? layer.q_heads : m.num_attention_heads;
}

/// The head size of one attention layer: its own (LayerSpec::head_dim), else the model's.
inline int head_size_of(const ModelConfig& m, const LayerSpec& layer) {
  return layer.head_dim > 0 ? layer.head_dim : m.head_size();
}

/// The value head size of one attention layer: its own (LayerSpec::v_head_dim), else its head size.
inline int v_head_size_of(const ModelConfig& m, const LayerSpec& layer) {
  return layer.v_head_dim > 0 ? layer.v_head_dim : head_size_of(m, layer);
}

/// Attention weights of one layer (GQA or MLA; the output gate and indexer matrices
/// included), of the model's own heads, or of one layer's.
double attention_params_per_layer(const ModelConfig& m);
double attention_params_of(const ModelConfig& m, const LayerSpec& layer);

/// The weights of one layer of `m` that N and N_a count (paper 002 Eq. 6-9, and their
/// generalisations: MLA, linear mixers, residual dense FFNs). The one per-layer count:
/// count_parameters sums it over the layers, the memory model over a pipeline rank's, and
/// the layer solve reads its affine form in d_m from it.
struct LayerParams {
  double attention = 0;      ///< softmax attention (gates and an indexer included)
  double linear_mixer = 0;   ///< a non-softmax mixer's projection matrices
  double dense_ffn = 0;      ///< the layer's dense FFN
  double routed_total = 0;   ///< all N_e routed experts
  double routed_active = 0;  ///< the K a token uses
  double shared = 0;         ///< the shared experts
  double latent_proj = 0;    ///< a latent MoE's fc1/fc2_latent_proj (ModelConfig::moe_latent_size), every token's
  [[nodiscard]] double N() const { return attention + linear_mixer + dense_ffn + routed_total + shared + latent_proj; }
  [[nodiscard]] double N_a() const {
    return attention + linear_mixer + dense_ffn + routed_active + shared + latent_proj;
  }
};
LayerParams layer_params(const ModelConfig& m, const LayerSpec& layer);
/// One layer of a uniform model with FFN `kind`: softmax attention and that FFN.
inline LayerParams layer_params(const ModelConfig& m, FfnKind kind) {
  LayerSpec l;
  l.ffn = kind;
  return layer_params(m, l);
}
/// Layer i of a uniform model (no per-layer pattern): its first_k_dense_replace leading dense
/// layers, then MoE layers every moe_layer_interval (is_uniform_moe_layer).
LayerSpec uniform_layer(const ModelConfig& m, int i);
/// Layer i >= first_k is MoE when (i - first_k + 1) is a multiple of the interval (Llama 4:
/// interleave_moe_layer_step 2 makes layers 1, 3, 5, ... MoE). Inline: the memory model asks
/// it for every layer of thousands of layouts.
inline bool is_uniform_moe_layer(const ModelConfig& m, int i) {
  const int interval = m.moe_layer_interval > 1 ? m.moe_layer_interval : 1;
  return m.is_moe() && i >= m.first_k_dense_replace && (i - m.first_k_dense_replace + 1) % interval == 0;
}

ParameterCounts count_parameters(const ModelConfig& m);
/// The input embedding and, untied, the output head: V·d each (count_parameters' `embedding`).
Params embedding_params(const ModelConfig& m);

/// The HF-style config of a paper-002 architecture (no training table): the one bridge from
/// the planner's vocabulary to the counting one.
ModelConfig model_config_of(const MoeArchitecture& a);

/// Paper 002's accounting (Eq. 3, 4, 10-12) from counts already made: the one place N, N_a
/// and M are summed (account() of an architecture and score's family check both use it).
Accounting account_of(const ModelConfig& m, const ParameterCounts& p, int seq_len);

}  // namespace moeplan
