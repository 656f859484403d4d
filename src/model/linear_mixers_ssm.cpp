// State-space and convolution mixers (Mamba, Mamba2, short convolutions), one layer each.
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan {}  // namespace moeplan
