#pragma once
// Helpers for tests that break a good preset in one place and check where the error points.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace test_text {

/// `text` with the first `from` replaced by `to` (the test fails if `from` is absent).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// 1-based line of the first `needle` in `text`.
inline int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace test_text
