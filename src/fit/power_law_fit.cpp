#include "moeplan/fit/power_law_fit.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace moeplan {

std::expected<PowerLaw, std::string> fit_power_law(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size() || x.size() < 2) {
    return std::unexpected("a power law needs at least two (x, y) pairs");
  }
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd design(n, 2);
  Eigen::VectorXd rhs(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!(x[k] > 0) || !(y[k] > 0)) {
      return std::unexpected("a power law needs x > 0 and y > 0 (it is fitted in log-log space)");
    }
    design(i, 0) = 1.0;
    design(i, 1) = std::log(x[k]);
    rhs(i) = std::log(y[k]);
  }
  // Rank-revealing QR: a single distinct x gives rank 1, which is an error, not a fit.
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(design);
  if (qr.rank() < 2) {
    return std::unexpected("a power law needs at least two distinct x values");
  }
  const Eigen::Vector2d beta = qr.solve(rhs);
  return PowerLaw{std::exp(beta(0)), beta(1)};
}

std::expected<MOverNaLaw, std::string> derive_m_over_na_law(std::span<const double> compute,
                                                            std::span<const double> m_over_na) {
  std::vector<double> share;
  share.reserve(m_over_na.size());
  for (double x : m_over_na) {
    if (!(x > 6.0)) {
      return std::unexpected(
          fmt::format("every per-scale optimum M/N_a must exceed 6 (paper 002 Eq. 5); one is {:g}", x));
    }
    share.push_back(1.0 - 6.0 / x);
  }
  auto law = fit_power_law(compute, share);
  if (!law) return std::unexpected(law.error());
  return MOverNaLaw{*law};
}

}  // namespace moeplan
