#pragma once
/// The non-softmax token mixers of hybrid models, one layer each, counted exactly as the
/// model's modeling code builds them (each function cites it). Family readers call these with
/// the config's keys; the LinearMixer they return is what every count reads.
#include "moeplan/model/layer_pattern.hpp"

namespace moeplan {

/// A layer that replaces attention by one d x d linear map (Nemotron-NAS replace_with_linear).
LinearMixer linear_replacement_mixer(int hidden_size);

}  // namespace moeplan
