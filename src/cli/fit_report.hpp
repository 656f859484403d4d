#pragma once
/// `moeplan fit` results as a Report (the one data model every format serialises), and
/// the laws TOML `--out` writes.
#include <string>

#include "moeplan/fit/fit_laws.hpp"
#include "report.hpp"

namespace moeplan::cli {

struct FitContext {
  std::string source;        ///< CSV path as given
  std::string md5;           ///< of the CSV's bytes
  std::string law_choice;    ///< "--law" or "detected from the columns"
  const fit::FitSettings* settings = nullptr;
};

Report fit_report(const fit::FitOutcome& outcome, const FitContext& context);

/// A laws file in the preset schema (moeplan-laws/1) with a [provenance] table; empty when
/// the law has no section the planner reads.
std::string fitted_laws_toml(const fit::FitOutcome& outcome, const FitContext& context,
                             const std::string& date_utc);

/// A CSV cell, RFC 4180-quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& v);

/// Per-run residuals as CSV (line, split, group, observed, predicted, residual, relative).
std::string residuals_csv(const fit::FitOutcome& outcome);

}  // namespace moeplan::cli
