#include "moeplan/base/toml_reader.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return std::unexpected(InputError{path, 0, 0, "", "is a directory, not a file"});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::unexpected(InputError{path, 0, 0, "", "cannot open file"});
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return std::unexpected(InputError{path, 0, 0, "", "read error"});
  }
  return text.str();
}

}  // namespace moeplan
