// libFuzzer target: training-run CSV (docs/fit.md "CSV schema"), as `moeplan fit` reads it.
// Columns are chosen as `fit` does (law detected from the header); a header no law fits
// keeps every column with a kind cycling through all ColumnKinds, so arbitrary headers
// still reach the cell converters.
// Invariants: a success has rows > 0, one line number per row, every kept column exactly
// `rows` long, and every value inside its kind's range; a failure has at least one error,
// each with a reason, and a total no smaller than the errors kept.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/fit/runs_csv.hpp"

using namespace moeplan;

namespace {

constexpr ColumnKind kKinds[] = {ColumnKind::positive,        ColumnKind::unit_closed,
                                 ColumnKind::unit_open,       ColumnKind::unit_right_open,
                                 ColumnKind::text,            ColumnKind::flag};

bool in_range(double v, ColumnKind kind) {
  if (!std::isfinite(v)) return false;
  switch (kind) {
    case ColumnKind::positive: return v > 0;
    case ColumnKind::unit_closed: return v >= 0 && v <= 1;
    case ColumnKind::unit_open: return v > 0 && v <= 1;
    case ColumnKind::unit_right_open: return v >= 0 && v < 1;
    case ColumnKind::flag: return v == 0 || v == 1;
    case ColumnKind::text: return false;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<ColumnSpec> chosen;
  const ColumnChooser choose = [&](const std::vector<std::string>& header)
      -> std::expected<std::vector<ColumnSpec>, std::string> {
    if (auto law = fit::detect_law(header)) {
      chosen = fit::columns_for(*law, fit::FitSettings{});
    } else {
      chosen.clear();
      for (std::size_t i = 0; i < header.size(); ++i) {
        chosen.push_back({header[i], kKinds[i % std::size(kKinds)], i % 2 == 0, "fuzzed"});
      }
    }
    return chosen;
  };
  CsvReadOptions options;
  options.max_errors = 5;
  auto table = parse_runs_csv(text, "fuzz.csv", choose, options);
  if (!table) {
    const CsvErrors& e = table.error();
    FUZZ_CHECK(!e.errors.empty(), "a failure reports an error");
    FUZZ_CHECK(e.errors.size() <= options.max_errors, "errors kept are capped");
    FUZZ_CHECK(e.total >= e.errors.size(), "the total counts every error kept");
    for (const InputError& err : e.errors) {
      FUZZ_CHECK(!err.reason.empty(), "every error has a reason");
    }
    (void)e.to_string();
    return 0;
  }
  const RunTable& t = *table;
  FUZZ_CHECK(t.rows > 0, "a table has data rows");
  FUZZ_CHECK(t.line.size() == t.rows, "one line number per row");
  FUZZ_CHECK(!t.md5.empty(), "a table records its md5");
  for (const ColumnSpec& spec : chosen) {
    if (spec.kind == ColumnKind::text) {
      if (auto it = t.text.find(spec.name); it != t.text.end()) {
        FUZZ_CHECK(it->second.size() == t.rows, "a text column has one cell per row");
      }
      continue;
    }
    auto it = t.numeric.find(spec.name);
    if (it == t.numeric.end()) {
      FUZZ_CHECK(!spec.required, "a required column is kept");
      continue;
    }
    FUZZ_CHECK(it->second.size() == t.rows, "a numeric column has one value per row");
    for (double v : it->second) {
      FUZZ_CHECK(in_range(v, spec.kind), "a kept value is inside its column kind's range");
    }
  }
  return 0;
}
