#pragma once
/// The spread of the step model against published runs (docs/validation.md), as data: the
/// embedded preset presets/hardware/step_model_validation.toml. Time figures carry the range it
/// gives (issue 34, "honest figures"): predicted days x [speed_ratio_min, speed_ratio_max].
#include <string>

namespace moeplan {

struct ValidationSpread {
  /// Whose runs it spreads: the step model's validation runs (step_model_validation_spread),
  /// the published whole trainings, which the wall days carry (whole_training_validation_spread),
  /// or a --step-profile's left-out runs (its fit's band, a profile file's); the report words
  /// each as its own.
  enum class Kind { step_model, whole_training, profile };
  Kind kind = Kind::profile;
  int runs = 0;
  double speed_ratio_min = 1;  ///< predicted speed / published speed, the least of the runs
  double speed_ratio_max = 1;  ///< the largest
  std::string source;
  /// The days a run predicted to take `days` took in the validation runs: [low, high].
  [[nodiscard]] double days_low(double days) const { return days * speed_ratio_min; }
  [[nodiscard]] double days_high(double days) const { return days * speed_ratio_max; }
};

/// The embedded spread (read once; a malformed preset is a build defect and throws).
const ValidationSpread& step_model_validation_spread();

/// The spread of whole trainings (issue 48's training class, presets/hardware/
/// whole_training_validation.toml): published over predicted GPU-hours of the published whole
/// trainings of bench/validation/trainings.csv. The wall days of the training section carry it.
const ValidationSpread& whole_training_validation_spread();

}  // namespace moeplan
