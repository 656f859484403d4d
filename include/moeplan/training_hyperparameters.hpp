#pragma once
/// Learning rate and batch size from the papers' hyper-parameter laws.
#include "moeplan/holistic_laws.hpp"

namespace moeplan {

/// Paper 002 Table 4: learning rate and batch size per compute scale, interpolated in
/// log10 C (piecewise-linear) and held at the end rows outside 1e18–3e20.
struct HolisticTrainingSchedule {
  LogSchedule learning_rate;
  LogSchedule batch_size;  ///< sequences of S tokens (our reading; see the preset)
  [[nodiscard]] bool empty() const { return learning_rate.points.empty(); }
};

}  // namespace moeplan
