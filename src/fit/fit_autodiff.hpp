#pragma once
// A law written once, as a template over its scalar type, gives both the plain prediction
// (double) and its exact gradient (Eigen's forward-mode AutoDiffScalar with a fixed-size
// derivative vector): no hand-derived gradients to drift from the formula.
#include <array>
#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "moeplan/fit/fit_engine.hpp"

namespace moeplan::fit {

/// `Law` provides `static constexpr int parameters`, `static constexpr int inputs` and
/// `template <class T> T operator()(const T* theta, const double* x) const`.
template <class Law>
class AutoDiffModel : public Model {
 public:
  static constexpr int P = Law::parameters;
  static constexpr int K = Law::inputs;

  explicit AutoDiffModel(std::vector<double> features, Law law = {})
      : x_(std::move(features)), law_(law) {}

  [[nodiscard]] std::size_t rows() const override { return x_.size() / K; }
  [[nodiscard]] std::size_t parameter_count() const override { return P; }

  double predict(const double* theta, std::size_t i, double* grad) const override {
    const double* x = &x_[i * K];
    if (grad == nullptr) return law_(theta, x);
    using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, P, 1>>;
    std::array<AD, P> t;
    for (int j = 0; j < P; ++j) t[static_cast<std::size_t>(j)] = AD(theta[j], P, j);
    const AD y = law_(t.data(), x);
    for (int j = 0; j < P; ++j) grad[j] = y.derivatives()(j);
    return y.value();
  }

 protected:
  std::vector<double> x_;  // row-major, K features per row
  Law law_;
};

}  // namespace moeplan::fit
