#pragma once
// What the config.json tests share: the fixtures' folder, a fixture as JSON, and `score` of a
// config file or of an edited document, as the command line runs it.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace hf_scoring {

using nlohmann::json;

inline const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

/// `score PATH --format json`, required to succeed: its first report.
inline json score_of(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

inline json fixture(const std::string& file) { return json::parse(std::ifstream(k_hf + file)); }

/// `score` of `doc` written to a temporary file of its own, `name` (ctest runs the test cases
/// in parallel processes).
inline Run score_doc(const json& doc, const std::string& name) {
  const auto path = temp_path(name);
  std::ofstream(path) << doc.dump(2);
  Run r = run_moeplan({"score", path.string(), "--format", "json"});
  std::filesystem::remove(path);
  return r;
}

/// The fixture changed by `edit`, scored: refused with exit 4 and `key` named in the message.
template <class Edit>
void check_refused(const std::string& file, const std::string& key, Edit edit) {
  json doc = fixture(file);
  edit(doc);
  const Run r = score_doc(doc, "refused-" + key + "-" + file);
  CAPTURE(file);
  CAPTURE(key);
  CAPTURE(r.err);
  CHECK(r.code == 4);
  CHECK(r.out.empty());
  // A key inside text_config is named with its prefix ("text_config.num_experts").
  CHECK((r.err.find(": " + key + ":") != std::string::npos || r.err.find(": text_config." + key + ":") != std::string::npos));
}

}  // namespace hf_scoring
