// src/laws/power_law.cpp: y = a x^b.
#include <doctest/doctest.h>

#include "moeplan/laws/power_law.hpp"

using namespace moeplan;

TEST_CASE("PowerLaw: coefficient times x to the exponent") {
  const PowerLaw sqrt_law{3.0, 0.5};
  CHECK(sqrt_law(16.0) == doctest::Approx(12.0));  // 3 * 4
  const PowerLaw inverse{2.0, -1.0};
  CHECK(inverse(8.0) == doctest::Approx(0.25));
  CHECK(PowerLaw{5.0, 0.0}(1e30) == doctest::Approx(5.0));
}
