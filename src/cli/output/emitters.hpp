#pragma once
/// One serializer per output format behind one entry point.
#include <iosfwd>
#include <string_view>

#include "report.hpp"

namespace moeplan::cli {

enum class Format { table, json, toml, csv };

/// "table" | "json" | "toml" | "csv".
Format parse_format(std::string_view name);

/// table: aligned text for people. json: {"section": {"key": value}} with full-precision
/// numbers. toml: [section] tables. csv: a header of section.key names and one row.
void emit(const Report& report, Format format, std::ostream& out);

}  // namespace moeplan::cli
