#pragma once
/// Reading model configs (TOML, schema "moeplan-model/1", docs/model-schema.md) with
/// errors that name file:line:column, key and reason.
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

std::expected<ModelConfig, InputError> parse_model_config(std::string_view toml_text,
                                                          std::string source_name);

/// A path to a TOML file, a HuggingFace config.json (name ending in ".json", read by
/// parse_hf_config_json in hf_config.hpp), or the name of an embedded preset (presets/models/NAME.toml)
/// when no such file exists.
std::expected<ModelConfig, InputError> load_model_config(const std::string& path_or_preset);

/// Names of the embedded model presets, sorted.
std::vector<std::string> model_preset_names();

}  // namespace moeplan
