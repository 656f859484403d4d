// src/fit/sample_statistics.cpp: numpy's default (linear) percentile and Pearson's r, worked by
// hand below.
#include <doctest/doctest.h>

#include <vector>

#include "moeplan/fit/sample_statistics.hpp"

using namespace moeplan;

TEST_CASE("percentile: linear between order statistics, as numpy.percentile's default") {
  const std::vector<double> v{4, 1, 3, 2};  // sorted 1 2 3 4
  CHECK(fit::percentile(v, 0.0) == 1.0);
  CHECK(fit::percentile(v, 1.0) == 4.0);
  CHECK(fit::percentile(v, 0.5) == doctest::Approx(2.5));   // position 1.5
  CHECK(fit::percentile(v, 0.25) == doctest::Approx(1.75));  // position 0.75: 1 + 0.75 (2 - 1)
  CHECK(fit::percentile(v, 0.9) == doctest::Approx(3.7));    // position 2.7: 3 + 0.7 (4 - 3)
  CHECK(fit::percentile({7.0}, 0.3) == 7.0);
}

TEST_CASE("correlation: Pearson's r, 0 when a column is constant") {
  const std::vector<double> x{1, 2, 3, 4};
  CHECK(fit::correlation(x, {2, 4, 6, 8}) == doctest::Approx(1.0));
  CHECK(fit::correlation(x, {8, 6, 4, 2}) == doctest::Approx(-1.0));
  CHECK(fit::correlation(x, {5, 5, 5, 5}) == 0.0);
  // x - 2.5 = (-1.5, -0.5, 0.5, 1.5), y = (1, 3, 2, 4), y - 2.5 = (-1.5, 0.5, -0.5, 1.5):
  // sum of products 2.25 - 0.25 - 0.25 + 2.25 = 4, both sums of squares 5: r = 0.8.
  CHECK(fit::correlation(x, {1, 3, 2, 4}) == doctest::Approx(0.8));
}
