#pragma once
/// Strict parsing of numeric flag values: the whole string must be a number.
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace moeplan {

/// Accepts decimal or scientific notation ("1e22", "1E22", "3.5e21", "2e+20");
/// rejects empty strings, junk, trailing characters, NaN, infinities, 0 and negatives.
/// The error names the reason ("must be positive, got -1"; a comma: "'1,5e22' is not a
/// number (use '.' as the decimal point)").
std::expected<double, std::string> parse_positive_finite(std::string_view text);

/// The shortest text that reads back to exactly `value`, in scientific notation ("1e+22",
/// "3.16228e+20", "1.2345678e+22"): how a budget is printed wherever a person or a tool
/// may pass it back to --flops.
std::string shortest_scientific(double value);

/// Most budgets one list may hold (a sweep of 0.01 decade over 1e15..1e30 has 1501).
inline constexpr std::size_t k_max_budgets = 2000;

/// One budget ("1e22"), a comma list ("1e20,3e20,1e21") or a sweep in decades
/// "START:STOP:STEP" ("1e20:1e24:0.5" = 1e20, 3.16228e20, …, 1e24): START <= STOP, STEP > 0,
/// STOP included when the steps land on it (within 1e-9 decade). The points between are
/// rounded to 6 significant digits (more where needed to keep them apart), so each one
/// prints short and reads back as the budget that was planned. Every value as
/// parse_positive_finite; at most k_max_budgets values. A comma after a bare number of one
/// to three digits and before a digit ("1,5e22") is a decimal comma and refused, not a list.
std::expected<std::vector<double>, std::string> parse_budget_list(std::string_view text);

}  // namespace moeplan
