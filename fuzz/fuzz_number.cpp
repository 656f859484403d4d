// libFuzzer target: the numeric flag parser behind --flops, --align, --holdout.
// Invariants: an accepted value is finite and > 0, and the text it came from is not empty;
// a rejection has a non-empty reason.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "moeplan/base/number_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto v = moeplan::parse_positive_finite(text);
  if (v) {
    FUZZ_CHECK(std::isfinite(*v), "an accepted value is finite");
    FUZZ_CHECK(*v > 0, "an accepted value is positive");
    FUZZ_CHECK(!text.empty(), "an empty string is never a number");
  } else {
    FUZZ_CHECK(!v.error().empty(), "a rejection has a reason");
  }
  return 0;
}
