#pragma once
/// One serializer per output format behind one entry point.
#include <iosfwd>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "report.hpp"

namespace moeplan::cli {

enum class Format { table, json, toml, csv };

/// "table" | "json" | "toml" | "csv".
Format parse_format(std::string_view name);

/// table: aligned text for people. json: {"section": {"key": value}} with full-precision
/// numbers. toml: [section] tables. csv: a header of section.key names and one row.
/// `style` decorates the table view only (colour, box-drawing rules); data formats are
/// never decorated.
void emit(const Report& report, Format format, std::ostream& out, const TerminalStyle& style = {});

/// Several reports of the same shape (one per model of `score`, per budget of a `suggest`
/// sweep): table side by side, json an array of objects with the same sections (one a
/// report lacks has every field null), toml an array of [[ARRAY_KEY]] tables, csv one row
/// each (the header is the union of keys; a missing key is an empty cell).
void emit_many(const std::vector<Report>& reports, Format format, std::ostream& out,
               const TerminalStyle& style = {}, std::string_view toml_array_key = "models");

}  // namespace moeplan::cli
