#include "moeplan/base/number_parse.hpp"

#include <charconv>
#include <cctype>
#include <algorithm>
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
  if (text.find(',') != std::string_view::npos) {  // "1,5e22": a decimal comma
    return std::unexpected(quoted + " is not a number (use '.' as the decimal point)");
  }
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

std::string shortest_scientific(double value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  return ec == std::errc() ? std::string(buffer, end) : fmt::format("{}", value);
}

namespace {

// 10^(log10 start + k step) for k = 0 .. count - 1, the points between rounded to the fewest
// significant digits (at least 6) that keep them distinct: 10^20.5 is planned and printed
// as 3.16228e+20, not 3.1622776601683795e+20, and 10^23 as 1e+23, not 1.0000000000000001e+23.
// START is kept as given, and so is STOP where the last step lands on it (within 1e-9
// decade); no rounded point passes STOP.
std::vector<double> sweep_points(double start, double stop, double step, double count) {
  for (int digits = 6;; ++digits) {
    std::vector<double> out{start};
    bool distinct = true;
    for (double k = 1; k < count; k += 1) {
      const double exact = std::pow(10.0, std::log10(start) + k * step);
      double point = exact;
      if (std::abs(std::log10(exact) - std::log10(stop)) < 1e-9) {
        point = stop;
      } else if (digits < 17) {
        const std::string text = fmt::format("{:.{}e}", exact, digits - 1);
        std::from_chars(text.data(), text.data() + text.size(), point);
        point = std::min(point, stop);
      }
      distinct = distinct && point > out.back();
      out.push_back(point);
    }
    if (distinct || digits >= 17) return out;
  }
}

}  // namespace

std::expected<std::vector<double>, std::string> parse_budget_list(std::string_view text) {
  std::vector<double> out;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    const auto second = text.find(':', colon + 1);
    if (second == std::string_view::npos || text.find(':', second + 1) != std::string_view::npos) {
      return std::unexpected(fmt::format("'{}': a sweep is START:STOP:STEP (decades), e.g. 1e20:1e24:0.5", text));
    }
    auto start = parse_positive_finite(text.substr(0, colon));
    auto stop = parse_positive_finite(text.substr(colon + 1, second - colon - 1));
    auto step = parse_positive_finite(text.substr(second + 1));
    if (!start) return std::unexpected("START " + start.error());
    if (!stop) return std::unexpected("STOP " + stop.error());
    if (!step) return std::unexpected("STEP (decades) " + step.error());
    if (*stop < *start) {
      return std::unexpected(fmt::format("STOP {:g} is below START {:g}", *stop, *start));
    }
    const double decades = std::log10(*stop) - std::log10(*start);
    const double count = std::floor(decades / *step + 1e-9) + 1;
    if (count > double(k_max_budgets)) {
      return std::unexpected(fmt::format("{:.0f} budgets; at most {} (raise STEP)", count, k_max_budgets));
    }
    return sweep_points(*start, *stop, *step, count);
  }
  // "1,5e22" is 1.5e22 written with a decimal comma, not the list {1, 5e22} (whose first
  // budget would then fail as infeasible): a comma after a bare mantissa of one to three
  // digits and before a digit is refused. No real budget in FLOPs has three digits.
  for (std::size_t comma = text.find(','), begin = 0; comma != std::string_view::npos;
       begin = comma + 1, comma = text.find(',', begin)) {
    const std::string_view left = text.substr(begin, comma - begin);
    const bool mantissa = !left.empty() && left.size() <= 3 &&
                          left.find_first_not_of("0123456789") == std::string_view::npos;
    if (mantissa && comma + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[comma + 1]))) {
      const std::size_t end = text.find(',', comma + 1);
      return std::unexpected(fmt::format(
          "'{}' is not a number (use '.' as the decimal point; ',' separates the budgets of a list)",
          text.substr(begin, end == std::string_view::npos ? end : end - begin)));
    }
  }
  std::size_t begin = 0;
  while (true) {
    const auto comma = text.find(',', begin);
    const std::string_view item = text.substr(begin, comma == std::string_view::npos ? comma : comma - begin);
    auto value = parse_positive_finite(item);
    if (!value) {
      return std::unexpected(text.find(',') == std::string_view::npos
                                 ? value.error()
                                 : fmt::format("item {} ('{}') {}", out.size() + 1, item, value.error()));
    }
    out.push_back(*value);
    if (out.size() > k_max_budgets) {
      return std::unexpected(fmt::format("more than {} budgets", k_max_budgets));
    }
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return out;
}

}  // namespace moeplan
