#include "moeplan/laws/compute_optimal.hpp"

namespace moeplan {

ComputeOptimalPoint compute_optimal(const ComputeOptimalLaw& law, Flops C) {
  // Paper 002 Eq. 2: M_opt = a_M·C^b_M (FLOPs/token), D_opt = a_D·C^b_D (tokens).
  return {C, FlopsPerToken(law.flops_per_token(C.value())), Tokens(law.tokens(C.value()))};
}

}  // namespace moeplan
