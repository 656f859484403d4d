#pragma once
/// Training-run tables for `moeplan fit`: one CSV row per run, header-named columns in any
/// order (docs/fit.md "CSV schema"). Parsing is libcsv's (quoted fields, embedded commas
/// and newlines, CRLF); this file adds what libcsv lacks: `#` comment lines, typed and
/// validated columns, and positions (file:line:column) on every complaint.
///
/// Only the columns a law asks for are converted and kept, so a file of 10^6 runs costs
/// 8 bytes per kept cell plus one line number per row.
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "moeplan/base/errors.hpp"

namespace moeplan {

enum class ColumnKind {
  positive,     ///< finite and > 0: sizes (N, N_a, D, C, M, G, loss, …)
  unit_closed,  ///< finite in [0, 1]: shares such as S (shared ratio)
  unit_open,    ///< finite in (0, 1]: ratios that must not be zero (A)
  unit_right_open,  ///< finite in [0, 1): shares whose complement is logged (sparsity)
  text,         ///< kept as a string (family)
  flag,         ///< 1/0, true/false, yes/no, validation/train (holdout column)
};

struct ColumnSpec {
  std::string name;       ///< name the law uses (after --column renames)
  ColumnKind kind = ColumnKind::positive;
  bool required = true;
  std::string meaning;    ///< "total non-embedding parameters" — for messages and docs
};

/// A validated table: every kept column has exactly `rows` entries.
struct RunTable {
  std::string source;                 ///< file path as given
  std::string md5;                    ///< of the file's bytes (provenance of fitted laws)
  std::vector<std::string> header;    ///< law-side names, in file order
  std::size_t rows = 0;
  std::vector<std::uint32_t> line;    ///< physical line where each row starts (1-based)
  std::map<std::string, std::vector<double>> numeric;
  std::map<std::string, std::vector<std::string>> text;

  [[nodiscard]] bool has(const std::string& column) const;
  /// The numeric column; throws std::out_of_range when it was not kept.
  [[nodiscard]] const std::vector<double>& col(const std::string& column) const;
};

/// Given the (renamed) header, which columns to keep. Unknown columns are ignored.
using ColumnChooser =
    std::function<std::expected<std::vector<ColumnSpec>, std::string>(
        const std::vector<std::string>& header)>;

struct CsvReadOptions {
  /// law-side name → CSV header name, e.g. {"loss", "BPC"} (`--column loss=BPC`).
  std::map<std::string, std::string> renames;
  std::size_t max_errors = 20;  ///< stop collecting after this many (the count goes on)
};

/// Errors of a whole file: all of them (up to max_errors), plus how many in total.
struct CsvErrors {
  static constexpr ErrorCode code = ErrorCode::input;
  std::vector<InputError> errors;
  std::size_t total = 0;
  [[nodiscard]] std::string to_string() const;  ///< one per line, "…and N more"
};

/// Reads and validates the file; on any error returns them all and no table.
std::expected<RunTable, CsvErrors> read_runs_csv(const std::string& path,
                                                 const ColumnChooser& choose,
                                                 const CsvReadOptions& options = {});

/// Same, from text already in memory (`source` names it in messages).
std::expected<RunTable, CsvErrors> parse_runs_csv(const std::string& text,
                                                  const std::string& source,
                                                  const ColumnChooser& choose,
                                                  const CsvReadOptions& options = {});

}  // namespace moeplan
