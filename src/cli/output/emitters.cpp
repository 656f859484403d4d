#include "output/emitters.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "output/exporter.hpp"

namespace moeplan::cli {

Format parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "json") return Format::json;
  if (name == "toml") return Format::toml;
  if (name == "csv") return Format::csv;
  throw std::invalid_argument("unknown format: " + std::string(name));
}

namespace {

std::unique_ptr<Exporter> exporter_for(Format format, const TerminalStyle& style) {
  switch (format) {
    case Format::table: return table_exporter(style);
    case Format::json: return json_exporter();
    case Format::toml: return toml_exporter();
    case Format::csv: return csv_exporter();
  }
  throw std::logic_error("exporter_for: a format without an exporter");
}

}  // namespace

void emit_many(const std::vector<Report>& reports, Format format, std::ostream& out,
               const TerminalStyle& style, std::string_view toml_array_key) {
  if (reports.empty()) return;
  exporter_for(format, style)->write_many(reports, out, toml_array_key);
}

void emit(const Report& report, Format format, std::ostream& out, const TerminalStyle& style) {
  exporter_for(format, style)->write(report, out);
}

}  // namespace moeplan::cli
