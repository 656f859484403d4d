#include <doctest/doctest.h>

#include "moeplan/number_parse.hpp"

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
