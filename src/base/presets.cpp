#include "moeplan/base/presets.hpp"

namespace moeplan {

const std::vector<EmbeddedFile>& embedded_presets() { return detail::embedded_files(); }

std::optional<std::string_view> find_embedded_preset(std::string_view path) {
  for (const EmbeddedFile& f : detail::embedded_files()) {
    if (f.path == path) {
      return f.text;
    }
  }
  return std::nullopt;
}

}  // namespace moeplan
