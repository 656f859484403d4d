#pragma once
// Flags every data-printing subcommand shares: one definition, so --help cannot drift.
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include <string>
#include <string_view>

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

/// A number written in decimal. CLI11's conversion also reads C's other spellings (0x10 as 16,
/// 0x0.1p3 as 0.5), which no one means on a planning command line; from_chars reads decimal
/// only. nan and inf pass through to the flag's own range check, which names its range. No
/// description: --help shows the flag's own.
inline CLI::Validator decimal_number() {
  return CLI::Validator(
      [](std::string& text) {
        double x = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, x);
        if (text.empty() || ec != std::errc() || ptr != end) return fmt::format("must be a decimal number, got '{}'", text);
        return std::string();
      },
      "", "decimal_number");
}

/// A whole number written in decimal. CLI11 reads an integer as C's strtoll with base 0 does
/// (0x10 is 16, 0b10 2, and 010 is octal 8: --tp 010 would ask for TP 8): a prefix of another
/// base is refused, leading zeros are dropped (010 is 10), the rest is left to the flag's
/// range check. No description: --help shows the flag's own.
inline CLI::Validator decimal_whole() {
  return CLI::Validator(
      [](std::string& text) {
        const std::size_t sign = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
        const std::string_view digits = std::string_view(text).substr(sign);
        // 1e3, 8.5, 0x10, abc: the form, not the range, is what is wrong (CLI11's range check
        // would say "not in range" of a value it could not read).
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
          return fmt::format("must be a decimal whole number, got '{}'", text);
        }
        const std::size_t zeros = digits.find_first_not_of('0');
        if (zeros != std::string_view::npos && zeros > 0 &&
            std::isdigit(static_cast<unsigned char>(digits[zeros]))) {
          text.erase(sign, zeros);  // 010: ten, not octal eight
        }
        return std::string();
      },
      "", "decimal_whole");
}

/// An output file name: "" is refused (exit 2) rather than read as standard output; '-'
/// is standard output.
inline CLI::Validator not_empty_path() {
  return CLI::Validator(
      [](std::string& text) {
        return text.empty() ? std::string("an empty file name (use '-' for standard output)")
                            : std::string();
      },
      "FILE", "not_empty_path");
}

/// A file name's extension, lower case and without the dot ("" for none: plan, -,
/// /dev/stdout, .hidden, dir.d/plan).
inline std::string extension_of(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || dot <= base) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

/// The format a file name asks for: "json", "toml" or "csv" by its extension, "table" for
/// .txt, else "" (no extension, or one no format claims).
inline std::string format_of_path(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == "json" || ext == "toml" || ext == "csv") return ext;
  return ext == "txt" ? "table" : "";
}

/// --format table|json|toml|csv and --output/-o FILE. Without --format, -o plan.json,
/// plan.toml or plan.csv writes that format (not the table under a data file's name), and
/// plan.txt the table; an extension no format claims (plan.yaml) is a usage error listing
/// the known ones, since the file would hold something its name does not say. --format
/// writes any name; so do --emit (its kind fixes the content), `presets show` (TOML), and
/// a FIFO or device, which keeps nothing under its name.
inline void add_format_flags(CLI::App& sub, std::string& format, std::string& output) {
  CLI::Option* format_option =
      sub.add_option("--format,-f", format,
                     "Output format (default table, or the -o file's extension: .json .toml .csv "
                     ".txt; another extension needs --format)")
          ->check(CLI::IsMember({"table", "json", "toml", "csv"}))
          ->capture_default_str();
  CLI::Option* output_option =
      sub.add_option("--output,-o", output, "Write the result to FILE ('-' = stdout)")
          ->check(not_empty_path())
          ->capture_default_str();
  sub.parse_complete_callback([&sub, format_option, output_option, &format, &output] {
    if (format_option->count() != 0 || output_option->count() == 0) return;
    if (std::string f = format_of_path(output); !f.empty()) {
      format = f;
      return;
    }
    const std::string ext = extension_of(output);
    const CLI::Option* emit = sub.get_option_no_throw("--emit");
    const bool nested = !sub.get_subcommands([](const CLI::App* s) { return s->parsed(); }).empty();
    // A FIFO or a device (plan.fifo, /dev/tty) stores nothing under its name.
    struct stat st {};
    const bool stream = ::stat(output.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (ext.empty() || (emit != nullptr && emit->count() != 0) || nested || stream) return;
    throw CLI::ValidationError(
        "--output", fmt::format("'{}': no format writes .{} files (known: .json .toml .csv, .txt "
                                "for the table); give --format to write that name anyway",
                                output, ext));
  });
}

/// --format, --output and --laws FILE.
inline void add_output_flags(CLI::App& sub, std::string& format, std::string& output,
                             std::string& laws_file) {
  add_format_flags(sub, format, output);
  sub.add_option("--laws", laws_file, "Laws TOML overlaying the embedded laws section by section")
      ->check(not_empty_path());
}

}  // namespace moeplan::cli
