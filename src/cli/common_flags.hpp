#pragma once
// Flags every data-printing subcommand shares: one definition, so --help cannot drift.
#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include <string>

namespace moeplan::cli {

/// A value > 0 and finite (nan, inf, 0 and negatives exit 2 with the reason), with a
/// message a person can read (CLI11's PositiveNumber prints a 310-digit upper bound).
inline CLI::Validator positive() {
  return CLI::Validator(
      [](std::string& text) {
        auto v = parse_positive_finite(text);
        return v ? std::string() : v.error();
      },
      "POSITIVE", "positive");
}

/// One budget, a comma list or a START:STOP:STEP sweep (parse_budget_list), checked while
/// the flags are parsed as score's and plot's single --flops are.
inline CLI::Validator budget_list() {
  return CLI::Validator(
      [](std::string& text) {
        auto v = parse_budget_list(text);
        return v ? std::string() : v.error();
      },
      "BUDGETS", "budget_list");
}

/// A whole number from 0 to `max` (no sign wrap-around: -1 is an error, not 2^64 - 1; the
/// digits are compared exactly, so max + 1 is refused even where a double cannot tell).
inline CLI::Validator whole_number(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && end == text.data() + text.size() && v <= max) return std::string();
        // Scientific notation of a whole number ("1e5") is fine too.
        auto d = parse_positive_finite(text);
        if (d && *d == std::floor(*d) && *d < 9007199254740992.0 && std::uint64_t(*d) <= max) {
          text = fmt::format("{}", std::uint64_t(*d));
          return std::string();
        }
        return fmt::format("must be a whole number from 0 to {}, got '{}'", max, text);
      },
      fmt::format("INT in [0, {}]", max), "whole_number");
}

/// A finite number in [lo, hi] (CLI::Range lets nan through and prints six decimals).
inline CLI::Validator number_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        // Any finite decimal ("0.0", "-0", "-1" included), then the range: a negative or
        // zero value is out of range, not "not a number".
        double x = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, x);
        if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(x)) {
          return fmt::format("must be a finite number in [{:g}, {:g}], got '{}'", lo, hi, text);
        }
        if (x < lo || x > hi) return fmt::format("must lie in [{:g}, {:g}], got {}", lo, hi, text);
        return std::string();
      },
      fmt::format("in [{:g}, {:g}]", lo, hi), "number_in");
}

/// The format a file name asks for: "json", "toml" or "csv" by its extension, else "".
inline std::string format_of_path(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "json" || ext == "toml" || ext == "csv" ? ext : "";
}

/// --format table|json|toml|csv and --output/-o FILE. Without --format, -o plan.json,
/// plan.toml or plan.csv writes that format (not the table under a data file's name).
inline void add_format_flags(CLI::App& sub, std::string& format, std::string& output) {
  CLI::Option* format_option =
      sub.add_option("--format,-f", format,
                     "Output format (default table, or the -o file's extension: .json .toml .csv)")
          ->check(CLI::IsMember({"table", "json", "toml", "csv"}))
          ->capture_default_str();
  sub.add_option("--output,-o", output, "Write the result to FILE ('-' = stdout)")
      ->capture_default_str();
  sub.parse_complete_callback([format_option, &format, &output] {
    if (format_option->count() == 0) {
      if (std::string ext = format_of_path(output); !ext.empty()) format = ext;
    }
  });
}

/// --format, --output and --laws FILE.
inline void add_output_flags(CLI::App& sub, std::string& format, std::string& output,
                             std::string& laws_file) {
  add_format_flags(sub, format, output);
  sub.add_option("--laws", laws_file, "Laws TOML overlaying the embedded laws section by section");
}

}  // namespace moeplan::cli
