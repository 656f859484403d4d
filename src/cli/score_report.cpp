#include "score_report.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace moeplan::cli {

namespace {
// An absent number is Missing (null + KEY_reason in data formats), so every config has
// the same keys and no string stands where a number goes.
Value opt(const std::optional<double>& v, const char* why) {
  return v ? Value(*v) : Value(Missing{why});
}

template <class Tag>
Value opt(const std::optional<Quantity<Tag>>& v, const char* why) {
  return opt(v ? std::optional<double>(v->value()) : std::nullopt, why);
}

// "attention+moe: 12, gated_deltanet+moe: 36", in order of first appearance.
std::string layer_kinds(const ModelConfig& m) {
  std::vector<std::pair<std::string, int>> kinds;
  for (const auto& [l, count] : m.layer_census()) {
    std::string mixer = l.mixer == MixerKind::linear ? m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer)).kind
                                                     : std::string(to_string(l.mixer));
    if (m.compressed_attention && l.mixer == MixerKind::attention) {  // DeepSeek-V4's layer types
      mixer = l.compress_rate == 0                                   ? "sliding_attention"
              : l.compress_rate == m.compressed_attention->csa_rate ? "compressed_sparse_attention"
                                                                     : "heavily_compressed_attention";
    }
    const std::string kind = mixer + (l.own_kv ? "" : " (shared kv)") + "+" + std::string(to_string(l.ffn));
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
    if (it == kinds.end()) {
      kinds.emplace_back(kind, count);
    } else {
      it->second += count;
    }
  }
  std::string out;
  for (const auto& [kind, n] : kinds) out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", kind, n);
  return out;
}

}  // namespace

namespace {

constexpr const char* k_no_budget = "no training budget";

Section model_section(const ModelScore& s) {
  const ModelConfig& m = s.config;
  const bool moe = m.is_moe();
  return Section{"model", "Model",
       {{"name", "", "", m.name, m.description},
        {"hidden_size", "d", "", i64(m.hidden_size), "hidden size"},
        {"num_hidden_layers", "L", "", i64(m.num_hidden_layers), "layers"},
        {"dense_layers", "L_d", "", i64(m.dense_layers()), "dense FFN layers"},
        {"moe_layers", "L_m", "", i64(moe ? m.moe_layers() : 0), "MoE layers"},
        {"n_routed_experts", "E", "", i64(m.n_routed_experts), "routed experts per MoE layer"},
        {"num_experts_per_tok", "K", "", i64(m.num_experts_per_tok), "routed experts per token"},
        {"n_shared_experts", "E_s", "", i64(m.n_shared_experts), "shared experts per MoE layer"},
        {"moe_latent_size", "", "", i64(m.moe_latent_size), "latent MoE: the width routed experts read and write (0: none, hidden_size)"},
        {"attention", "", "", std::string(m.latent_attention ? "MLA" : m.compressed_attention ? "compressed MQA" : "GQA"),
         fmt::format("{} query / {} kv heads", m.num_attention_heads, m.num_key_value_heads)},
        {"attention_layers", "", "", i64(m.attention_layers()), "layers with softmax attention"},
        {"linear_mixer_layers", "", "", i64(static_cast<int>(std::count_if(m.layers.begin(), m.layers.end(), [](const LayerSpec& l) { return l.mixer == MixerKind::linear; }))),
         "layers with a non-softmax mixer (linear attention, SSM, convolution)"},
        {"layer_kinds", "", "", layer_kinds(m), "mixer+FFN of each layer, counted"},
        {"architecture_outside_laws", "", "", TextList(s.outside_laws), "what the papers' laws were not fitted on (empty: nothing)"},
        {"seq_len", "S", "tokens", i64(s.seq_len), "sequence length used for attention FLOPs"}}};
}

Section size_section(const ModelScore& s) {
  const ModelConfig& m = s.config;
  const ParameterCounts& p = s.params;
  const BesideN b = count_beside_n(m);
  // Paper 002's N and N_a leave out embeddings, routers and norms; a model card counts
  // them (Qwen2.5-72B: N = 70.2B, card 72.7B). The keys say which is which, and
  // compare_with_model_card names the figure a card states.
  const MtpCounts mtp = count_mtp(m);
  const Params as_built = p.N_with_embedding() + b.total;
  // MTP modules a checkpoint stores that no class builds (mtp_not_counted): null, with why.
  const auto mtp_or_null = [&](double v) {
    return m.extras.mtp_not_counted.empty() ? Value(v) : Value(Missing{m.extras.mtp_not_counted});
  };
  Section size{"size", "Size (parameters; N, N_a: paper 002 Eq. 3, no embeddings; a model card states total_params_as_built)",
       {{"N_nonembedding_total", "N", "params", p.N.value(), "paper 002's N: no embeddings, routers, norms, MTP (not a model card's total)"},
        {"N_a_nonembedding_active", "N_a", "params", p.N_a.value(), "paper 002's N_a: activated per token, no embeddings, routers, norms"},
        {"total_params_with_embeddings", "", "params", p.N_with_embedding().value(), "N + embeddings"},
        {"active_params_with_embeddings", "", "params", p.N_a_with_embedding().value(), "N_a + embeddings"},
        {"embedding_params", "", "params", p.embedding.value(), m.tie_word_embeddings ? "tied embedding" : "input embedding + output head"},
        {"linear_mixer_params", "", "params", p.linear_mixers.value(), "in N: projection matrices of the non-softmax mixers"},
        {"latent_projection_params", "", "params", p.latent_projections.value(), "in N and N_a: a latent MoE's fc1/fc2_latent_proj, 2 d x moe_latent_size per MoE layer"},
        {"router_params", "", "params", b.routers.value(), "beside N: routers, N_e x d per MoE layer"},
        {"norm_params", "", "params", b.norms.value(), "beside N: RMSNorm weights (qk-norm, MLA's included)"},
        {"bias_params", "", "params", b.biases.value(), "beside N: projection and expert biases"},
        {"gate_and_sink_params", "", "params", b.gates_and_sinks.value(), "beside N: shared-expert gates, attention sinks"},
        {"mixer_other_params", "", "params", b.mixer_other.value(), "beside N: what non-softmax mixers build beside their matrices (convolutions, A_log, D, dt_bias, norms)"},
        {"total_params_as_built", "", "params", as_built.value(), "all weights the architecture builds, embeddings included: a model card's total"},
        {"active_params_as_built", "", "params", (p.N_a_with_embedding() + b.active).value(),
         m.zero_experts > 0 ? "all weights one token uses when all K routed experts are real (the most)" : "all weights one token uses"},
        {"active_params_as_built_low", "", "params", (p.N_a_with_embedding() + b.active - (m.zero_experts > 0 ? p.routed_active : Params(0))).value(),
         m.zero_experts > 0 ? "the least: all K routed experts zero-width" : "= active_params_as_built (no zero-width experts)"},
        {"mtp_params", "", "params", mtp_or_null(mtp.modules.value()), m.extras.mtp_not_counted.empty() ? fmt::format("{} multi-token-prediction module(s) beside the model: not in N, N_a, M or as built", m.extras.num_nextn_predict_layers) : "multi-token-prediction modules beside the model: not counted"},
        {"total_params_in_checkpoint", "", "params",
         mtp_or_null((as_built + mtp.modules + mtp.stored_copies).value() + double(m.extras.checkpoint_buffer_values)),
         "as built + MTP modules + the embedding and head copies stored with them + the buffers stored (routers' correction biases, hash tables)"},
        {"compare_with_model_card", "", "", std::string("total_params_as_built"), "the figure a model card's total states (N and N_a are paper 002's)"},
        {"stated_total_params", "", "params", opt(m.stated ? m.stated->total : std::nullopt, "not given"), "officially stated total"}}};
  // A multimodal checkpoint's towers (vision_not_counted): null with why, beside the MTP row;
  // the totals then say they are the text model's.
  if (!m.extras.vision_not_counted.empty()) {
    const auto mtp_row = std::find_if(size.fields.begin(), size.fields.end(), [](const Field& f) { return f.key == "mtp_params"; });
    size.fields.insert(mtp_row + 1, Field{"vision_params", "", "params", Value(Missing{m.extras.vision_not_counted}),
                                          "vision (and audio) tower and projectors: not counted"});
    for (Field& f : size.fields) {
      if (f.key == "total_params_in_checkpoint") f.description = "text model only (the vision tower is not counted): " + f.description;
    }
  }
  return size;
}

Section compute_section(const ModelScore& s) {
  return Section{"compute", "Compute (convention holistic-002: paper 002 Appendix A)",
       {{"convention", "", "", std::string(to_string(s.flops.convention)), "FLOP counting used in this section"},
        {"flops_per_token", "M", "FLOPs/token", s.flops.M().value(), "training FLOPs per token, no embeddings"},
        {"attention_share", "r_a", "", s.flops.attention_share(), "attention share of M (paper 002's r_a; non-softmax mixers included)"},
        {"linear_mixer_flops_per_token", "", "FLOPs/token", s.flops.linear_mixers, "the non-softmax mixers' part: 3 x (2 per weight + their state FLOPs, docs/hybrid-layers.md)"},
        {"compute", "C", "FLOPs", opt(s.C, k_no_budget), "C = M D"},
        {"tokens", "D", "tokens", opt(s.D, k_no_budget), "training tokens"}}};
}

Section experts_section(const ModelScore& s) {
  return Section{"experts", "Expert layout (each paper's variables)",
       {{"activation_ratio", "A", "", s.shape.activation_ratio, "(K + E_s)/(E + E_s), paper 000"},
        {"granularity", "G_000", "", s.shape.granularity, "2 d / d_expert, paper 000"},
        {"active_experts", "G_001", "", s.shape.active_experts, "activated experts incl. shared, paper 001"},
        {"shared_ratio", "S_001", "", s.shape.shared_ratio, "shared / activated experts, paper 001"},
        {"sparsity", "S_004", "", s.shape.sparsity, "inactive experts / all experts, paper 004"}}};
}

/// The sections of the four laws' papers (000, 001, 004, 003) and the hyper-parameters.
void add_law_sections(Report& r, const ModelScore& s, const LawSet& laws, const Field& law_scope) {
  const bool moe = s.config.is_moe();
  r.sections.push_back(
      {"leverage", "Efficiency leverage (paper 000 Eq. 4, log10 C, log2 G)",
       {{"efficiency_leverage", "EL", "", opt(s.efficiency_leverage, k_no_budget), "dense compute needed for the same loss / C"},
        {"optimal_granularity", "", "", s.optimal_granularity, "G_000 that maximises EL (any A, C)"},
        {"attention_share_000", "", "", s.attention_share_000, "attention FLOPs share, convention leverage-000"},
        {"attention_share_verdict", "", "",
         std::string(laws.attention_share.optimal.contains(s.attention_share_000) ? "optimal (30-40 %)"
                     : laws.attention_share.flat.contains(s.attention_share_000) ? "near-optimal (20-50 %)"
                                                                                   : "outside 20-50 %"),
         "paper 000 App. F.4"},
        law_scope}});
  const auto in = [](const ClosedRange& rg, double v) { return std::string(rg.contains(v) ? "inside" : "outside"); };
  r.sections.push_back(
      {"joint_law", "Joint MoE law (paper 001 Eq. 11-14)",
       {{"predicted_loss", "loss", "nats/token", opt(s.predicted_loss, moe ? k_no_budget : "dense model"), "Eq. 11 at (N, D, N_a, G_001, S_001)"},
        {"active_ratio", "N_a/N", "", s.active_ratio, "of this model, no embeddings"},
        {"active_ratio_theoretical", "", "", s.active_ratio_theoretical, "Eq. 14 at G = 7, S = 0.31"},
        {"active_ratio_efficient_0001", "", "", opt(s.active_ratio_efficient_tight, "not reached"), "Algorithm 1, dLoss = 0.001"},
        {"active_ratio_efficient_0005", "", "", opt(s.active_ratio_efficient_loose, "not reached"), "Algorithm 1, dLoss = 0.005"},
        {"optimal_active_experts", "G_opt", "", s.optimal_active_experts, "Eq. 12"},
        {"active_experts_range_low", "", "", s.active_experts_range.lo, "smallest G within 0.001 of optimal loss (Table 3)"},
        {"active_experts_range_high", "", "", s.active_experts_range.hi, "largest G within 0.001 of optimal loss (Table 3)"},
        {"active_experts_verdict", "", "", in(s.active_experts_range, s.shape.active_experts), "G_001 against that range"},
        {"optimal_shared_ratio", "S_opt", "", s.optimal_shared_ratio, "Eq. 13"},
        {"shared_ratio_range_low", "", "", s.shared_ratio_range.lo, "smallest S within 0.001 of optimal loss (Table 3)"},
        {"shared_ratio_range_high", "", "", s.shared_ratio_range.hi, "largest S within 0.001 of optimal loss (Table 3)"},
        {"shared_ratio_verdict", "", "", in(s.shared_ratio_range, s.shape.shared_ratio), "S_001 against that range"},
        law_scope}});
  r.sections.push_back(
      {"allocation", "Expert/attention allocation (paper 004, convention allocation-004)",
       {{"expert_attention_ratio", "r", "", s.expert_attention_ratio, "C_E / C_A"},
        {"optimal_ratio", "r*", "", opt(s.optimal_ratio, moe ? k_no_budget : "dense model"), "alpha_r(S) C^beta_r(S), Sec. 3.3"},
        {"allocation_loss", "", "", opt(s.allocation_loss, moe ? k_no_budget : "dense model"), "Eq. 2, Table 1 (only differences are meaningful)"},
        law_scope}});
  r.sections.push_back(
      {"activation_rate", "Activation rate vs dense at equal N, C (paper 003, convention moe-vs-dense-003)",
       {{"activation_rate", "N_a/N", "", s.active_ratio, "N_a / N, paper 003's activation rate (not r_a, the attention share)"},
        {"verdict", "", "", std::string(to_string(s.activation_verdict)),
         "against paper 003's 15-48 % region (optimum 20 %) where a MoE beats a dense model of the "
         "same N, C and D; paper 002's compute-optimal plans (N/N_a ~ 20, N_a/N ~ 5 %) lie below it "
         "by design, since paper 002 lets N grow for C where paper 003 holds N equal to the dense model's"},
        {"compute_ratio", "R_c", "", s.versus_dense.compute_ratio, "M_MoE / M_dense, dense twin: same N and d, d_ffn = 2.77 d"},
        {"extra_tokens_factor", "1/R_c", "", s.versus_dense.extra_tokens_factor, "tokens needed vs the dense twin at equal C"},
        {"epochs", "", "", opt(s.epochs, "no unique_tokens"), "passes over the unique data"},
        law_scope}});
  r.sections.push_back(
      {"hyperparameters", "Training hyper-parameters",
       {{"learning_rate_000", "eta_opt", "", opt(s.learning_rate_000, k_no_budget), "paper 000 Eq. 5"},
        {"batch_tokens_000", "B_opt", "tokens", opt(s.batch_tokens_000, k_no_budget), "paper 000 Eq. 5"},
        {"learning_rate_002", "", "", opt(s.learning_rate_002, k_no_budget), "paper 002 Table 4, interpolated in log C"},
        {"batch_size_002", "", "sequences", opt(s.batch_size_002, k_no_budget), "paper 002 Table 4"},
        {"moe_flops_per_token_opt_000", "M_opt", "FLOPs/token", opt(s.moe_M_opt_000, k_no_budget), "paper 000 Table 5, MoE"},
        {"moe_tokens_opt_000", "D_opt", "tokens", opt(s.moe_D_opt_000, k_no_budget), "paper 000 Table 5, MoE"},
        {"dense_flops_per_token_opt_000", "", "FLOPs/token", opt(s.dense_M_opt_000, k_no_budget), "paper 000 Table 5, dense"},
        {"dense_tokens_opt_000", "", "tokens", opt(s.dense_D_opt_000, k_no_budget), "paper 000 Table 5, dense"},
        law_scope}});
}

/// Paper 002's feasibility at this C, and the price against its compute-optimal line.
void add_holistic_sections(Report& r, const ModelScore& s, const Field& law_scope) {
  const HolisticCheck& h = s.holistic;
  Section fit{"holistic", "Paper 002 feasibility (Eq. 3 at this C)", {}};
  fit.fields.push_back({"in_family", "", "", h.in_family, h.in_family ? "GQA, shared experts of width d_m" : h.why_not});
  const auto when = [&](double v) { return h.in_family ? std::optional<double>(v) : std::nullopt; };
  fit.fields.push_back({"error_flops_per_token", "dM/M", "", opt(when(h.error_M), "not in family"), "against M_opt(C), Eq. 2"});
  fit.fields.push_back({"error_active_params", "dN_a/N_a", "", opt(when(h.error_N_a), "not in family"), "against M_opt / (M/N_a)_opt"});
  fit.fields.push_back({"error_total_params", "dN/N", "", opt(when(h.error_N), "not in family"), "against N_a (N/N_a)_F.4"});
  fit.fields.push_back({"within_tolerance", "", "", h.in_family && h.within_tolerance, fmt::format("all three within {:g} %", 100 * h.tolerance)});
  r.sections.push_back(std::move(fit));
  // The price against paper 002's compute-optimal line (the keys of suggest's), or the same
  // keys null with why: every config of a side-by-side score has them. The numbers' reason
  // is the holistic section's; overhead_note says in full why there is no price.
  if (s.price) {
    r.sections.push_back(price_section(*s.price, PriceOf::config));
  } else {
    const std::string reason = !s.C ? k_no_budget : !h.in_family ? "not in family" : s.price.error();
    r.sections.push_back(missing_price_section(reason, s.price.error()));
  }
  for (Field& f : r.sections.back().fields) {  // its loss is the joint law's
    if (f.key == "law_scope") f = law_scope;
  }
}

}  // namespace

Report score_report(const ModelScore& s, const LawSet& laws) {
  // Every law section says whether the law saw this kind of model (papers 000-004 fit uniform
  // softmax-attention MoEs) or is extrapolated to it.
  const Field law_scope =
      s.outside_laws.empty()
          ? Field{"law_scope", "", "", std::string("as fitted"),
                  "the law was fitted on models like this one (uniform softmax-attention layers)"}
          : Field{"law_scope", "", "", std::string("extrapolated"),
                  "fitted on uniform softmax-attention MoEs, never on: " +
                      fmt::format("{}", fmt::join(s.outside_laws, "; ")) + " (model.architecture_outside_laws)"};
  Report r;
  r.sections.push_back(model_section(s));
  r.sections.push_back(size_section(s));
  r.sections.push_back(compute_section(s));
  r.sections.push_back(experts_section(s));
  add_law_sections(r, s, laws, law_scope);
  add_holistic_sections(r, s, law_scope);
  Section notes{"notes", "Notes", {}};
  notes.fields.push_back({"messages", "note", "", TextList(s.notes), "what the laws say beside the numbers"});
  notes.fields.push_back({"laws_joint", "", "", laws.source_of("joint_loss"), "joint law coefficients"});
  notes.fields.push_back({"laws_leverage", "", "", laws.source_of("efficiency_leverage"), "EL coefficients"});
  r.sections.push_back(std::move(notes));
  return r;
}

}  // namespace moeplan::cli
