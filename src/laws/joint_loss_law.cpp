#include "moeplan/laws/joint_loss_law.hpp"

#include <cmath>

namespace moeplan {

double JointLossLaw::structure(double G, double S) const {
  return e * G + f / G + m * S * S + n * S;
}

double JointLossLaw::size_factor(Params N, Params N_a) const {
  return 1.0 / std::pow(N.value(), alpha) + k / std::pow(N_a.value(), alpha) +
         h * N_a.value() / N.value();
}

double JointLossLaw::loss(Params N, Tokens D, Params N_a, double G, double S) const {
  return structure(G, S) * size_factor(N, N_a) + a / std::pow(N.value(), alpha) +
         b / std::pow(D.value(), beta) + c / std::pow(N_a.value(), alpha) + epsilon;  // Eq. 11
}

double JointLossLaw::optimal_active_experts() const { return std::sqrt(f / e); }  // Eq. 12

double JointLossLaw::optimal_shared_ratio() const { return -n / (2.0 * m); }  // Eq. 13

double JointLossLaw::theoretical_active_ratio(Params N, double G, double S) const {
  const double A = structure(G, S);  // Eq. 29
  return std::pow(alpha * (k * A + c) / (h * std::pow(N.value(), alpha) * A), 1.0 / (alpha + 1.0));
}

std::optional<double> JointLossLaw::efficiency_aware_active_ratio(Params N, double G, double S,
                                                                  double threshold,
                                                                  double step_fraction,
                                                                  int max_steps) const {
  // Algorithm 1. D only adds b/D^β, which cancels in every difference, so any D works.
  const Tokens D(1e12);
  const double step = step_fraction * N.value();
  double previous = step;
  double previous_loss = loss(N, D, Params(previous), G, S);
  for (int i = 1; i <= max_steps; ++i) {
    const double current = previous + step;
    const double current_loss = loss(N, D, Params(current), G, S);
    if (previous_loss - current_loss < threshold) {
      return current / N.value();
    }
    previous = current;
    previous_loss = current_loss;
  }
  return std::nullopt;
}

ClosedRange JointLossLaw::practical_active_experts(Params N, Params N_a, double threshold) const {
  // (e·G + f/G − 2√(ef))·B ≤ threshold  ⇔  e·G² − (2√(ef) + t)·G + f ≤ 0,  t = threshold/B.
  const double t = threshold / size_factor(N, N_a);
  const double q = 2.0 * std::sqrt(e * f) + t;
  const double root = std::sqrt(q * q - 4.0 * e * f);
  return {(q - root) / (2.0 * e), (q + root) / (2.0 * e)};
}

ClosedRange JointLossLaw::practical_shared_ratio(Params N, Params N_a, double threshold) const {
  // m·(S − S_opt)²·B ≤ threshold.
  const double half = std::sqrt(threshold / (m * size_factor(N, N_a)));
  const double s = optimal_shared_ratio();
  return {s - half, s + half};
}

JointLossLaw::FixedSizeOptimum JointLossLaw::optimum_at_fixed_total(double C, Params N, double G,
                                                                   double S) const {
  // Appendix G, Eq. 30: L(N_a) at D = C/N_a is unimodal in log N_a (Eq. 31 has one root),
  // so a golden-section search on log N_a ∈ [log 1, log N] finds N_a*.
  const auto at = [&](double log_na) {
    const double na = std::exp(log_na);
    return loss(N, Tokens(C / na), Params(na), G, S);
  };
  double lo = 0.0, hi = std::log(N.value());
  constexpr double k_golden = 0.6180339887498949;
  double x1 = hi - k_golden * (hi - lo), x2 = lo + k_golden * (hi - lo);
  double f1 = at(x1), f2 = at(x2);
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    if (f1 < f2) {
      hi = x2; x2 = x1; f2 = f1; x1 = hi - k_golden * (hi - lo); f1 = at(x1);
    } else {
      lo = x1; x1 = x2; f1 = f2; x2 = lo + k_golden * (hi - lo); f2 = at(x2);
    }
  }
  const double best = 0.5 * (lo + hi);
  return {Params(std::exp(best)), at(best)};
}

ClosedRange snap_inward(const ClosedRange& r, double step) {
  // A tiny slack keeps grid points that sit on the bound (to rounding) inside.
  constexpr double k_slack = 1e-9;
  return {std::ceil(r.lo / step - k_slack) * step, std::floor(r.hi / step + k_slack) * step};
}

}  // namespace moeplan
