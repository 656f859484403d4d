#include "moeplan/model/layer_pattern.hpp"

namespace moeplan {

std::string_view to_string(MixerKind k) {
  switch (k) {
    case MixerKind::attention: return "attention";
    case MixerKind::linear: return "linear";
    case MixerKind::none: return "none";
  }
  return "?";
}

std::string_view to_string(FfnKind k) {
  switch (k) {
    case FfnKind::dense: return "dense";
    case FfnKind::moe: return "moe";
    case FfnKind::moe_and_dense: return "moe_and_dense";
    case FfnKind::none: return "none";
  }
  return "?";
}

std::optional<MixerKind> mixer_kind_of(std::string_view s) {
  for (MixerKind k : {MixerKind::attention, MixerKind::linear, MixerKind::none}) {
    if (to_string(k) == s) return k;
  }
  return std::nullopt;
}

std::optional<FfnKind> ffn_kind_of(std::string_view s) {
  for (FfnKind k : {FfnKind::dense, FfnKind::moe, FfnKind::moe_and_dense, FfnKind::none}) {
    if (to_string(k) == s) return k;
  }
  return std::nullopt;
}

}  // namespace moeplan
