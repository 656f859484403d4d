// The runs CSV reader: what it accepts (quotes, CRLF, comments, any column order) and how
// it refuses every bad-input class with file:line:column and a reason.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/fit/runs_csv.hpp"

using namespace moeplan;

namespace {

const ColumnChooser kNDLoss = [](const std::vector<std::string>&) {
  return std::expected<std::vector<ColumnSpec>, std::string>(std::vector<ColumnSpec>{
      {"N", ColumnKind::positive, true, "total parameters"},
      {"D", ColumnKind::positive, true, "tokens"},
      {"family", ColumnKind::text, false, "family"},
      {"loss", ColumnKind::positive, true, "loss"}});
};

std::expected<RunTable, CsvErrors> parse(const std::string& text, CsvReadOptions o = {}) {
  return parse_runs_csv(text, "runs.csv", kNDLoss, o);
}

// The first error as "file:line:col: key: reason".
std::string first_error(const std::string& text) {
  auto t = parse(text);
  REQUIRE_FALSE(t.has_value());
  return t.error().errors.front().to_string();
}

}  // namespace

TEST_CASE("columns in any order, comments, blank lines, quotes and CRLF are read") {
  const std::string text =
      "# a comment before the header\r\n"
      "loss,\"family\",D,N,notes\r\n"
      "\r\n"
      "2.5,\"moe, fine-grained\",1e10,1e8,\"free text with \"\"quotes\"\"\"\r\n"
      "# a comment between rows\r\n"
      "2.25,dense,2e10,\"2e8\",\"a note\nspanning two lines\"\r\n";
  auto t = parse(text);
  REQUIRE(t.has_value());
  CHECK(t->rows == 2);
  CHECK(t->col("N") == std::vector<double>{1e8, 2e8});
  CHECK(t->col("D") == std::vector<double>{1e10, 2e10});
  CHECK(t->col("loss") == std::vector<double>{2.5, 2.25});
  CHECK(t->text.at("family") == std::vector<std::string>{"moe, fine-grained", "dense"});
  CHECK(t->line == std::vector<std::uint32_t>{4, 6});
  CHECK_FALSE(t->numeric.contains("notes"));  // unknown columns are not kept
  CHECK(t->md5.size() == 32);
}

TEST_CASE("fit --column renames a CSV column to the law's name") {
  CsvReadOptions o;
  o.renames["loss"] = "BPC";
  auto t = parse("N,D,BPC\n1e8,1e10,0.5\n", o);
  REQUIRE(t.has_value());
  CHECK(t->col("loss") == std::vector<double>{0.5});
  o.renames["loss"] = "bpc";
  auto bad = parse("N,D,BPC\n1e8,1e10,0.5\n", o);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().to_string().find("the header has no column 'bpc'") != std::string::npos);
}

TEST_CASE("every bad-input class names the place and the reason") {
  CHECK(first_error("") == "runs.csv: empty file: expected a header row naming the columns");
  CHECK(first_error("# only a comment\n") ==
        "runs.csv: empty file: expected a header row naming the columns");
  CHECK(first_error("N,D,loss\n") == "runs.csv: no data rows after the header");
  CHECK(first_error("N,D\n1,2\n") == "runs.csv:1: missing column 'loss' (loss)");
  CHECK(first_error("N,D,N,loss\n1,2,3,4\n") == "runs.csv:1:5: N: duplicate column (also column 1)");
  CHECK(first_error("N,D,loss\n1e8,abc,2\n") == "runs.csv:2:5: D: not a number: 'abc'");
  CHECK(first_error("N,D,loss\n1e8,1e10,nan\n") == "runs.csv:2:10: loss: must be finite, got 'nan'");
  CHECK(first_error("N,D,loss\n1e8,inf,2\n") == "runs.csv:2:5: D: must be finite, got 'inf'");
  CHECK(first_error("N,D,loss\n-5,1e10,2\n") == "runs.csv:2:1: N: must be positive, got -5");
  CHECK(first_error("N,D,loss\n0,1e10,2\n") == "runs.csv:2:1: N: must be positive, got 0");
  CHECK(first_error("N,D,loss\n1e8,,2\n") == "runs.csv:2:5: D: empty cell (a value is required)");
  CHECK(first_error("N,D,loss\n1e8,1e10\n") ==
        "runs.csv:2: row has 2 fields but the header has 3 (missing column 'loss')");
  CHECK(first_error("N,D,loss\n1e8,1e10,2,7\n") ==
        "runs.csv:2: row has 4 fields but the header has 3 (1 extra field(s) after the last column)");
  CHECK(first_error("N,D,loss\n1e8,1e999,2\n") == "runs.csv:2:5: D: number out of range: '1e999'");
  CHECK(first_error("N,D,loss\n1e8,\"1e10,2\n").find("unterminated quoted field") != std::string::npos);
}

TEST_CASE("a file with errors reports all of them and returns no table") {
  auto t = parse("N,D,loss\n1,x,2\n1,2,y\n-1,2,3\n1,2,3\n");
  REQUIRE_FALSE(t.has_value());
  CHECK(t.error().total == 3);
  CHECK(t.error().errors[0].line == 2);
  CHECK(t.error().errors[1].line == 3);
  CHECK(t.error().errors[2].line == 4);
  CsvReadOptions few;
  few.max_errors = 1;
  auto capped = parse("N,D,loss\n1,x,2\n1,2,y\n-1,2,3\n", few);
  REQUIRE_FALSE(capped.has_value());
  CHECK(capped.error().to_string().find("… and 2 more errors") != std::string::npos);
}

TEST_CASE("a missing file is an error naming it") {
  auto t = read_runs_csv("/nonexistent/runs.csv", kNDLoss);
  REQUIRE_FALSE(t.has_value());
  CHECK(t.error().to_string() == "/nonexistent/runs.csv: cannot open file");
}

TEST_CASE("10^6 rows are read into compact columns" * doctest::test_suite("slow")) {
  std::string text = "N,D,loss,comment\n";
  text.reserve(48'000'000);
  for (int i = 0; i < 1'000'000; ++i) {
    text += std::to_string(1e8 + i) + ",2e10," + std::to_string(2.0 + 1e-7 * i) + ",x\n";
  }
  auto t = parse(text);
  REQUIRE(t.has_value());
  CHECK(t->rows == 1'000'000);
  CHECK(t->col("N").size() == 1'000'000);
  CHECK(t->col("N").back() == doctest::Approx(1e8 + 999'999));
  CHECK(t->line.back() == 1'000'001);
}
