#pragma once
/// Compute-optimal allocation C → (M_opt, D_opt), paper 002 Eq. 2:
///   D_opt(C) = a_D · C^b_D  (tokens),  M_opt(C) = a_M · C^b_M  (FLOPs/token).
#include "moeplan/laws/power_law.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

struct ComputeOptimalLaw {
  PowerLaw flops_per_token;  ///< M_opt(C), FLOPs/token
  PowerLaw tokens;           ///< D_opt(C), tokens
};

struct ComputeOptimalPoint {
  Flops C;
  FlopsPerToken M;
  Tokens D;
};

ComputeOptimalPoint compute_optimal(const ComputeOptimalLaw& law, Flops C);

}  // namespace moeplan
