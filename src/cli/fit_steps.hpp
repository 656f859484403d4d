#pragma once
// `moeplan fit steps.csv` (--law step): measured steps of the user's own runs, one a row, the
// step model fitted to them, a step profile written (docs/calibration.md).
#include <cstdint>
#include <string>
#include <vector>

#include "command.hpp"
#include "moeplan/fit/runs_csv.hpp"

namespace moeplan::cli {

/// A steps table: a `gpus` column and a measured step (step_seconds, tokens_per_gpu_s or log).
bool is_step_table(const std::vector<std::string>& header);
/// Every column of a steps table, as text (a row is converted where its cells are read).
std::vector<ColumnSpec> step_table_columns(const std::vector<std::string>& header);

struct StepFitRequest {
  std::string csv;             ///< the file, as given
  std::vector<std::string> parameters;  ///< --fit-params
  double huber_delta = 0.1;
  std::size_t bootstrap = 100;
  double confidence = 0.9;
  std::uint64_t seed = 1;
  int skip_iterations = 10;    ///< of a Megatron-LM log
  std::string holdout_column;  ///< --holdout COLUMN: its 1/true/yes/validation rows predicted, not fitted
  std::string out;             ///< --out: the profile
  std::string residuals;       ///< --residuals: per-run CSV
  std::string format = "table";
  std::string output = "-";
};

/// Why --fit-params cannot be used ("" when it can): an empty or unknown name, naming the
/// parameters.
std::string step_parameters_problem(const std::vector<std::string>& names);

/// The time now, UTC, as a fitted file's header says it ("2026-11-28T12:00:00Z").
std::string utc_now();

/// The whole command on a read table: exit status.
int run_fit_steps(const RunTable& table, const StepFitRequest& request, Io& io);

}  // namespace moeplan::cli
