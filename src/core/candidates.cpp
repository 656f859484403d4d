#include "moeplan/candidates.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "moeplan/model_score.hpp"

namespace moeplan {

ModelConfig to_model_config(const MoeArchitecture& a, Tokens D) {
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
  m.training = TrainingSetup{.tokens = D, .compute = {}, .seq_len = f.seq_len, .unique_tokens = {}};
  return m;
}

RankedCandidate score_suggestion(const LawSet& laws, Suggestion s, std::string variant) {
  const MoeArchitecture& a = s.solution.arch;
  const Accounting& acc = s.solution.accounting;
  const ExpertShape shape = expert_shape(to_model_config(a, s.tokens));
  RankedCandidate c;
  c.predicted_loss = laws.joint.loss(acc.N, s.tokens, acc.N_a, shape.active_experts, shape.shared_ratio);
  c.efficiency_leverage = laws.leverage.at(shape.activation_ratio, shape.granularity, s.budget.C);
  c.suggestion = std::move(s);
  c.variant = std::move(variant);
  return c;
}

namespace {

int align_to(double x, int step) {
  return std::max(step, static_cast<int>(std::lround(x / step)) * step);
}

}  // namespace

std::vector<RankedCandidate> rank_candidates(const LawSet& laws, const SuggestOptions& options,
                                             const Suggestion& pipeline) {
  std::vector<RankedCandidate> out;
  out.push_back(score_suggestion(laws, pipeline, "pipeline optimum"));

  std::vector<std::pair<double, std::string>> m_factors{{1.0, ""}};
  if (!options.m_over_na) {
    m_factors.push_back({0.95, "M/N_a x0.95"});
    m_factors.push_back({1.05, "M/N_a x1.05"});
  }
  std::vector<std::pair<double, std::string>> n_deltas{{0.0, ""}};
  if (!options.n_over_na) {
    n_deltas.push_back({-1.0, "N/N_a -1"});
    n_deltas.push_back({+1.0, "N/N_a +1"});
  }
  const AttentionHeads h = pipeline.solution.arch.family.heads;
  std::vector<std::pair<std::optional<AttentionHeads>, std::string>> heads{{options.heads, ""}};
  if (!options.heads) {
    // Attention width N_q·d_qkv stays within a factor 2 of d (our rule; see the header).
    const double d0 = pipeline.solution.arch.d;
    const auto add = [&](int n_q, int n_kv) {
      const double width = double(n_q) * h.d_qkv;
      if (n_kv >= 1 && width >= d0 / 2 && width <= 2 * d0) {
        heads.push_back({AttentionHeads{n_q, n_kv, h.d_qkv}, fmt::format("heads {}/{}", n_q, n_kv)});
      }
    };
    add(h.n_q * 2, h.n_kv * 2);
    if (h.n_kv % 2 == 0 && h.n_q % 2 == 0) add(h.n_q / 2, h.n_kv / 2);
  }
  std::vector<std::pair<std::optional<int>, std::string>> ds{{options.d, ""}};
  if (!options.d) {
    const int d0 = pipeline.solution.arch.d;
    const FeasibleInterval& iv = pipeline.d_interval;
    std::set<int> picks{d0 / 128 * 128, (d0 + 127) / 128 * 128,
                        align_to(iv.d_min + 0.4 * (iv.d_max - iv.d_min), 64),
                        align_to(iv.d_min + 0.6 * (iv.d_max - iv.d_min), 64)};
    for (int d : picks) {
      if (d != d0 && d > 0) ds.push_back({d, fmt::format("d = {}", d)});
    }
  }

  using Key = std::tuple<int, int, int, int, int, int, int>;
  std::set<Key> seen;
  const auto key_of = [](const MoeArchitecture& a) {
    return Key{a.d, a.L_d, a.L_m, a.d_m, a.family.heads.n_q, a.family.heads.n_kv, a.family.heads.d_qkv};
  };
  seen.insert(key_of(pipeline.solution.arch));
  for (const auto& [mf, m_label] : m_factors) {
    for (const auto& [nd, n_label] : n_deltas) {
      for (const auto& [hd, h_label] : heads) {
        for (const auto& [dd, d_label] : ds) {
          SuggestOptions o = options;
          if (mf != 1.0) o.m_over_na = pipeline.m_over_na_target * mf;
          if (nd != 0.0) o.n_over_na = pipeline.n_over_na_target + nd;
          o.heads = hd;
          o.d = dd;
          auto s = suggest(laws.holistic, o);
          if (!s || !seen.insert(key_of(s->solution.arch)).second) {
            continue;  // infeasible variant, or the same integers as one already scored
          }
          std::string label;
          for (const std::string* part : {&m_label, &n_label, &h_label, &d_label}) {
            if (!part->empty()) label += (label.empty() ? "" : "; ") + *part;
          }
          out.push_back(score_suggestion(laws, std::move(*s), label));
        }
      }
    }
  }
  // Loss differences below paper 001's own practical threshold (0.001, Table 3) are ties
  // under the joint law (they come from integer rounding of N and N_a); among ties the
  // higher EL wins, which rewards granularity near its optimum. Then the rest by loss.
  double best = out.front().predicted_loss;
  for (const RankedCandidate& c : out) best = std::min(best, c.predicted_loss);
  const double tie = laws.joint_analysis.practical_threshold;
  std::stable_sort(out.begin(), out.end(), [&](const RankedCandidate& x, const RankedCandidate& y) {
    const bool x_tied = x.predicted_loss - best <= tie, y_tied = y.predicted_loss - best <= tie;
    if (x_tied != y_tied) return x_tied;
    if (x_tied && x.efficiency_leverage != y.efficiency_leverage) {
      return x.efficiency_leverage > y.efficiency_leverage;
    }
    return x.predicted_loss < y.predicted_loss;
  });
  return out;
}

}  // namespace moeplan
