#include "moeplan/number_parse.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace moeplan {

std::expected<double, std::string> parse_positive_finite(std::string_view text) {
  if (text.empty()) {
    return std::unexpected("expected a number, got an empty value");
  }
  double value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  // from_chars accepts no leading '+', whitespace or hex prefix: exactly the strictness
  // wanted for a budget. It does accept "nan"/"inf", which are rejected below.
  auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  const std::string quoted = fmt::format("'{}'", text);
  if (ec == std::errc::result_out_of_range) {
    return std::unexpected("out of the range of a double: " + quoted);
  }
  if (ec != std::errc() || ptr != last) {
    return std::unexpected("not a number: " + quoted);
  }
  if (std::isnan(value) || std::isinf(value)) {
    return std::unexpected("must be finite, got " + quoted);
  }
  if (value <= 0) {
    return std::unexpected("must be positive, got " + quoted);
  }
  return value;
}

}  // namespace moeplan
