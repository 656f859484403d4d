// src/laws/holistic_laws.cpp: paper 002's M/N_a law (Eq. 5) and its log-interpolated
// schedules (Appendix F.4, Table 4) (moved from tests/fit/test_holistic_derivation.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

TEST_CASE("the M/N_a law stays above 6 from 1e15 to 1e27 and falls with C") {
  const MOverNaLaw& law = builtin_holistic_laws().m_over_na;
  double previous = INFINITY;
  for (double e = 15.0; e <= 27.0 + 1e-9; e += 0.1) {
    const auto x = law.at(std::pow(10.0, e));
    REQUIRE(x.has_value());
    CHECK(*x > 6.0);
    CHECK(*x < previous);
    previous = *x;
  }
}

TEST_CASE("N/N_a follows Appendix F.4's choices and holds them outside") {
  const LogSchedule& s = builtin_holistic_laws().n_over_na;
  CHECK(s.at(1e18) == 19.0);
  CHECK(s.at(3e18) == 20.0);
  CHECK(s.at(1e19) == 21.0);
  CHECK(s.at(3e19) == 21.0);
  CHECK(s.at(1e20) == 22.0);
  CHECK(s.at(3e20) == 22.0);
  CHECK(s.at(1e16) == 19.0);
  CHECK(s.at(1e24) == 22.0);
  CHECK(s.at(std::sqrt(1e18 * 3e18)) == doctest::Approx(19.5));
}

TEST_CASE("Table 4 learning rate and batch size at every compute scale") {
  const moeplan::HolisticTrainingSchedule& t = moeplan::builtin_laws().holistic_training;
  const double C[] = {1e18, 3e18, 1e19, 3e19, 1e20, 3e20};
  const double lr[] = {1.20e-3, 1.00e-3, 8.28e-4, 6.95e-4, 5.74e-4, 4.82e-4};
  const double bs[] = {64, 80, 128, 160, 208, 288};
  for (int k = 0; k < 6; ++k) {
    CHECK(t.learning_rate.at(C[k]) == doctest::Approx(lr[k]).epsilon(1e-12));
    CHECK(t.batch_size.at(C[k]) == doctest::Approx(bs[k]).epsilon(1e-12));
  }
  CHECK(t.learning_rate.at(1e22) == doctest::Approx(4.82e-4));  // held past the last row
}
