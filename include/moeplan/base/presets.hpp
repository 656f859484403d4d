#pragma once
/// Preset files compiled into the binary (cmake/EmbedFiles.cmake).
#include <optional>
#include <string_view>
#include <vector>

namespace moeplan {

struct EmbeddedFile {
  std::string_view path;  ///< relative to presets/, e.g. "laws/holistic.toml"
  std::string_view text;
};

namespace detail {
const std::vector<EmbeddedFile>& embedded_files();
}

/// All embedded presets, sorted by path.
const std::vector<EmbeddedFile>& embedded_presets();
/// The text of one embedded preset, or nullopt.
std::optional<std::string_view> find_embedded_preset(std::string_view path);

}  // namespace moeplan
