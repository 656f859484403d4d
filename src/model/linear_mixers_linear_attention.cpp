// Linear-attention mixers (gated DeltaNet, lightning attention, KDA), one layer each.
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan {}  // namespace moeplan
