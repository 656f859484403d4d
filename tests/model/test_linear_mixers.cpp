// src/model/linear_mixers.cpp: Nemotron-NAS's replace_with_linear layer, one d x d map.
#include <doctest/doctest.h>

#include "moeplan/model/linear_mixers.hpp"

using namespace moeplan;

TEST_CASE("linear replacement mixer: d^2 matrix parameters, nothing beside them, no state") {
  const LinearMixer x = linear_replacement_mixer(8192);
  CHECK(x.kind == "linear");
  CHECK(x.matrix_params == 8192.0 * 8192.0);  // nn.Linear(d, d, bias=False)
  CHECK(x.other_params == 0);
  CHECK(x.state_flops == 0);
  CHECK(x.decode_state_bytes == 0.0);  // a per-token map carries nothing between steps
}
