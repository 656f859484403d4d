#pragma once
/// Reading a holistic-laws preset (TOML) with errors that name file:line:column and key.
#include <expected>
#include <string>
#include <string_view>

#include "moeplan/errors.hpp"
#include "moeplan/holistic_laws.hpp"

namespace moeplan {

/// Parses and validates a laws preset; `source_name` is used in error messages.
std::expected<HolisticLaws, InputError> parse_holistic_laws(std::string_view toml_text,
                                                            std::string source_name);

/// Reads a laws file from disk (for --laws).
std::expected<HolisticLaws, InputError> load_holistic_laws_file(const std::string& path);

/// The embedded default (presets/laws/holistic.toml). A broken embedded preset is a
/// build defect; the test suite parses it, so this never fails in a tested build.
const HolisticLaws& builtin_holistic_laws();

}  // namespace moeplan
