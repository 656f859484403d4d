// src/io/model_loader.cpp: the embedded model presets, and model TOML errors that name the
// file, line, key and reason (moved from tests/planner/test_model_score.cpp).
#include <doctest/doctest.h>

#include "text_edit.hpp"

#include <algorithm>
#include <string>

#include "moeplan/base/presets.hpp"
#include "moeplan/io/model_loader.hpp"

using namespace moeplan;
using test_text::line_of;
using test_text::replaced;

TEST_CASE("the eleven model presets are embedded") {
  const auto names = model_preset_names();
  for (const char* n : {"moe-mini", "dense-6.1b", "gpt-oss-20b", "qwen3-30b-a3b", "hunyuan-a13b",
                        "glm-4.5-air", "gpt-oss-120b", "qwen3-235b-a22b", "glm-4.5",
                        "deepseek-v3.1", "kimi-k2"}) {
    CAPTURE(n);
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  }
}

namespace {
std::string preset_text(const char* name) {
  return std::string(*find_embedded_preset(std::string("models/") + name + ".toml"));
}
}  // namespace

TEST_CASE("bad model files name the file, line, key and reason") {
  const std::string good = preset_text("qwen3-30b-a3b");
  REQUIRE(parse_model_config(good, "m.toml").has_value());
  struct Case {
    const char* what;
    std::string text;
    const char* key;
    const char* reason;
    const char* line_of;
  };
  const Case cases[] = {
      {"typo", replaced(good, "hidden_size =", "hiden_size ="), "model.hiden_size", "unknown key",
       "hiden_size ="},
      {"string for an int", replaced(good, "num_hidden_layers = 48", "num_hidden_layers = \"48\""),
       "model.num_hidden_layers", "must be an integer", "num_hidden_layers = \"48\""},
      {"top-k above experts", replaced(good, "num_experts_per_tok = 8", "num_experts_per_tok = 800"),
       "model.num_experts_per_tok", "must be in [1, n_routed_experts]", "num_experts_per_tok = 800"},
      {"tokens and compute", replaced(good, "[training]", "[training]\ncompute = 1e22"), "training",
       "exactly one of tokens and compute", "[training]"},
      {"negative tokens", replaced(good, "tokens = 36e12", "tokens = -1"), "training.tokens",
       "must be positive", "tokens = -1"},
      {"wrong schema", replaced(good, "moeplan-model/1", "moeplan-model/2"), "schema", "expected",
       "schema ="},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    auto r = parse_model_config(c.text, "m.toml");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().key == c.key);
    CHECK(r.error().reason.find(c.reason) != std::string::npos);
    CHECK(r.error().line == line_of(c.text, c.line_of));
    CHECK(r.error().to_string().find("m.toml:") == 0);
  }
  auto missing = load_model_config("/nonexistent/model.toml");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().to_string() == "/nonexistent/model.toml: cannot open file");
}
