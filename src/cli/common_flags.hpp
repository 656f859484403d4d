#pragma once
// Flags every data-printing subcommand shares: one definition, so --help cannot drift.
#include <CLI/CLI.hpp>
#include <cctype>
#include <string>

namespace moeplan::cli {

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
