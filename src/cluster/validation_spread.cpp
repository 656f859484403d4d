#include "moeplan/cluster/validation_spread.hpp"

#include <stdexcept>

#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {

namespace {

// An embedded spread preset (a malformed one is a build defect and throws).
ValidationSpread read_spread(std::string_view path, ValidationSpread::Kind kind) {
  const auto text = find_embedded_preset(path);
  if (!text) throw std::logic_error("embedded preset missing: " + std::string(path));
  auto doc = parse_toml(*text, "<embedded:" + std::string(path) + ">");
  if (!doc) throw std::logic_error(doc.error().to_string());
  ValidationSpread s;
  s.kind = kind;
  s.runs = static_cast<int>((*doc)["runs"].value<std::int64_t>().value_or(0));
  s.speed_ratio_min = (*doc)["speed_ratio_min"].value<double>().value_or(0);
  s.speed_ratio_max = (*doc)["speed_ratio_max"].value<double>().value_or(0);
  s.source = (*doc)["source"].value<std::string>().value_or("");
  if (s.runs <= 0 || !(s.speed_ratio_min > 0) || !(s.speed_ratio_max >= s.speed_ratio_min)) {
    throw std::logic_error("embedded preset " + std::string(path) + ": runs, speed_ratio_min <= speed_ratio_max");
  }
  return s;
}

}  // namespace

const ValidationSpread& step_model_validation_spread() {
  static const ValidationSpread spread = read_spread("hardware/step_model_validation.toml", ValidationSpread::Kind::step_model);
  return spread;
}

const ValidationSpread& whole_training_validation_spread() {
  static const ValidationSpread spread = read_spread("hardware/whole_training_validation.toml", ValidationSpread::Kind::whole_training);
  return spread;
}

}  // namespace moeplan
