#pragma once
/// Fitting the step model to measured steps (docs/calibration.md): each measured run a
/// StepCase (a model on a cluster in a layout, with the options its flags set), the
/// parameters of step_parameters.hpp fitted within their bounds by Huber on the log
/// residuals with dlib's optimisers, as the laws' fits; a bootstrap interval per parameter;
/// every row predicted from a fit on the others (leave-one-out), whose spread is the band a
/// profile's time figures carry.
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/cluster/validation_spread.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan::calibration {

/// One measured run.
struct StepCase {
  std::string id;  ///< where it came from, for messages ("steps.csv:3")
  ModelConfig model;
  ParameterCounts counts;
  Cluster cluster;
  ParallelLayout layout;
  StepTimeOptions options;  ///< as the run's flags set them (seq_len set), defaults elsewhere
  /// Parameters the run's own flags set (--load-imbalance 1 of a forced-balance run): held at
  /// the run's value for this run, fitted on the others.
  std::vector<std::string> fixed;
  double measured_step_seconds = 0;
  /// Measured seconds of single terms (a profiler's or Megatron's timers), by StepTerm name:
  /// each its own residual.
  std::vector<std::pair<std::string, double>> measured_terms;
  /// Not fitted on: predicted from the fit on the others (a check the user holds back).
  bool held_out = false;
  // Provenance: what the profile says it was fitted on.
  std::string gpu, precision, dispatcher;
};

struct StepFitSettings {
  /// The parameters to fit; empty: the GEMM efficiency of each precision the runs use (those
  /// some run exercises; a parameter no run moves is not fitted, with a warning).
  std::vector<std::string> parameters;
  double huber_delta = 0.1;    ///< on log residuals: errors past 10 % count linearly
  std::size_t bootstrap = 100;  ///< resamples of the runs for the intervals (0: none)
  double confidence = 0.9;
  std::uint64_t seed = 1;
  std::function<void(std::string_view stage, std::size_t done, std::size_t total)> progress;
};

struct FittedParameter {
  std::string name;
  double start = 0;      ///< the default (or the runs' flags') value the fit started from
  double value = 0;
  std::optional<double> low, high;  ///< bootstrap percentile interval (none with one run or no bootstrap)
  double lower = 0, upper = 1;      ///< its physical bounds
  bool at_bound = false;            ///< within 1 % of the range of a bound
};

struct FittedRun {
  std::string id;
  bool held_out = false;          ///< not fitted on: `predicted` is a prediction
  double measured = 0;            ///< step seconds
  double predicted_default = 0;   ///< with the start values
  double predicted = 0;           ///< with the fitted values
  /// Fitted on the other runs (leave-one-out; past 20 runs, on the other folds of 20-fold
  /// cross-validation); none with one run, or held out.
  std::optional<double> predicted_left_out;
};

struct StepFit {
  std::vector<FittedParameter> parameters;
  std::vector<FittedRun> runs;
  /// The band a profile's time figures carry: measured speed over predicted... as
  /// ValidationSpread counts it (predicted speed / measured speed), over the left-out
  /// predictions; widened to the model's validation spread where the fit cannot vouch for it.
  ValidationSpread band;
  bool separable = true;  ///< no two parameters correlated past 0.95 in the bootstrap, none at a bound
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
  double objective = 0;
  // What it was fitted on (sorted, unique), and the GPU counts' range.
  std::vector<std::string> gpus, precisions, dispatchers, models;
  int gpus_min = 0, gpus_max = 0;
};

/// Fits; an error (a string naming the run and the reason) when a run or a parameter cannot
/// be fitted: an unknown parameter, a measured term the model gives no time on that layout.
std::expected<StepFit, std::string> fit_step_model(std::span<const StepCase> cases, const StepFitSettings& settings);

/// A run's step seconds with `values` (parameter name, value) laid over its options (its
/// fixed parameters kept).
double predict_step_seconds(const StepCase& c, std::span<const std::pair<std::string, double>> values);

}  // namespace moeplan::calibration
