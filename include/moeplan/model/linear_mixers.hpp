#pragma once
/// The non-softmax token mixers of hybrid models, one layer each, counted exactly as the
/// model's modeling code builds them (each function cites it). Family readers call these with
/// the config's keys; the LinearMixer they return is what every count reads.
#include "moeplan/model/layer_pattern.hpp"

namespace moeplan {

/// A layer that replaces attention by one d x d linear map (Nemotron-NAS replace_with_linear).
LinearMixer linear_replacement_mixer(int hidden_size);

// ---- state-space and convolution mixers (src/model/linear_mixers_ssm.cpp) ----------------
// (Mamba, Mamba2, short convolutions: Jamba, Granite 4.0, Nemotron-H, LFM2)

// ---- linear attention (src/model/linear_mixers_linear_attention.cpp) ---------------------
// (gated DeltaNet, lightning attention, KDA: Qwen3-Next, MiniMax-Text-01, Kimi-Linear)

}  // namespace moeplan
