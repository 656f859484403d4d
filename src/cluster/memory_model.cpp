#include "moeplan/cluster/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <span>
#include <vector>

#include <fmt/format.h>

namespace moeplan {
namespace {

// Bytes per weight, gradient, optimizer state and cached linear-layer input are the run's
// precision's (precision_spec.hpp: presets/hardware/precisions.toml, each figure cited there).
// Every other stored activation is bf16, 2 bytes (Korthikanti et al. 2022 Sec. 4: 16-bit
// activations), in fp8 runs too; router logits and flash attention's log-sum-exp fp32.
constexpr double k_bf16 = 2;  // bytes of a stored activation
constexpr double k_fp32 = 4;
// The SwiGLU input's fp8 copy under activation_fp8_input_store: torch.float8_e4m3fn, 1 byte,
// whatever the run's GEMM precision (fused_bias_swiglu.py).
constexpr double k_e4m3 = 1;

// Layer i (0-based) is an MoE layer (the model's own layout, uniform_layer).
bool is_moe_layer(const ModelConfig& m, int i) { return is_uniform_moe_layer(m, i); }

// Layers of each pipeline rank. Even split (remainder to the earlier ranks), or the uneven one
// of Megatron's --decoder-first/last-pipeline-num-layers (middle ranks share the rest); with
// VPP rank r holds chunks c = 0..vpp-1 of L/(pp·vpp) layers, chunk c = model chunk c·pp + r
// (Megatron's interleaved assignment).
// Every rank's layers in one flat list (rank 0's, then rank 1's, ...): the layout search asks
// for thousands of layouts, and one list reused per thread allocates nothing once grown.
struct RankLayers {
  std::vector<int> flat;
  std::vector<int> begin;  ///< rank r's layers are flat[begin[r], begin[r + 1])
  [[nodiscard]] std::span<const int> of(int r) const {
    return {flat.data() + begin[static_cast<std::size_t>(r)], flat.data() + begin[static_cast<std::size_t>(r) + 1]};
  }
};

const RankLayers& layers_of_ranks(int L, const ParallelLayout& lay) {
  thread_local RankLayers out;
  out.flat.clear();
  out.begin.clear();
  const int pp = std::max(1, lay.pp);
  const auto split = [](int n, int parts, int k) {  // start of part k of n split evenly
    return static_cast<int>((static_cast<long long>(n) * k) / parts);
  };
  if (lay.vpp > 1 && pp > 1) {
    const int chunks = pp * lay.vpp;
    for (int r = 0; r < pp; ++r) {
      out.begin.push_back(static_cast<int>(out.flat.size()));
      for (int c = 0; c < lay.vpp; ++c) {
        const int k = c * pp + r;
        for (int i = split(L, chunks, k); i < split(L, chunks, k + 1); ++i) out.flat.push_back(i);
      }
    }
    out.begin.push_back(static_cast<int>(out.flat.size()));
    return out;
  }
  thread_local std::vector<int> count;
  count.assign(static_cast<std::size_t>(pp), 0);
  if (pp == 1) {
    count[0] = L;
  } else if (lay.first_stage_layers > 0 || lay.last_stage_layers > 0) {
    int rest = L;
    int lo = 0, hi = pp;
    if (lay.first_stage_layers > 0) count[lo++] = lay.first_stage_layers, rest -= lay.first_stage_layers;
    if (lay.last_stage_layers > 0) count[--hi] = lay.last_stage_layers, rest -= lay.last_stage_layers;
    const int middle = hi - lo;
    for (int k = 0; k < middle; ++k) count[lo + k] = split(rest, middle, k + 1) - split(rest, middle, k);
    if (middle == 0 && rest > 0) count[pp - 1] += rest;  // nothing in between: keep every layer
  } else {
    for (int r = 0; r < pp; ++r) count[r] = split(L, pp, r + 1) - split(L, pp, r);
  }
  int next = 0;
  for (int r = 0; r < pp; ++r) {
    out.begin.push_back(static_cast<int>(out.flat.size()));
    for (int k = 0; k < count[r] && next < L; ++k) out.flat.push_back(next++);
  }
  out.begin.push_back(static_cast<int>(out.flat.size()));
  return out;
}

struct RankParams {
  double dense = 0;   // everything but the routed experts: sharded by the optimizer over dp
  double expert = 0;  // routed experts: over edp
  double embedding = 0;
  // Of the total, what Transformer Engine never casts to fp8: embedding, output head, routers,
  // norms ("Embedding/LM Head/Router ... remain at their original high precision",
  // docs/step-model-sources.md); the rest are the linear layers' weights.
  double high_precision = 0;
  [[nodiscard]] double total() const { return dense + expert; }
  [[nodiscard]] double linear() const { return total() - high_precision; }
};

// Parameters held by one GPU of pipeline rank `r`. Attention, dense FFN and shared experts are
// split over TP; routed experts over EP·ETP; routers and RMSNorms replicated; the embedding on
// the first rank and the output head on the last, each V·d/TP (once when tied and PP = 1).
// The model's own count of one layer of each kind (layer_params), which the ranks split.
struct UniformLayers {
  LayerParams dense, moe;
  explicit UniformLayers(const ModelConfig& m)
      : dense(layer_params(m, FfnKind::dense)), moe(layer_params(m, FfnKind::moe)) {}
};

RankParams params_of_rank(const ModelConfig& m, const UniformLayers& counted, const ParallelLayout& lay,
                          std::span<const int> layers, int r) {
  const double d = m.hidden_size;
  const double tp = lay.tp;
  const double norms = 2 * d;  // input and post-attention RMSNorm weights
  const LayerParams& dense_layer = counted.dense;
  const LayerParams& moe_layer = counted.moe;
  const double attention = dense_layer.attention / tp;
  RankParams p;
  const auto add_layer = [&](bool moe) {
    p.dense += attention + norms;
    p.high_precision += norms;
    if (moe) {
      const double router = double(m.n_routed_experts) * d;  // N_e × d
      p.expert += moe_layer.routed_total / (lay.ep * lay.etp);
      p.dense += moe_layer.shared / tp + router;
      p.high_precision += router;
    } else {
      p.dense += dense_layer.dense_ffn / tp;
    }
  };
  for (int i : layers) add_layer(is_moe_layer(m, i));
  const double table = double(m.vocab_size) * d / tp;
  const bool first = r == 0;
  const bool last = r == std::max(1, lay.pp) - 1;
  if (first) p.embedding += table;
  // Learned absolute positions: Megatron-LM's LanguageModelEmbedding builds them as a plain
  // torch.nn.Embedding(max_sequence_length, d), not split over TP (megatron/core/models/common/
  // embeddings/language_model_embedding.py), on the first stage beside the word embedding.
  if (first && m.position_embedding == PositionEmbedding::learned_absolute) {
    p.embedding += double(m.max_position_embeddings) * d;
  }
  if (last) {
    p.dense += d;  // final RMSNorm
    // A tied head is the embedding: one tensor with PP = 1, and under DualPipe too, where this
    // stage shares rank 0's GPU and its embedding ("the physical sharing of parameters and
    // gradients, of the shared embedding and output head", DeepSeek-V3 report Sec. 3.2.3);
    // otherwise Megatron builds a copy on the last stage and all-reduces its gradients.
    if (!(m.tie_word_embeddings && (lay.pp == 1 || lay.dualpipe))) p.embedding += table;
    // The multi-token-prediction modules, which Megatron-LM builds on the last stage
    // (mtp_process): each a decoder layer like the model's MoE layers, enorm + hnorm and a
    // final norm (3d), eh_proj (2d -> d, TP-sharded); with PP > 1 that stage also builds the
    // embedding the modules read (GPTModel: pre_process or mtp_process), the head is shared.
    const int mtp = mtp_modules(m);
    for (int k = 0; k < mtp; ++k) {
      add_layer(m.is_moe());
      p.dense += 2.0 * d * d / tp + 3.0 * d;
      p.high_precision += 3.0 * d;
    }
    // Under DualPipe the last stage shares its GPU with the first (rank 0 runs stages 0 and
    // PP-1), and the MTP modules read the embedding already there: "we deploy the shallowest
    // layers (including the embedding layer) and deepest layers (including the output head) of
    // the model on the same PP rank. This arrangement enables the physical sharing of
    // parameters and gradients, of the shared embedding and output head, between the MTP
    // module and the main model" (DeepSeek-V3 report, Sec. 3.2.3).
    if (mtp > 0 && lay.pp > 1 && !m.tie_word_embeddings && !lay.dualpipe) p.embedding += table;
  }
  p.dense += p.embedding;
  p.high_precision += p.embedding + (last ? d : 0.0);  // the final RMSNorm
  return p;
}

// Bytes of a rank's weights, and of the low-precision copies beside them (Transformer Engine's
// fp8 copy and transpose): the linear layers' weights alone have copies (and are kept only in
// the low precision under param gather, --fp8-param-gather).
double weight_bytes(const RankParams& p, const PrecisionSpec& spec, const MemoryOptions& o) {
  if (const PrecisionSpec::ParamGather* g = spec.gathers(o.fp8_param_gather)) {
    return g->weight_bytes * p.linear() + spec.weight_bytes * p.high_precision;
  }
  return spec.weight_bytes * p.total();
}
double copy_bytes(const RankParams& p, const PrecisionSpec& spec, const MemoryOptions& o) {
  if (!(spec.copy_bytes > 0)) return 0;
  const PrecisionSpec::ParamGather* g = spec.gathers(o.fp8_param_gather);
  return (g ? g->copy_bytes : spec.copy_bytes) * p.linear();
}

}  // namespace

// Micro-batches whose activations pipeline rank r holds at once, in units of the rank's
// whole layer set. 1F1B (Megatron-core schedules.py, forward_backward_pipelining_without_
// interleaving): rank r runs pp − r − 1 warm-up forwards, then one more before its first
// backward: pp − r in flight, at most the step's m micro-batches. Interleaved (forward_
// backward_pipelining_with_interleaving): the units are model chunks of 1/vpp of the rank's
// layers; rank r runs (pp − r − 1)·2 + (vpp − 1)·pp warm-up chunk forwards (microbatch_group_
// size_per_vp_stage defaults to pp), one more in the steady state, at most all m·vpp chunks of
// the step. Rank 0 gets pp·(1 + (pp − 1)/(pp·vpp)), Megatron's theoretical_memory_usage.py
// penalty for the first stage; the last rank still holds (vpp − 1)·pp + 1 chunks.
double microbatches_in_flight(const ParallelLayout& lay, int r) {
  const int pp = std::max(1, lay.pp);
  const long long m = lay.microbatches();
  if (lay.vpp > 1 && pp > 1) {
    const double vpp = lay.vpp;
    double chunks = (pp - r - 1) * 2.0 + (vpp - 1.0) * pp + 1.0;
    if (m > 0) chunks = std::min(chunks, static_cast<double>(m) * vpp);
    return chunks / vpp;
  }
  double n = pp - r;
  if (m > 0) n = std::min<double>(n, static_cast<double>(m));
  return n;
}

namespace {

struct LayerShape {
  double s, b, h, t, t_sp;  // tokens of a sequence on this rank, micro-batch, d, TP, TP if SP
  double etp;               // expert tensor parallel
};

// moeplan's count of one layer's stored activations for one micro-batch (bytes), as kept for
// the backward pass when the modules `recomputed` (RecomputeModule bits; 0: none) are re-run
// from their inputs instead. Token-sharded tensors (outside the TP region) are / TP only with
// SP; head- and width-sharded ones always / TP.
double moeplan_layer_bytes(const ModelConfig& m, const LayerShape& x, bool moe,
                           const MemoryOptions& o, unsigned recomputed) {
  // A recomputed module's outputs are not kept: `kept(bit)` is 0 for them, 1 otherwise.
  const auto kept = [&](unsigned bit) { return (recomputed & bit) != 0 ? 0.0 : 1.0; };
  const double sb = x.s * x.b;
  const double h = x.h;
  const double nq = m.num_attention_heads;
  double qk_head = m.head_size(), v_head = m.head_size();
  double q_width = nq * qk_head, k_width = m.num_key_value_heads * qk_head;
  double v_width = m.num_key_value_heads * v_head;
  double latent = 0;
  if (m.latent_attention) {
    // MLA: attention runs on per-head q, k (nope + rope) and v after the up-projections; the
    // compressed q and kv latents are kept as the up-projections' inputs.
    const LatentAttention& a = *m.latent_attention;
    qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim;
    v_head = a.v_head_dim;
    q_width = k_width = nq * qk_head;
    v_width = nq * v_head;
    latent = a.q_lora_rank + a.kv_lora_rank + a.qk_rope_head_dim;
  }
  // A linear layer's input is kept for its weight gradient: in bf16, or under fp8 as the fp8
  // copy its GEMM used (the precision's activation_bytes, 1 byte for fp8: Transformer Engine
  // saves the cast input). The router's input stays bf16 (its GEMM is bf16).
  const double lin = precision_spec(o.precision).activation_bytes;
  double bytes = 0;
  // Attention block.
  bytes += k_bf16 * sb * h / x.t_sp;                            // RMSNorm input
  // A norm after each block too (Gemma 2/3/4's, Trinity's): its input, the block's output, kept
  // for its backward, one per block.
  if (m.extras.post_block_norms) bytes += 2 * k_bf16 * sb * h / x.t_sp;
  bytes += kept(recompute_layernorm) * lin * sb * h / x.t_sp;  // QKV GEMM input (norm output)
  bytes += lin * sb * latent / x.t_sp;                          // MLA latents (up-projection inputs)
  // q, k, v: flash's backward reads them; MLA's up-projection recompute rebuilds them from
  // the latents (Megatron's mla_up_proj), so they are not kept then.
  bytes += (latent > 0 ? kept(recompute_mla_up_proj) : 1.0) * k_bf16 * sb * (q_width + k_width + v_width) / x.t;
  bytes += lin * sb * nq * v_head / x.t;                        // attention output = out-proj input
  if (m.gated_attention) {
    // Gated attention (Megatron-Core attention.py _apply_output_gate, x * sigmoid(gate), one
    // torch.compile'd kernel): its backward keeps its bf16 inputs, the gate and the attention
    // output (inductor's partitioner recomputes the sigmoid), and the attention output is no longer
    // the out-projection's input (the gated product is): 2 bf16 tensors more a layer.
    bytes += k_bf16 * (q_width + nq * v_head) * sb / x.t;
  }
  if (o.flash_attention) {
    bytes += k_fp32 * sb * nq / x.t;  // softmax log-sum-exp per head and token (flash backward)
  } else {
    // Korthikanti et al. 2022 Sec. 4.1: softmax output 2as²b, dropout mask as²b, dropout
    // output 2as²b; recomputing the attention core (selective) drops exactly these.
    bytes += kept(recompute_core_attn) * 5 * nq * x.s * x.s * x.b / x.t;
  }
  // FFN block (no dropout in current LLM recipes: Korthikanti's masks are not counted).
  bytes += k_bf16 * sb * h / x.t_sp;                // RMSNorm input
  // FFN input (norm output); MoE: the router's too.
  bytes += kept(recompute_layernorm) * (moe ? k_bf16 : lin) * sb * h / x.t_sp;
  // `act`: the activation's output kept (Megatron's moe_act recomputes it from gate and up).
  // A gated FFN (SwiGLU) keeps gate and up, 2·width; an ungated one (GELU, squared ReLU) the
  // first GEMM's output, width: Korthikanti et al. 2022 Sec. 4.1 count the GELU's input 8sbh
  // and the second GEMM's input 8sbh at width 4h (their dropout mask is left out, as above).
  const double first_gemm_outputs = m.ffn_gated ? 2.0 : 1.0;
  // Megatron's activation_func_fp8_input_store (SwiGLU only): those inputs kept as fp8 copies.
  const double act_input = o.activation_fp8_input_store ? k_e4m3 : k_bf16;
  const auto ffn_activation = [&](double width, double tokens, double split, double act) {
    return act_input * tokens * first_gemm_outputs * width / split  // the activation's inputs
           + act * lin * tokens * width / split;  // its output: the down projection's input
  };
  if (!moe) {
    // Megatron's mlp recompute re-runs the whole MLP from its input (kept above).
    bytes += kept(recompute_mlp) * ffn_activation(m.intermediate_size, sb, x.t, 1.0);
    return bytes;
  }
  const double K = m.num_experts_per_tok;
  const double load = o.expert_load_factor;
  const double routed = K * sb / x.t_sp * load;  // token-copies this rank's experts process
  bytes += k_fp32 * 2 * sb * m.n_routed_experts / x.t_sp;  // router logits and probabilities
  bytes += lin * routed * h;                               // dispatched tokens (expert input)
  bytes += ffn_activation(m.moe_intermediate_size, routed, x.etp, kept(recompute_moe_act));  // expert gate/up, activation
  // The experts' outputs are not kept: Megatron-Core 0.20 multiplies the routing probabilities
  // in inside the activation (experts.py, TEGroupedMLP: weighted_bias_swiglu_impl(..., probs)),
  // and every token dispatcher's combine calls unpermute without probs (token_dispatcher.py),
  // a scatter whose backward is a gather by the kept indices. The probabilities' gradient is
  // the activation's output against fc2's input gradient, both there in the backward pass.
  if (m.n_shared_experts > 0) {
    // Shared experts: one dense SwiGLU of width n_shared·w_s on every token.
    bytes += kept(recompute_shared_experts) * ffn_activation(double(m.n_shared_experts) * m.shared_width(), sb, x.t, 1.0);
  }
  return bytes;
}

// Megatron-LM megatron/training/theoretical_memory_usage.py, evaluated for pipeline rank r
// instead of the first stage only (rank 0 gives the function's result exactly: its
// num_layers · layer × the in-flight factor is L/pp layers × in_flight(0)).
double megatron_rank_activations(const ModelConfig& m, const LayerShape& x,
                                 const ParallelLayout& lay, int layers, int r) {
  const double sbh = x.s * x.b * x.h;
  const double sb = x.s * x.b;
  const double V = m.vocab_size;
  const int pp = std::max(1, lay.pp);
  const double n = microbatches_in_flight(lay, r);
  const bool first = r == 0;
  const double f = m.intermediate_size > 0 ? m.intermediate_size : m.moe_intermediate_size;
  if (lay.recompute == Recompute::full) {
    // Not in Megatron's estimate: Korthikanti's kept layer input, its other terms unchanged.
    double a = layers * 2 * sbh / x.t_sp + (first ? (8 * sb + sbh) / x.t : 0);
    a *= n;
    if (pp == 1) a += sbh * 4 * (1 + V / x.h) / x.t;
    return a;
  }
  if (lay.sequence_parallel && lay.recompute == Recompute::selective) {
    // compute_activation_memory: per layer sbh(18 + 4f/h); embedding input 8sb and its
    // dropout sbh per in-flight micro-batch; with PP = 1 the output layer's input and the
    // CE loss, 4sbh(1 + V/h); all / TP.
    double a = layers * sbh * (18 + 4 * f / x.h) + (first ? 8 * sb + sbh : 0);
    a *= n;
    if (pp == 1) a += sbh * 4 * (1 + V / x.h);
    return a / x.t;
  }
  // compute_activation_memory_without_sp (what report_theoretical_memory uses otherwise):
  // per layer sbh(10 + 24/t), the embedding terms, with PP = 1 logits sbV/t and the final
  // norm's output sbh at 2 bytes, and a 5 % allowance, not divided by TP afterwards.
  double a = layers * sbh * (10 + 24 / x.t) + (first ? 8 * sb + sbh : 0);
  a *= n;
  if (pp == 1) a += (sb * V / x.t + sbh) * 2;
  return a * 1.05;
}

struct RankActivations {
  double bytes = 0;
  double in_flight = 0;
  double per_microbatch = 0;  // of bytes: what each micro-batch in flight keeps
  double once = 0;            // of bytes: held once (full recompute's working set, the logits)
  double working_set = 0;     // of once: full recompute's one layer re-run at a time
};

// One layer's bytes depend on its kind (MoE or dense) and the modules recomputed only: each
// is computed once per layout and summed per layer as before (the same sums, in the same
// order). A layout has one set of modules, plus none for full recompute's working set.
struct LayerBytes {
  const ModelConfig& m;
  const LayerShape& x;
  const MemoryOptions& o;
  std::optional<double> cached[2][2];
  double operator()(bool moe, unsigned recomputed) {
    std::optional<double>& v = cached[moe ? 1 : 0][recomputed == 0 ? 0 : 1];
    if (!v) v = moeplan_layer_bytes(m, x, moe, o, recomputed);
    return *v;
  }
};

RankActivations moeplan_rank_activations(const ModelConfig& m, const LayerShape& x,
                                         const ParallelLayout& lay, LayerBytes& layer_bytes,
                                         std::span<const int> layers, int r) {
  const double sb = x.s * x.b;
  const double sbh = sb * x.h;
  const int pp = std::max(1, lay.pp);
  RankActivations out;
  out.in_flight = microbatches_in_flight(lay, r);
  double per_microbatch = 0;
  double working_set = 0;  // full recompute: one layer's activations while it is re-run
  const auto add_layer = [&](bool moe) {
    if (lay.recompute == Recompute::full) {
      per_microbatch += k_bf16 * sbh / x.t_sp;  // the layer input, kept (Korthikanti Table 2)
      working_set = std::max(working_set, layer_bytes(moe, 0));
    } else {
      per_microbatch += layer_bytes(moe, lay.recomputed_modules());
    }
  };
  for (int i : layers) add_layer(is_moe_layer(m, i));
  if (r == 0) per_microbatch += 8 * sb;  // int64 token ids (Megatron's "input to embedding")
  const int mtp = r == pp - 1 ? mtp_modules(m) : 0;
  for (int k = 0; k < mtp; ++k) {
    // An MTP module on the last stage: its decoder layer as one of the model's MoE layers,
    // and eh_proj's input, the two normed d-vectors concatenated (2d, bf16).
    add_layer(m.is_moe());
    per_microbatch += k_bf16 * 2.0 * sbh / x.t_sp;
  }
  out.per_microbatch = per_microbatch;
  out.once = working_set;
  out.working_set = working_set;
  if (r == pp - 1) {
    // Output layer input and cross-entropy logits, one micro-batch at a time (Megatron's
    // "Inputs to output layer and CE loss": 4sbh(1 + V/h), / TP); each MTP module computes
    // its own logits and loss through the shared head.
    out.once += (1.0 + mtp) * sbh * 4 * (1 + double(m.vocab_size) / x.h) / x.t;
  }
  out.bytes = per_microbatch * out.in_flight + out.once;
  return out;
}

std::string count_text(double v) { return fmt::format("{:.3g}", v); }

}  // namespace

double MemoryBreakdown::total() const {
  double sum = 0;
  for (const MemoryTerm& t : terms) sum += t.bytes;
  return sum;
}

double MemoryBreakdown::bytes_of(const std::string& name) const {
  for (const MemoryTerm& t : terms) {
    if (t.name == name) return t.bytes;
  }
  return 0;
}

namespace {

// The most loaded pipeline rank of a layout, and the all-to-all buffers: the numbers behind
// every term (memory_per_gpu describes them; memory_total_bytes only adds them up).
struct MostLoaded {
  int r = 0;
  RankParams params;
  double weights = 0, fp8_copies = 0, gradients = 0, optimizer = 0, activations = 0, in_flight = 0;
  double dual_near = 0, dual_far = 0;  // DualPipe: micro-batches of stage h and of stage PP-1-h
  int stage_layers = 0;
  double all_to_all = 0;
  /// Every term that differs between pipeline ranks (the fp8 copies too: the first and last
  /// stages hold the embedding and head, which have none).
  [[nodiscard]] double rank_total() const { return weights + fp8_copies + gradients + optimizer + activations; }
};

// Megatron-FSDP (MemoryOptions::dp_sharding): from optim_grads the gradients are kept as the
// rank's shard, dense over DP and experts over EDP, and under optim_grads_params the weights
// and their fp8 copies too; beside each shard, the full buffers of two units in flight: the
// layer computing and the next one prefetched (Megatron-FSDP's double buffer,
// core/distributed/fsdp/src/docs/runtime_schedule.md: "AG_{i+1} needs to be prefetched").
// A unit is the rank's average layer, or one vocabulary matrix (V·d/TP: the embedding or the
// head) where that is larger (an engineering reading: FSDP units are Megatron's layers and the
// embedding and head modules).
// The dense part is sharded over DP·CP (Megatron-FSDP's dp_cp group: "both data-parallel and
// context-parallel ranks are used for sharding", docs/user-guide/features/megatron_fsdp.md), the
// experts over EDP; a group of one gathers nothing, so it has no unit buffers. Transformer
// Engine's fp8 transposes are kept for the units in flight only (megatron_fsdp.py drops each
// unit's transpose cache after use unless keep_fp8_transpose_cache).
// `p` with its dense part (embedding and high-precision weights included) times `dense` and its
// experts times `expert`.
RankParams scaled(RankParams p, double dense, double expert) {
  p.dense *= dense;
  p.expert *= expert;
  p.embedding *= dense;
  p.high_precision *= dense;
  return p;
}

void shard_over_data_parallel(MostLoaded& k, double layers, double vocab_matrix, const ParallelLayout& lay,
                              const PrecisionSpec& spec, const MemoryOptions& o) {
  if (o.dp_sharding == DpSharding::optim) return;
  const double dp = lay.dp_cp();
  const double edp = std::max(1, lay.edp);
  const RankParams shard = scaled(k.params, 1.0 / dp, 1.0 / edp);
  const double total = k.params.total();
  const double per_layer = (total - k.params.embedding) / std::max(1.0, layers);
  const double unit_share = total > 0 ? std::max(per_layer, std::min(k.params.embedding, vocab_matrix)) / total : 0.0;
  const RankParams unit = scaled(k.params, dp > 1 ? unit_share : 0.0, edp > 1 ? unit_share : 0.0);
  // The fp8 transposes of the units in flight, whatever the group.
  const RankParams transposed = scaled(k.params, unit_share, unit_share);
  k.gradients = spec.gradient(o.grad_reduce_in_bf16) * (shard.total() + 2.0 * unit.total());
  if (o.dp_sharding == DpSharding::optim_grads_params) {
    k.weights = weight_bytes(shard, spec, o) + 2.0 * weight_bytes(unit, spec, o);
    k.fp8_copies = 2.0 * copy_bytes(transposed, spec, o);
  }
}

// Rank r's activations by the formula `options` picks (Megatron's: all per micro-batch).
RankActivations rank_activations(const ModelConfig& m, const LayerShape& x, const ParallelLayout& lay,
                                 LayerBytes& layer_bytes, const RankLayers& ranks, int r,
                                 const MemoryOptions& options) {
  if (options.activation_formula == ActivationFormula::megatron) {
    RankActivations a;
    a.bytes = megatron_rank_activations(m, x, lay, static_cast<int>(ranks.of(r).size()), r);
    a.in_flight = microbatches_in_flight(lay, r);
    a.per_microbatch = a.in_flight > 0 ? a.bytes / a.in_flight : 0.0;
    return a;
  }
  return moeplan_rank_activations(m, x, lay, layer_bytes, ranks.of(r), r);
}

MostLoaded most_loaded(const ModelConfig& m, const ParallelLayout& lay, const MemoryOptions& given) {
  // The expert terms at the busiest expert rank's load on this layout (1 on EP 1).
  MemoryOptions options = given;
  options.expert_load_factor = expert_rank_load(given.expert_load_factor, lay);
  // The counts are made per pipeline rank from the config itself (each rank's own layers).
  if (options.seq_len <= 0) throw std::logic_error("memory model: S (MemoryOptions::seq_len) not set");
  const int pp = std::max(1, lay.pp);
  const int tp = std::max(1, lay.tp);
  LayerShape x{};
  x.s = double(options.seq_len) / std::max(1, lay.cp);  // a rank's share of a sequence
  x.b = lay.micro_batch;
  x.h = m.hidden_size;
  x.t = tp;
  x.t_sp = lay.sequence_parallel ? tp : 1;
  x.etp = std::max(1, lay.etp);
  const RankLayers& ranks = layers_of_ranks(m.num_hidden_layers, lay);
  const PrecisionSpec& spec = precision_spec(options.precision);

  // The most loaded rank: the largest total of parameter bytes, fp8 copies and activations.
  MostLoaded best;
  LayerBytes layer_bytes{m, x, options, {}};
  const UniformLayers counted(m);
  for (int r = 0; r < pp; ++r) {
    MostLoaded k;
    k.r = r;
    k.params = params_of_rank(m, counted, lay, ranks.of(r), r);
    // DualPipe: rank r holds stage PP-1-r too (its Table: 2x parameters per device).
    const int mirror = pp - 1 - r;
    const bool dual = lay.dualpipe && pp > 1;
    if (dual) {
      const RankParams other = params_of_rank(m, counted, lay, ranks.of(mirror), mirror);
      k.params.dense += other.dense;
      k.params.expert += other.expert;
      k.params.embedding += other.embedding;
      k.params.high_precision += other.high_precision;
    }
    k.weights = weight_bytes(k.params, spec, options);
    k.fp8_copies = copy_bytes(k.params, spec, options);
    k.gradients = spec.gradient(options.grad_reduce_in_bf16) * k.params.total();
    const double state = spec.optimizer_state(options.bf16_moments);
    // The distributed optimizer shards the dense part over DP·CP (Megatron's data-parallel group
    // with context parallelism, as the step's optimizer term counts it), the experts over EDP.
    k.optimizer = lay.distributed_optimizer
                      ? state * (k.params.dense / lay.dp_cp() +
                                 k.params.expert / std::max(1, lay.edp))
                      : state * k.params.total();
    shard_over_data_parallel(k, double(ranks.of(r).size()) + (dual ? double(ranks.of(mirror).size()) : 0.0),
                             double(m.vocab_size) * m.hidden_size / tp, lay, spec, options);
    if (dual) {
      // DualPipe keeps PP+1 micro-batches' activations per device (the report's Table 2). How
      // they fall on the device's two stages is dualpipe.py's schedule (deepseek-ai/DualPipe
      // @030ce432, DualPipe.step): with half rank h = min(r, PP-1-r), steps 1-2 run
      // 2(PP/2-h-1) + h+1 = PP-h-1 forwards of stage h and h+1 of stage PP-1-h, and the main
      // step's overlapped F0/B1 pair adds one more of stage h before B1 frees one: PP-h of
      // stage h and h+1 of stage PP-1-h at the peak. Rank 0 thus keeps 1 micro-batch of the
      // last stage (head, MTP) and PP of the first. At most the step's micro-batches each.
      const RankActivations a = rank_activations(m, x, lay, layer_bytes, ranks, r, options);
      const RankActivations b = rank_activations(m, x, lay, layer_bytes, ranks, mirror, options);
      const int h = std::min(r, mirror);
      const long long micro = lay.microbatches();
      const auto capped = [&](double n) { return micro > 0 ? std::min<double>(n, double(micro)) : n; };
      const double near = capped(pp - h);  // of stage h, the one the device feeds first
      const double far = capped(h + 1.0);  // of stage PP-1-h
      const RankActivations& of_h = r == h ? a : b;
      const RankActivations& of_far = r == h ? b : a;
      k.in_flight = near + far;
      k.dual_near = near;
      k.dual_far = far;
      // Full recompute re-runs one layer at a time on the device, of either stage: one working set.
      k.activations = near * of_h.per_microbatch + far * of_far.per_microbatch + (a.once - a.working_set) +
                      (b.once - b.working_set) + std::max(a.working_set, b.working_set);
    } else {
      const RankActivations a = rank_activations(m, x, lay, layer_bytes, ranks, r, options);
      k.activations = a.bytes;
      k.in_flight = a.in_flight;
    }
    if (r == 0 || k.rank_total() > best.rank_total()) best = k;
  }
  best.stage_layers = static_cast<int>(ranks.of(best.r).size());
  if (m.is_moe() && lay.ep > 1) {  // EP 1 permutes on the rank: no all-to-all, no buffers for it
    // Send and receive buffers of one MoE layer's dispatch: K copies of this rank's tokens
    // (/ TP with SP), bf16 (the precision's all_to_all_bytes), times the expert load factor.
    best.all_to_all = 2 * m.num_experts_per_tok * (x.s * x.b / x.t_sp) * x.h * spec.all_to_all_bytes *
                      options.expert_load_factor;
  }
  return best;
}

// DualPipe's split of a device's micro-batches in flight over its two stages (most_loaded).
std::string dualpipe_stages_text(const ModelConfig& m, const ParallelLayout& lay, const MostLoaded& best) {
  const RankLayers& ranks = layers_of_ranks(m.num_hidden_layers, lay);
  const int h = std::min(best.r, lay.pp - 1 - best.r);
  const int far = lay.pp - 1 - h;
  return fmt::format("DualPipe: {:.3g} micro-batches of stage {} ({} layer(s)) and {:.3g} of stage {} ({} layer(s)) in "
                     "flight", best.dual_near, h, ranks.of(h).size(), best.dual_far, far, ranks.of(far).size());
}

}  // namespace

MemoryBreakdown memory_per_gpu(const ModelConfig& m, const ParameterCounts& /*p*/,
                               const ParallelLayout& layout, const MemoryOptions& options) {
  // `p` stays in the signature for callers that already hold the count.
  const ParallelLayout& lay = layout;
  const int tp = std::max(1, lay.tp);
  const MostLoaded best = most_loaded(m, lay, options);
  MemoryBreakdown out;
  out.params_on_gpu = best.params.total();
  out.stage_layers = best.stage_layers;
  out.in_flight_microbatches = best.in_flight;
  const std::string where =
      fmt::format("{} params on rank {}{}", count_text(best.params.total()), best.r,
                  m.is_moe() ? fmt::format(" (experts / EP {} · ETP {})", lay.ep, lay.etp)
                             : std::string());
  const PrecisionSpec& spec = precision_spec(options.precision);
  const PrecisionSpec::ParamGather* gather = spec.gathers(options.fp8_param_gather);
  // Megatron-FSDP's shards (shard_over_data_parallel), said on the terms they shrink.
  const std::string sharded =
      fmt::format("; Megatron-FSDP {}: the shard over DP{} {}{} and two units in flight", to_string(options.dp_sharding),
                  lay.cp > 1 ? "·CP" : "", lay.dp_cp(),
                  m.is_moe() ? fmt::format(" (experts EDP {})", lay.edp) : std::string());
  const bool params_sharded = options.dp_sharding == DpSharding::optim_grads_params;
  const bool grads_sharded = options.dp_sharding != DpSharding::optim;
  out.terms.push_back(
      {"weights", best.weights,
       (gather ? fmt::format("linear layers {} (--fp8-param-gather), the rest bf16, ", spec.name) : "bf16, ") + where +
           (params_sharded ? sharded : std::string())});
  if (spec.copy_bytes > 0) {
    out.terms.push_back(
        {"fp8_weights", best.fp8_copies,
         (gather ? fmt::format("{} transpose of each linear layer's weight (Transformer Engine), {} B per param", spec.name,
                              gather->copy_bytes)
                : fmt::format("{} copy and transpose of each linear layer's weight (Transformer Engine), {} B per param; "
                              "embedding, head, routers and norms stay bf16",
                              spec.name, spec.copy_bytes)) +
             (params_sharded ? sharded : std::string())});
  }
  out.terms.push_back({"gradients", best.gradients,
                       (options.grad_reduce_in_bf16 ? "bf16 (--grad-reduce-in-bf16), " : "fp32, ") + where +
                           (grads_sharded ? sharded : std::string())});
  const char* moments = options.bf16_moments ? " in bf16" : "";
  const double state = spec.optimizer_state(options.bf16_moments);
  out.terms.push_back(
      {"optimizer", best.optimizer,
       lay.distributed_optimizer
           ? fmt::format("fp32 master + Adam m, v{}: {} B / DP{} {} (experts / EDP {})", moments, state,
                         lay.cp > 1 ? "·CP" : "", lay.dp_cp(), lay.edp)
           : fmt::format("fp32 master + Adam m, v{}: {} B per param, not sharded", moments, state)});
  out.terms.push_back(
      {"activations", best.activations,
       fmt::format("{}, {} recompute, {}{}",
                   lay.dualpipe && lay.pp > 1
                       ? dualpipe_stages_text(m, lay, best)
                       : fmt::format("{} layer(s) × {:.3g} micro-batches in flight", out.stage_layers, best.in_flight),
                   to_string(lay.recompute),
                   options.activation_formula == ActivationFormula::megatron ? "Megatron formula"
                                                                             : "moeplan formula",
                   lay.sequence_parallel && tp > 1 ? fmt::format(", / TP {} (SP)", tp)
                                                   : std::string())});
  out.terms.push_back(
      {"all_to_all", best.all_to_all,
       !m.is_moe()   ? std::string("dense model: none")
       : lay.ep == 1 ? std::string("EP 1: none (the tokens are permuted on the rank; Megatron's dispatcher sends "
                                   "nothing)")
                     : fmt::format("send + receive of one MoE layer, K = {}, load {:.3g}", m.num_experts_per_tok,
                                   options.expert_load_factor)});
  out.terms.push_back({"framework", options.framework_bytes,
                       "CUDA context, NCCL buffers, fragmentation (stated allowance)"});
  return out;
}

double memory_total_bytes(const ModelConfig& m, const ParallelLayout& layout, const MemoryOptions& options) {
  const MostLoaded best = most_loaded(m, layout, options);
  // The terms of memory_per_gpu in its order, added as MemoryBreakdown::total() adds them.
  double sum = 0;
  for (double bytes : {best.weights, best.fp8_copies, best.gradients, best.optimizer, best.activations, best.all_to_all,
                       options.framework_bytes}) {
    sum += bytes;
  }
  return sum;
}

double korthikanti_layer_activation_bytes(double s, double b, double h, double a, int t,
                                          bool sequence_parallel, Recompute recompute) {
  // Korthikanti et al. 2022, Table 2 (bytes of one layer, 16-bit activations).
  const double sbh = s * b * h;
  const double tt = std::max(1, t);
  if (recompute == Recompute::full) return 2 * sbh / (sequence_parallel ? tt : 1.0);
  // Softmax output, dropout mask and dropout output of the attention core (Sec. 4.1): 5as/h.
  const double core = recompute == Recompute::selective ? 0 : 5 * a * s / h;
  if (sequence_parallel || tt == 1) return sbh * (34 + core) / tt;
  return sbh * (10 + 24 / tt + core / tt);  // TP without SP: the 10sbh of norms/dropouts replicated
}

}  // namespace moeplan
