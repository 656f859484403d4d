#pragma once
/// The laws `moeplan fit` knows (docs/fit.md): which columns each reads, how the papers fit
/// it, and what it derives. Pointwise laws (one prediction per run) use fit_engine's
/// Huber/L-BFGS or LM; curve laws fit one curve per family or compute scale and then fit
/// power laws through the per-curve results, as paper 000 Algorithm 1 and paper 002 Sec. 5.3
/// and 6 do.
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/fit/fit_engine.hpp"
#include "moeplan/fit/runs_csv.hpp"

namespace moeplan::fit {

enum class LawKind {
  chinchilla,     ///< L(N, D) = E + A/N^α + B/D^β (Hoffmann et al.; paper 001 Eq. 4)
  activation,     ///< paper 001 Eq. 7: L(N, D, N_a) = a/N^α + b/D^β + c/N_a^α + h·N_a/N + ε
  joint,          ///< paper 001 Eq. 11 (Table 2)
  loss_curves,    ///< paper 000 Algorithm 1: L(C) = E + A·C^−α per family, then EL points
  leverage,       ///< paper 000 Eq. 4 fitted to (A, granularity, C, EL) rows (Table 6)
  optimal_ratio,  ///< paper 004 Sec. 3.3: r*(C, S) = α_r(S)·C^β_r(S)
  m_over_na,      ///< paper 002 Sec. 5.3: L = a/(x−6) + b·x + c per scale, x = M/N_a
  hidden_size,    ///< paper 002 Sec. 6: L quadratic in d per scale
};

struct LawInfo {
  LawKind kind;
  std::string name;             ///< --law value
  std::string title;            ///< formula and source
  std::vector<ColumnSpec> columns;
  std::string method;           ///< how it is fitted, in words
  std::string planner_section;  ///< laws TOML section(s) it writes, "" when none
};

const std::vector<LawInfo>& fit_laws();
const LawInfo* find_law(std::string_view name);
const LawInfo& law_info(LawKind kind);

/// The law the columns support (first match in a documented order), or why none does.
std::expected<LawKind, std::string> detect_law(const std::vector<std::string>& header);

struct FitSettings {
  double huber_delta = 1e-3;
  Objective objective = Objective::huber;  ///< huber (default) or huber_nll (fitted scale)
  std::size_t max_starts = 0;          ///< 0: the full grid
  std::size_t max_iterations = 5000;   ///< per optimiser run
  double holdout_fraction = 0;         ///< random validation share (seeded)
  std::string holdout_column;          ///< or a flag column marking validation rows
  std::size_t bootstrap = 0;           ///< resamples for confidence intervals
  double confidence = 0.95;
  std::uint64_t seed = 1;
  std::string dense_family = "dense";  ///< loss-curves: the baseline family
  std::optional<double> reference_params;   ///< N for derived N_a/N optima (default: max N)
  std::optional<double> reference_compute;  ///< C for r* (default: max C)
  double band = 1e-3;                  ///< paper 002's near-optimal band: within 0.1 %
  /// stage ("grid", "bootstrap"), done, total — the CLI's progress bar.
  std::function<void(std::string_view, std::size_t, std::size_t)> progress;
};

/// The columns a law reads (plus the holdout column when one is named).
std::vector<ColumnSpec> columns_for(LawKind law, const FitSettings& settings);

struct Estimate {
  std::string name;
  double value = 0;
  std::optional<double> low, high;  ///< bootstrap percentile interval
  std::string description;
  /// Non-empty: the law's formula gives no value of its own domain here (value is NaN),
  /// and this says why; the report prints null with it.
  std::string undefined_reason = {};
};

struct ResidualRow {
  std::uint32_t line = 0;
  bool validation = false;
  std::string group;
  double observed = 0, predicted = 0;
};

/// One fitted curve of a curve law (a family, or a compute scale).
struct CurveFit {
  std::string group;
  std::size_t rows = 0;
  std::vector<Estimate> coefficients;
  std::vector<Estimate> derived;
  Quality quality;
};

struct FitOutcome {
  const LawInfo* law = nullptr;
  std::string method;                  ///< how it was fitted (the law's method + --starts)
  std::vector<Estimate> coefficients;  ///< published names (e, f, …, alpha, …)
  std::vector<Estimate> derived;       ///< optima and implications
  Quality train;
  std::optional<Quality> validation;
  std::size_t rows = 0, train_rows = 0, validation_rows = 0;
  Solution solution;                   ///< pointwise laws: the optimiser's report
  double constant_model_rmse = 0;      ///< RMSE of predicting the mean (the bar to beat)
  std::vector<CurveFit> curves;        ///< curve laws
  std::vector<std::string> warnings;
  std::vector<ResidualRow> residuals;
  std::size_t bootstrap_done = 0, bootstrap_failed = 0;
  /// Laws TOML sections for `--out` (empty when the law has none the planner reads).
  std::string planner_toml;
  /// loss-curves: EL points (A, granularity, C, EL), ready for `fit --law leverage`.
  std::string el_points_csv;
};

std::expected<FitOutcome, std::string> fit_runs(const RunTable& table, LawKind law,
                                                const FitSettings& settings);

}  // namespace moeplan::fit
