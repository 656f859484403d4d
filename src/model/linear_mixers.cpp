#include "moeplan/model/linear_mixers.hpp"

#include <string>

namespace moeplan {

LinearMixer linear_replacement_mixer(int hidden_size) {
  // DeciLM (Nemotron-NAS) replace_with_linear: nn.Linear(d, d, bias=False) in place of
  // attention; no sequence mixing, so no state FLOPs.
  const double d = hidden_size;
  LinearMixer x;
  x.kind = "linear";
  x.matrix_params = d * d;
  x.source = "replace_with_linear: one d x d projection (DeciLM)";
  x.decode_state_bytes = 0;  // a per-token map: nothing carried between steps
  return x;
}

}  // namespace moeplan
