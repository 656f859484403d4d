#pragma once
/// Learning rate and batch size from the papers' hyper-parameter laws.
#include <optional>

#include "moeplan/laws/holistic_laws.hpp"

namespace moeplan {

/// Paper 002 Table 4: learning rate and batch size per compute scale, interpolated in
/// log10 C (piecewise-linear) and held at the end rows outside 1e18–3e20.
struct HolisticTrainingSchedule {
  LogSchedule learning_rate;
  LogSchedule batch_size;  ///< sequences of S tokens (our reading; see the preset)
  [[nodiscard]] bool empty() const { return learning_rate.points.empty(); }
};

/// What the schedule gives one training run (a config with a budget): Table 4's learning
/// rate and batch size at its C = M·D, and D/S sequences. All empty without a budget.
struct TrainingHyperparameters {
  std::optional<double> learning_rate;         ///< Table 4 "Learning Rate" at C (log-C interp.)
  std::optional<long long> global_batch_size;  ///< Table 4 "Batch Size" at C, sequences of S
  std::optional<long long> train_samples;      ///< D / S, sequences
  std::optional<double> compute;               ///< C = M·D (FLOPs), what the schedule is read at
};

}  // namespace moeplan
