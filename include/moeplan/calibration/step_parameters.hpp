#pragma once
/// The step model's fitted quantities (docs/calibration.md): each a StepTimeOptions field, a
/// flag of suggest, score and plot, and a parameter `moeplan fit steps.csv` can fit, within
/// physical bounds. One table, so the flag, the fit and the profile name a quantity alike.
#include <span>
#include <string>
#include <string_view>

#include "moeplan/cluster/step_time.hpp"

namespace moeplan::calibration {

struct StepParameter {
  std::string_view name;     ///< as the profile and --fit-params spell it
  std::string_view flag;     ///< the command-line flag that sets it
  double lower = 0, upper = 1;  ///< physical bounds of the fit
  std::string_view meaning;
  double (*get)(const StepTimeOptions&);
  void (*set)(StepTimeOptions&, double);
};

/// Every fittable quantity, in the order fits and profiles list them.
std::span<const StepParameter> step_parameters();
/// nullptr when no parameter has that name.
const StepParameter* find_step_parameter(std::string_view name);
/// "gemm_efficiency, fp8_gemm_efficiency, ..." for messages.
std::string step_parameter_names();

}  // namespace moeplan::calibration
