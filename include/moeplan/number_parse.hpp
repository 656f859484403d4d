#pragma once
/// Strict parsing of numeric flag values: the whole string must be a number.
#include <expected>
#include <string>
#include <string_view>

namespace moeplan {

/// Accepts decimal or scientific notation ("1e22", "1E22", "3.5e21", "2e+20");
/// rejects empty strings, junk, trailing characters, NaN, infinities, 0 and negatives.
/// The error names the reason ("must be positive, got -1").
std::expected<double, std::string> parse_positive_finite(std::string_view text);

}  // namespace moeplan
