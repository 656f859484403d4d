#pragma once
/// One exporter per output format over a command's Report (hyperfine's Exporter pattern):
/// each format is its own file (table_exporter.cpp, json_exporter.cpp, toml_exporter.cpp,
/// csv_exporter.cpp), and what they share is here.
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "report.hpp"

namespace moeplan::cli {

class Exporter {
 public:
  virtual ~Exporter() = default;
  /// One report.
  virtual void write(const Report& report, std::ostream& out) const = 0;
  /// Several reports of the same shape (emit_many in emitters.hpp says how each format
  /// writes them); `array_key` names the TOML array.
  virtual void write_many(const std::vector<Report>& reports, std::ostream& out,
                          std::string_view array_key) const = 0;
};

std::unique_ptr<Exporter> table_exporter(const TerminalStyle& style);
std::unique_ptr<Exporter> json_exporter();
std::unique_ptr<Exporter> toml_exporter();
std::unique_ptr<Exporter> csv_exporter();

// Shared by the exporters.

/// A list's items in one cell, joined by `separator`.
std::string joined(const TextList& items, std::string_view separator);
/// The shortest text that reads back to the same value ("" for a Missing one).
std::string exact(const Value& v);
/// Each section's place in a flat namespace: its key, or KEY.N (N from 1) for the N-th
/// section of a repeated key. CSV columns and the side-by-side table are keyed by it.
std::vector<std::string> section_ids(const Report& r);
/// Data formats are typed: a non-finite double becomes Missing, and (with_reasons) every
/// Missing field gets a KEY_reason string field right after it.
Report typed(const Report& in, bool with_reasons = true);
/// Every text of the report through printable() (the table and CSV print text as it is).
Report printable_report(const Report& in);
std::vector<Report> printable_reports(const std::vector<Report>& in);

}  // namespace moeplan::cli
