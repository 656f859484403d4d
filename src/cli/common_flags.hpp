#pragma once
// Flags every data-printing subcommand shares: one definition, so --help cannot drift.
#include <CLI/CLI.hpp>
#include <string>

namespace moeplan::cli {

/// --format table|json|toml|csv and --output/-o FILE.
inline void add_format_flags(CLI::App& sub, std::string& format, std::string& output) {
  sub.add_option("--format,-f", format, "Output format")
      ->check(CLI::IsMember({"table", "json", "toml", "csv"}))
      ->capture_default_str();
  sub.add_option("--output,-o", output, "Write the result to FILE ('-' = stdout)")
      ->capture_default_str();
}

/// --format, --output and --laws FILE.
inline void add_output_flags(CLI::App& sub, std::string& format, std::string& output,
                             std::string& laws_file) {
  add_format_flags(sub, format, output);
  sub.add_option("--laws", laws_file, "Laws TOML overlaying the embedded laws section by section");
}

}  // namespace moeplan::cli
