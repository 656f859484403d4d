// Reading laws presets: the embedded one, and every class of bad file.
#include <doctest/doctest.h>

#include "text_edit.hpp"

#include <algorithm>
#include <string>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/base/presets.hpp"

using namespace moeplan;
using test_text::line_of;
using test_text::replaced;

namespace {
std::string embedded() { return std::string(*find_embedded_preset("laws/holistic.toml")); }

}  // namespace

TEST_CASE("the embedded holistic preset parses and carries the paper's settings") {
  auto laws = parse_holistic_laws(embedded(), "holistic.toml");
  REQUIRE_MESSAGE(laws.has_value(), laws.error().to_string());
  CHECK(laws->name == "holistic-002");
  CHECK(laws->heads.size() == 6);
  CHECK(laws->family_defaults.seq_len == 8192);
  CHECK(laws->family_defaults.n_experts == 288);
  CHECK(laws->family_defaults.top_k == 8);
  CHECK(laws->family_defaults.n_shared_experts == 1);
  CHECK(laws->family_defaults.dense_ffn_ratio == 3.0);
  CHECK(laws->alignment == 8);
  CHECK_FALSE(laws->d_law.has_value());
}

TEST_CASE("bad laws files name the file, line, key and reason") {
  const std::string good = embedded();
  struct Case {
    const char* what;
    std::string text;
    const char* key;
    const char* reason;
    const char* line_of;  // text whose line the error must point at
  };
  const Case cases[] = {
      {"negative coefficient", replaced(good, "m_exponent = 0.5437012", "m_exponent = -1"),
       "compute_optimal.m_exponent", "must be positive", "m_exponent = -1"},
      {"string for a number", replaced(good, "top_k = 8 ", "top_k = \"8\" "),
       "architecture.top_k", "must be an integer", "top_k = \"8\""},
      {"typo in a key", replaced(good, "n_experts = 288", "n_expert = 288"),
       "architecture.n_expert", "unknown key", "n_expert = 288"},
      {"missing key", replaced(good, "d_exponent = 0.45629995", ""),
       "compute_optimal.d_exponent", "missing number", "[compute_optimal]"},
      {"non-increasing schedule", replaced(good, "[3e18, 20.0]", "[1e18, 20.0]"),
       "n_over_na.schedule", "strictly increasing", "[1e18, 20.0]"},
      {"wrong schema", replaced(good, "moeplan-laws/1", "moeplan-laws/9"), "schema",
       "expected", "schema = "},
      {"top_k >= n_experts", replaced(good, "top_k = 8 ", "top_k = 300 "),
       "architecture.top_k", "below n_experts", "[architecture]"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    auto r = parse_holistic_laws(c.text, "my-laws.toml");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().source == "my-laws.toml");
    CHECK(r.error().key == c.key);
    CHECK(r.error().reason.find(c.reason) != std::string::npos);
    CHECK(r.error().line == line_of(c.text, c.line_of));
    CHECK(r.error().to_string().find("my-laws.toml:") == 0);
  }
}

TEST_CASE("TOML syntax errors carry line and column") {
  auto r = parse_holistic_laws("schema = \"moeplan-laws/1\"\nname = \n", "broken.toml");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().line == 2);
  CHECK(r.error().column > 0);
}

TEST_CASE("a missing file is an error naming it") {
  auto r = load_holistic_laws_file("/nonexistent/laws.toml");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().to_string() == "/nonexistent/laws.toml: cannot open file");
}
