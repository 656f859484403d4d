// src/calibration/step_parameters.cpp: the step model's fittable parameters, each a
// StepTimeOptions field with its bounds and flag (moved from test_step_fit.cpp).
#include <doctest/doctest.h>

#include "moeplan/calibration/step_parameters.hpp"

using namespace moeplan;

TEST_CASE("calibration: every parameter is a StepTimeOptions field within physical bounds, set and read back") {
  for (const calibration::StepParameter& p : calibration::step_parameters()) {
    CAPTURE(p.name);
    CHECK(p.lower < p.upper);
    CHECK(p.flag.starts_with("--"));
    StepTimeOptions o;
    const double inside = p.lower + 0.37 * (p.upper - p.lower);
    p.set(o, inside);
    CHECK(p.get(o) == inside);
    CHECK(calibration::find_step_parameter(p.name) == &p);
  }
  CHECK(calibration::find_step_parameter("gemm_eficiency") == nullptr);
}
