#include "moeplan/laws/allocation_law.hpp"

#include <cmath>

namespace moeplan {

double OptimalRatioLaw::alpha(double sparsity) const {
  return alpha_of_active_fraction(1.0 - sparsity);  // α_r(S), Sec. 3.3
}

double OptimalRatioLaw::beta(double sparsity) const {
  return beta_of_active_fraction(1.0 - sparsity);  // β_r(S), Sec. 3.3
}

double OptimalRatioLaw::optimal_ratio(Flops C, double sparsity) const {
  return alpha(sparsity) * std::pow(C.value(), beta(sparsity));  // Eq. 1
}

double AllocationLossLaw::loss(Params N, Tokens D, double S, double r, double R) const {
  return a / std::pow(N.value(), alpha) + b / std::pow(D.value(), beta) +
         c * std::exp(R * std::pow(1.0 - S, gamma)) / std::pow(N.value(), lambda) +
         d * r / (r + 1.0) + tau;  // Eq. 2
}

}  // namespace moeplan
