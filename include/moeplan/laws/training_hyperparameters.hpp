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

/// Where a run's learning rate and batch size come from.
enum class HyperparameterSource {
  holistic_table4,    ///< paper 002 Table 4, C inside its rows (1e18..3e20), log-C interpolated
  leverage_eq5,       ///< paper 000 Eq. 5 (η_opt, B_opt in tokens), C outside Table 4's rows
};

/// What the laws give one training run (a config with a budget): the learning rate and
/// batch size at its C = M·D, and D/S sequences. All empty without a budget. Inside Table
/// 4's rows they are paper 002's (the family's own schedule); past them Table 4 would hold
/// its end row (288 sequences at 3e20 for a 3.6e24 run), so paper 000 Eq. 5 takes over: it
/// is a law of C, fitted on MoE models (3e17..3e20) and meant to be extrapolated.
struct TrainingHyperparameters {
  std::optional<double> learning_rate;         ///< at C (source below)
  std::optional<long long> global_batch_size;  ///< sequences of S at C (source below)
  HyperparameterSource source = HyperparameterSource::holistic_table4;
  std::optional<long long> train_samples;      ///< D / S, sequences
  std::optional<double> compute;               ///< C = M·D (FLOPs), what the schedule is read at
};

}  // namespace moeplan
