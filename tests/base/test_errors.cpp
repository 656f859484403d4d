// src/base/errors.cpp: an input error reads source[:line[:column]]: [key: ]reason.
#include <doctest/doctest.h>

#include "moeplan/base/errors.hpp"

using namespace moeplan;

TEST_CASE("InputError::to_string: the file, then its line and column when known, the key when named") {
  CHECK(InputError{"laws.toml", 12, 5, "joint.alpha", "must be positive"}.to_string() ==
        "laws.toml:12:5: joint.alpha: must be positive");
  CHECK(InputError{"laws.toml", 12, 0, "joint.alpha", "must be positive"}.to_string() ==
        "laws.toml:12: joint.alpha: must be positive");
  // A column without a line is not printed: "file:0:5" would point nowhere.
  CHECK(InputError{"runs.csv", 0, 5, "", "empty file"}.to_string() == "runs.csv: empty file");
  CHECK(InputError{"config.json", 3, 14, "", "syntax error"}.to_string() == "config.json:3:14: syntax error");
}
