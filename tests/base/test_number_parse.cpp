#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "moeplan/base/number_parse.hpp"

using moeplan::parse_positive_finite;

TEST_CASE("budgets in the notations users type are accepted") {
  CHECK(parse_positive_finite("1e22").value() == 1e22);
  CHECK(parse_positive_finite("1E22").value() == 1e22);
  CHECK(parse_positive_finite("3.5e21").value() == 3.5e21);
  CHECK(parse_positive_finite("2e+20").value() == 2e20);
  CHECK(parse_positive_finite("100000").value() == 1e5);
}

TEST_CASE("each class of bad number is rejected with its reason") {
  struct Case {
    const char* text;
    const char* reason;
  };
  for (const Case& c : {Case{"", "empty"}, Case{"0", "must be positive"},
                        Case{"-1", "must be positive"}, Case{"-1e22", "must be positive"},
                        Case{"nan", "must be finite"}, Case{"inf", "must be finite"},
                        Case{"-inf", "must be finite"}, Case{"1e22x", "not a number"},
                        Case{"abc", "not a number"}, Case{" 1e22", "not a number"},
                        Case{"1e22 ", "not a number"}, Case{"0x10", "not a number"},
                        Case{"1e400", "out of the range"}}) {
    CAPTURE(c.text);
    auto r = parse_positive_finite(c.text);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().find(c.reason) != std::string::npos);
  }
}

TEST_CASE("budget lists: one value, a comma list, a START:STOP:STEP sweep in decades") {
  using moeplan::parse_budget_list;
  CHECK(parse_budget_list("1e22").value() == std::vector<double>{1e22});
  CHECK(parse_budget_list("1e20,3e20,1e21").value() == std::vector<double>{1e20, 3e20, 1e21});
  const auto sweep = parse_budget_list("1e20:1e24:0.5").value();
  REQUIRE(sweep.size() == 9);
  CHECK(sweep.front() == 1e20);
  CHECK(sweep[1] == doctest::Approx(std::pow(10.0, 20.5)));
  CHECK(sweep.back() == 1e24);  // STOP exactly, not 9.9999e23
  CHECK(parse_budget_list("1e20:1e20:1").value() == std::vector<double>{1e20});
  CHECK(parse_budget_list("1e20:5e20:1").value() == std::vector<double>{1e20});  // STOP not reached
  for (const char* bad : {"1e22:1e20:1", "1e20:1e22", "1e20:1e22:0", "1e20:1e22:-1", "1e20::1",
                          "1e20:1e22:1:2", "1e20,", ",1e20", "1e20,,1e21", "1e20,x", "1e15:1e30:0.001"}) {
    CAPTURE(bad);
    auto r = parse_budget_list(bad);
    REQUIRE_FALSE(r.has_value());
    CHECK_FALSE(r.error().empty());
  }
}
