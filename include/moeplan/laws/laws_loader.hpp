#pragma once
/// Reading laws presets (TOML) with errors that name file:line:column and key.
/// Schema: docs/laws-schema.md. Every top-level table is one law section; unknown keys
/// are errors, so a typo never falls back to a default silently.
#include <expected>
#include <string>
#include <string_view>

#include "moeplan/base/errors.hpp"
#include "moeplan/laws/holistic_laws.hpp"
#include "moeplan/laws/law_set.hpp"

namespace moeplan {

/// Parses a laws file and overlays each section it holds on `base`.
std::expected<LawSet, InputError> parse_laws(std::string_view toml_text, std::string source_name,
                                             const LawSet& base);

/// Reads a laws file from disk (for --laws) and overlays it on `base`.
std::expected<LawSet, InputError> load_laws_file(const std::string& path, const LawSet& base);

/// The embedded laws, overlaid by the file at `path` unless `path` is empty (`--laws`).
std::expected<LawSet, InputError> laws_with_overlay(const std::string& path);

/// The built-in set: presets/laws/*.toml overlaid in a fixed order. A broken embedded
/// preset is a build defect; the test suite parses every one.
const LawSet& builtin_laws();

/// A complete paper-002 file: every holistic section must be present.
std::expected<HolisticLaws, InputError> parse_holistic_laws(std::string_view toml_text,
                                                            std::string source_name);
std::expected<HolisticLaws, InputError> load_holistic_laws_file(const std::string& path);
const HolisticLaws& builtin_holistic_laws();

}  // namespace moeplan
