#include "moeplan/planner/hardware_alignment.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

std::vector<std::pair<int, int>> aligned_hidden_sizes(int d, const std::vector<int>& steps) {
  std::vector<std::pair<int, int>> out;
  std::set<std::pair<int, int>> seen;
  for (int s : steps) {
    if (s <= 0) continue;
    const int down = d / s * s, up = (d + s - 1) / s * s;
    for (int v : {down, up}) {
      if (v > 0 && seen.insert({v, s}).second) out.emplace_back(v, s);
    }
  }
  return out;
}

AlignmentResult align_for_hardware(const LawSet& laws, const SuggestOptions& options,
                                   const RankedCandidate& winner,
                                   const AlignmentOptions& alignment) {
  AlignmentResult out;
  out.band = alignment.band;
  const Suggestion& w = winner.suggestion;
  AlignmentVariant proposal;
  proposal.candidate = winner;
  proposal.is_proposal = true;
  out.variants.push_back(std::move(proposal));

  // Hold what the ranking chose, so every variant aims at the same (M, N_a, N).
  SuggestOptions held = options;
  held.m_over_na = w.m_over_na_target;
  held.n_over_na = w.n_over_na_target;
  held.heads = w.solution.arch.family.heads;
  if (w.extrapolation) held.shape_anchor = w.extrapolation->anchor;  // same family
  for (auto [d, step] : aligned_hidden_sizes(w.solution.arch.d, alignment.steps)) {
    SuggestOptions o = held;
    o.d = d;
    o.alignment = step;
    auto s = suggest(laws.holistic, o);
    if (!s) {
      out.skipped.push_back(fmt::format("d = {} (step {}): {}", d, step, s.error().to_string()));
      continue;
    }
    // Provenance: the ratios and heads are the winner's (held, not the user's); d is moved
    // by this alignment step.
    s->m_over_na_source = w.m_over_na_source;
    s->n_over_na_source = w.n_over_na_source;
    s->heads_source = w.heads_source;
    s->d_source = DSource::ranking;
    s->d_target = w.d_target;
    s->extrapolation = w.extrapolation;
    s->warnings = w.warnings;
    AlignmentVariant v;
    v.candidate = score_suggestion(laws, std::move(*s), fmt::format("d = {}, step {}", d, step));
    v.step = step;
    out.variants.push_back(std::move(v));
  }

  double best = out.variants.front().candidate.predicted_loss;
  for (const AlignmentVariant& v : out.variants) best = std::min(best, v.candidate.predicted_loss);
  for (AlignmentVariant& v : out.variants) {
    v.loss_change = (v.candidate.predicted_loss - best) / best;
    v.in_band = v.loss_change <= alignment.band;
  }

  // Time every variant: one CPU bench, so shared shapes are timed once and all variants'
  // shapes are timed in the same interleaved rounds.
  const BenchOptions& b = alignment.bench;
  std::optional<CpuGemmBench> cpu;
  if (b.cpu) cpu.emplace(b, b.cpu_seconds / 4);
  const double per_variant = 0.75 * b.cpu_seconds / static_cast<double>(out.variants.size());
  std::vector<std::optional<ModelGemms>> gemms;
  for (const AlignmentVariant& v : out.variants) {
    const Suggestion& s = v.candidate.suggestion;
    auto g = model_gemms(to_model_config(s.solution.arch, s.tokens), b.tokens);
    if (!g) {
      out.skipped.push_back(v.candidate.variant + ": " + g.error());
      gemms.emplace_back();
      continue;
    }
    if (cpu) cpu->add(*g, per_variant);
    gemms.emplace_back(std::move(*g));
  }
  if (cpu) cpu->measure();
  bool all_gpu = b.gpu;
  for (std::size_t i = 0; i < out.variants.size(); ++i) {
    if (!gemms[i]) continue;
    BenchResult& r = out.variants[i].timing.emplace();
    r.gemms = std::move(*gemms[i]);
    if (cpu) r.cpu = cpu->result(r.gemms);
    if (b.gpu) {
      r.gpu = gpu_gemm_bench(r.gemms, b, r.gpu_status);
      all_gpu = all_gpu && r.gpu && r.gpu->errors.empty();
    } else {
      r.gpu_status = gpu_device().status;
    }
  }
  out.timed_on = all_gpu ? "gpu" : "cpu";
  for (AlignmentVariant& v : out.variants) {
    if (!v.timing) continue;
    if (const auto& r = all_gpu ? v.timing->gpu : v.timing->cpu; r && r->errors.empty()) {
      v.budget_seconds = training_gemm_seconds(*r, v.timing->gemms, v.candidate.suggestion.tokens.value());
    }
  }
  const double base = out.variants.front().budget_seconds;
  for (AlignmentVariant& v : out.variants) {
    v.speedup = v.budget_seconds > 0 ? base / v.budget_seconds : 0;
  }
  // Fastest in-band variant; the proposal wins ties. Untimed, the lowest loss wins.
  for (std::size_t i = 0; i < out.variants.size(); ++i) {
    if (out.variants[i].loss_change <= 0) out.chosen = i;
  }
  if (out.variants.front().in_band) out.chosen = 0;
  for (std::size_t i = 0; i < out.variants.size(); ++i) {
    const AlignmentVariant& v = out.variants[i];
    const AlignmentVariant& c = out.variants[out.chosen];
    if (v.in_band && v.budget_seconds > 0 &&
        (c.budget_seconds <= 0 || v.budget_seconds < c.budget_seconds)) {
      out.chosen = i;
    }
  }
  return out;
}

}  // namespace moeplan
