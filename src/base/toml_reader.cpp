#include "moeplan/base/toml_reader.hpp"

#include "moeplan/base/bounded_read.hpp"

namespace moeplan {

std::expected<toml::table, InputError> parse_toml(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return std::unexpected(InputError{source, static_cast<int>(e.source().begin.line),
                                      static_cast<int>(e.source().begin.column), "",
                                      std::string(e.description())});
  }
}

std::expected<std::string, InputError> read_file(const std::string& path) {
  return read_bounded(path, k_max_config_bytes, "a laws file, model TOML or config.json");
}

}  // namespace moeplan
