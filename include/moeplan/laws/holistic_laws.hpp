#pragma once
/// The coefficient set that drives the holistic pipeline of paper 002 Sec. 7.
/// Laws are data: the values come from presets/laws/holistic.toml (embedded) or a
/// user file given with --laws; nothing here hard-codes a coefficient.
#include <optional>
#include <string>
#include <vector>

#include "moeplan/model/architecture.hpp"
#include "moeplan/laws/compute_optimal.hpp"

namespace moeplan {

/// Optimal M/N_a as a function of C (paper 002 Fig. 5b). Stored as a power law in the
/// attention-score FLOP share s = 1 − 6·N_a/M = M_attn/M (Eq. 3, Eq. 12):
///   s(C) = a·C^b,   M/N_a = 6 / (1 − s(C)).
/// This form keeps M/N_a > 6 (Eq. 5) wherever 0 < s < 1; see the preset for why.
struct MOverNaLaw {
  PowerLaw score_share;
  /// M/N_a at C, or nullopt where s(C) ∉ (0, 1) (the law has no valid value there).
  [[nodiscard]] std::optional<double> at(double C) const;
};

/// Piecewise-linear in log10(C) through (C, value) points, held flat outside them.
struct LogSchedule {
  std::vector<std::pair<double, double>> points;  ///< sorted by C
  [[nodiscard]] double at(double C) const;
};

/// One row of paper 002 Table 4: attention shape used at a compute scale.
struct HeadScheduleEntry {
  double compute = 0;  ///< C (FLOPs)
  AttentionHeads heads;
};

/// Rule for budgets above the last Table 4 row (the table stops at 3e20).
struct HeadExtrapolation {
  int d_qkv = 128;    ///< largest head size of Table 4
  int q_per_kv = 2;   ///< GQA ratio N_q/N_kv = 2 (paper 002 Sec. 3.4)
  int min_n_q = 16;   ///< never fewer query heads than the last table row
  int max_n_q = 1024;
};

/// Credible aspect ratios d/L: a plan outside is refused (exit 3) rather than printed.
struct AspectBounds {
  double min = 16;
  double max = 512;
};

struct HolisticLaws {
  std::string name;    ///< e.g. "holistic-002"
  ComputeOptimalLaw compute_optimal;       ///< Eq. 2
  MOverNaLaw m_over_na;                    ///< Fig. 5b, derived from Tables 16–21
  LogSchedule n_over_na;                   ///< Appendix F.4 manual choices
  std::vector<HeadScheduleEntry> heads;    ///< Table 4, sorted by compute
  HeadExtrapolation head_extrapolation;
  std::optional<PowerLaw> d_law;           ///< d_opt(C), Fig. 6b; absent in the paper's text
  double fitted_compute_min = 0;           ///< smallest C the laws were fitted on (FLOPs)
  double fitted_compute_max = 0;           ///< largest C the laws were fitted on (FLOPs)
  ArchitectureFamily family_defaults;      ///< Sec. 3.4 / 4.2.2 fixed settings
  int alignment = 0;                       ///< d and d_m multiples (Table 4 note: 2^3..2^5; [architecture])
  double tolerance = 0;                    ///< max |relative error| of M, N_a, N (Table 4 note; [architecture])
  AspectBounds d_over_l;                   ///< [credible_shape]: plans outside are refused
  double ranking_d_window = 0.10;          ///< [ranking]: |d/d_target − 1| a variant may move
};

}  // namespace moeplan
