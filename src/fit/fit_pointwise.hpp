#pragma once
// Pointwise laws (one prediction per run): the model, its search space, and how the fitted
// search-space point maps back to the papers' coefficients and derived optima.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "moeplan/fit/fit_engine.hpp"
#include "moeplan/fit/fit_laws.hpp"

namespace moeplan::fit {

struct Named {
  std::string name;
  std::string description;
};

/// A derived value's name, and its law's domain.
struct DerivedName {
  std::string name;
  std::string description;
  /// "" when `value` (computed from `coefficients`) is a value of the
  /// law's own domain, else why it is not (an S_opt outside [0, 1], an N_a/N above 1, a
  /// stationary point that is a maximum). Such a value is reported as null with the reason.
  std::function<std::string(double value, const std::vector<double>& coefficients)> domain;
};

struct PointwiseLaw {
  std::unique_ptr<Model> model;
  std::vector<double> target;
  std::vector<Parameter> parameters;
  Method method = Method::huber_lbfgs;
  ResidualSpace space = ResidualSpace::log;
  std::vector<Named> coefficient_names;  ///< published names, in order
  /// θ (search space) → published coefficients.
  std::function<std::vector<double>(const std::vector<double>& theta)> coefficients;
  std::vector<DerivedName> derived_names;
  /// published coefficients → derived optima (NaN where undefined).
  std::function<std::vector<double>(const std::vector<double>& coefficients)> derived;
  /// (coefficients, derived) → laws TOML sections ("" when the planner reads none).
  std::function<std::string(const std::vector<double>&, const std::vector<double>&)> planner_toml;
};

/// Builds the pointwise law `kind` on the table's rows (columns already validated).
PointwiseLaw make_pointwise_law(LawKind kind, const RunTable& table, const FitSettings& settings);

}  // namespace moeplan::fit
