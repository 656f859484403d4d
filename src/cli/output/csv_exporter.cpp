// CSV: a header of section.key names and one row per report.
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "output/exporter.hpp"

namespace moeplan::cli {
namespace {

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) {
    return s;
  }
  std::string out = "\"";
  for (char c : s) {
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return out + "\"";
}

// CSV: a missing number is an empty cell, and no KEY_reason columns, so every run of a
// command has the same header and files concatenate (the table and JSON/TOML say why).
void emit_csv(const Report& report, std::ostream& out) {
  const Report r = typed(report, false);
  const std::vector<std::string> ids = section_ids(r);
  std::vector<std::string> header, row;
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    for (const Field& f : r.sections[i].fields) {
      header.push_back(csv_cell(ids[i] + "." + f.key));
      row.push_back(csv_cell(exact(f.value)));
    }
  }
  out << fmt::format("{}\n{}\n", fmt::join(header, ","), fmt::join(row, ","));
}

void emit_csv_many(const std::vector<Report>& untyped, std::ostream& out) {
  std::vector<Report> reports;
  for (const Report& r : untyped) reports.push_back(typed(r, false));
  std::vector<std::string> keys;
  for (const Report& r : reports) {
    const std::vector<std::string> ids = section_ids(r);
    for (std::size_t i = 0; i < r.sections.size(); ++i) {
      for (const Field& f : r.sections[i].fields) {
        const std::string k = ids[i] + "." + f.key;
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
      }
    }
  }
  std::vector<std::string> header;
  for (const std::string& k : keys) header.push_back(csv_cell(k));
  out << fmt::format("{}\n", fmt::join(header, ","));
  for (const Report& r : reports) {
    std::vector<std::string> row(keys.size());
    const std::vector<std::string> ids = section_ids(r);
    for (std::size_t i = 0; i < r.sections.size(); ++i) {
      for (const Field& f : r.sections[i].fields) {
        const auto at = std::find(keys.begin(), keys.end(), ids[i] + "." + f.key) - keys.begin();
        row[static_cast<std::size_t>(at)] = csv_cell(exact(f.value));
      }
    }
    out << fmt::format("{}\n", fmt::join(row, ","));
  }
}

class CsvExporter final : public Exporter {
 public:
  void write(const Report& report, std::ostream& out) const override { emit_csv(printable_report(report), out); }
  void write_many(const std::vector<Report>& reports, std::ostream& out, std::string_view) const override {
    emit_csv_many(printable_reports(reports), out);
  }
};

}  // namespace

std::unique_ptr<Exporter> csv_exporter() { return std::make_unique<CsvExporter>(); }

}  // namespace moeplan::cli
