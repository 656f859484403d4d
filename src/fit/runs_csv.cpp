#include "moeplan/fit/runs_csv.hpp"

#include <csv.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>

#include <dlib/md5.h>
#include <fmt/format.h>

#include "moeplan/base/bounded_read.hpp"

namespace moeplan {

bool RunTable::has(const std::string& column) const {
  return numeric.contains(column) || text.contains(column);
}

const std::vector<double>& RunTable::col(const std::string& column) const {
  return numeric.at(column);
}

std::string CsvErrors::to_string() const {
  std::string s;
  for (const InputError& e : errors) s += e.to_string() + "\n";
  if (total > errors.size()) s += fmt::format("… and {} more errors\n", total - errors.size());
  if (!s.empty()) s.pop_back();
  return s;
}

namespace {

// 1-based character column where each field of a one-line record starts. libcsv reports
// no positions, so the (rare) error path re-feeds the line a byte at a time and notes
// where each field ends; the next field starts one byte later.
std::vector<int> field_columns(const std::string& line) {
  struct State {
    std::size_t offset = 0;
    std::vector<int> starts{1};
  } st;
  csv_parser p{};
  csv_init(&p, CSV_APPEND_NULL);
  auto on_field = [](void*, std::size_t, void* data) {
    auto* s = static_cast<State*>(data);
    s->starts.push_back(static_cast<int>(s->offset) + 2);
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    st.offset = i;
    csv_parse(&p, &line[i], 1, on_field, nullptr, &st);
  }
  csv_free(&p);
  return st.starts;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Parses one cell of a kept column; returns the reason when it is not acceptable.
std::expected<double, std::string> convert(std::string_view raw, ColumnKind kind) {
  const std::string_view s = trim(raw);
  if (s.empty()) return std::unexpected("empty cell (a value is required)");
  if (kind == ColumnKind::flag) {
    const std::string l = lower(s);
    if (l == "1" || l == "true" || l == "yes" || l == "validation") return 1.0;
    if (l == "0" || l == "false" || l == "no" || l == "train") return 0.0;
    return std::unexpected(fmt::format(
        "expected 1/0, true/false, yes/no or validation/train, got '{}'", s));
  }
  double v = 0;
  std::string_view digits = s.front() == '+' ? s.substr(1) : s;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return std::unexpected(fmt::format("number out of range: '{}'", s));
  }
  if (ec != std::errc{} || end != digits.data() + digits.size()) {
    return std::unexpected(fmt::format("not a number: '{}'", s));
  }
  if (!std::isfinite(v)) return std::unexpected(fmt::format("must be finite, got '{}'", s));
  switch (kind) {
    case ColumnKind::positive:
      if (v <= 0) return std::unexpected(fmt::format("must be positive, got {}", s));
      break;
    case ColumnKind::unit_closed:
      if (v < 0 || v > 1) return std::unexpected(fmt::format("must be in [0, 1], got {}", s));
      break;
    case ColumnKind::unit_right_open:
      if (v < 0 || v >= 1) return std::unexpected(fmt::format("must be in [0, 1), got {}", s));
      break;
    case ColumnKind::unit_open:
      if (v <= 0 || v > 1) return std::unexpected(fmt::format("must be in (0, 1], got {}", s));
      break;
    default:
      break;
  }
  return v;
}

struct Kept {
  std::size_t csv_index;
  ColumnSpec spec;
  std::vector<double>* numbers = nullptr;     // the table's column (map nodes are stable)
  std::vector<std::string>* texts = nullptr;
};

// The streaming state libcsv's callbacks write into.
class Parser {
 public:
  Parser(std::string source, const ColumnChooser& choose, const CsvReadOptions& options)
      : choose_(choose), options_(options) {
    table_.source = std::move(source);
  }

  void feed_line(const std::string& line, int line_no) {
    line_no_ = line_no;
    current_line_ = &line;
    if (at_record_start_) {
      // Comment and blank lines exist only between records (inside a quoted field a '#'
      // or an empty line is data).
      const std::string_view t = trim(line);
      if (t.empty() || t.front() == '#') return;
      record_line_ = line_no;
      record_single_line_ = true;
      at_record_start_ = false;
    } else {
      record_single_line_ = false;
    }
    const std::string with_newline = line + "\n";
    if (csv_parse(&p_, with_newline.data(), with_newline.size(), on_field, on_row, this) !=
        with_newline.size()) {
      fail(line_no, 0, "", fmt::format("malformed CSV: {}", csv_strerror(csv_error(&p_))));
      csv_free(&p_);
      init(delimiter_);
      fields_.clear();
      at_record_start_ = true;
    }
  }

  std::expected<RunTable, CsvErrors> finish() {
    if (csv_fini(&p_, on_field, on_row, this) != 0) {
      fail(record_line_, 0, "", "malformed CSV at end of file: unterminated quoted field");
    }
    if (!header_done_ && errors_.total == 0) {
      fail(0, 0, "", "empty file: expected a header row naming the columns");
    } else if (header_done_ && table_.rows == 0 && errors_.total == 0) {
      fail(0, 0, "", "no data rows after the header");
    }
    if (errors_.total > 0) return std::unexpected(std::move(errors_));
    return std::move(table_);
  }

  ~Parser() { csv_free(&p_); }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  static constexpr unsigned char options_flags = CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL;
  void init(char delimiter) {
    delimiter_ = delimiter;
    csv_init(&p_, options_flags);
    csv_set_delim(&p_, static_cast<unsigned char>(delimiter));
  }

 private:
  static void on_field(void* s, std::size_t len, void* data) {
    auto* self = static_cast<Parser*>(data);
    self->fields_.emplace_back(static_cast<const char*>(s), len);
  }
  static void on_row(int, void* data) {
    auto* self = static_cast<Parser*>(data);
    self->end_record();
    self->fields_.clear();
    self->at_record_start_ = true;
  }

  int column_of(std::size_t field) const {
    if (!record_single_line_ || current_line_ == nullptr) return 0;
    const std::vector<int> cols = field_columns(*current_line_);
    return field < cols.size() ? cols[field] : 0;
  }

  void fail(int line, int column, const std::string& key, std::string reason) {
    ++errors_.total;
    if (errors_.errors.size() < options_.max_errors) {
      errors_.errors.push_back({table_.source, line, column, key, std::move(reason)});
    }
  }

  void end_record() {
    if (!header_done_) {
      read_header();
      header_done_ = true;
      return;
    }
    if (!kept_ok_) return;  // header errors already reported; rows cannot be checked
    const std::size_t width = names_.size();
    if (fields_.size() != width) {
      const std::string detail =
          fields_.size() < width
              ? fmt::format("missing column '{}'", names_[fields_.size()])
              : fmt::format("{} extra field(s) after the last column", fields_.size() - width);
      fail(record_line_, 0, "",
           fmt::format("row has {} fields but the header has {} ({})", fields_.size(), width,
                       detail));
      return;
    }
    // Each cell is converted once; the row is stored only if every cell passed.
    bool row_ok = true;
    row_values_.resize(kept_.size());
    for (std::size_t c = 0; c < kept_.size(); ++c) {
      const Kept& k = kept_[c];
      const std::string& raw = fields_[k.csv_index];
      if (k.spec.kind == ColumnKind::text) {
        if (trim(raw).empty() && k.spec.required) {
          fail(record_line_, column_of(k.csv_index), k.spec.name, "empty cell (a value is required)");
          row_ok = false;
        }
        continue;
      }
      if (auto v = convert(raw, k.spec.kind); v) {
        row_values_[c] = *v;
      } else {
        fail(record_line_, column_of(k.csv_index), k.spec.name, v.error());
        row_ok = false;
      }
    }
    if (!row_ok || errors_.total > 0) return;  // once failed, only collect messages
    for (std::size_t c = 0; c < kept_.size(); ++c) {
      const Kept& k = kept_[c];
      if (k.texts != nullptr) {
        k.texts->emplace_back(trim(fields_[k.csv_index]));
      } else {
        k.numbers->push_back(row_values_[c]);
      }
    }
    table_.line.push_back(static_cast<std::uint32_t>(record_line_));
    ++table_.rows;
  }

  void read_header() {
    // Rename CSV names to law names (--column loss=BPC means the CSV's BPC is the loss).
    std::map<std::string, std::string> csv_to_law;
    std::set<std::string> renamed_to;
    for (const auto& [law, csv] : options_.renames) {
      csv_to_law[csv] = law;
      renamed_to.insert(law);
    }
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      std::string name(trim(fields_[i]));
      if (name.empty()) {
        // pandas' index column, a trailing comma: unnamed columns are unused, like any
        // column no law reads. A placeholder keeps the row width.
        names_.push_back(fmt::format("(unnamed column {})", i + 1));
        continue;
      }
      if (auto it = csv_to_law.find(name); it != csv_to_law.end()) {
        name = it->second;
      } else if (renamed_to.contains(name)) {
        // --column loss=BPC with a 'loss' column as well: BPC is the loss; 'loss' is unused.
        name = fmt::format("({}, replaced by --column)", name);
      }
      if (auto [it, inserted] = seen.emplace(name, i); !inserted) {
        fail(record_line_, column_of(i), name,
             fmt::format("duplicate column (also column {})", it->second + 1));
      }
      names_.push_back(name);
    }
    for (const auto& [law, csv] : options_.renames) {
      if (!seen.contains(law)) {
        fail(record_line_, 0, "--column",
             fmt::format("{}={}: the header has no column '{}'", law, csv, csv));
      }
    }
    table_.header = names_;
    if (errors_.total > 0) return;
    auto specs = choose_(names_);
    if (!specs) {
      fail(record_line_, 0, "", specs.error());
      return;
    }
    for (const auto& [law, csv] : options_.renames) {
      const std::string& name = law;  // Clang 16 cannot capture a structured binding
      const bool used = std::any_of(specs->begin(), specs->end(),
                                    [&](const ColumnSpec& spec) { return spec.name == name; });
      if (!used) {
        std::string names;
        for (const ColumnSpec& spec : *specs) names += (names.empty() ? "" : ", ") + spec.name;
        fail(record_line_, 0, "--column",
             fmt::format("{}={}: the law reads no column '{}' (its columns: {})", law, csv, law, names));
      }
    }
    if (errors_.total > 0) return;
    for (const ColumnSpec& spec : *specs) {
      auto it = seen.find(spec.name);
      if (it == seen.end()) {
        if (spec.required) {
          fail(record_line_, 0, "",
               fmt::format("missing column '{}' ({})", spec.name, spec.meaning));
        }
        continue;
      }
      if (spec.kind == ColumnKind::text) {
        kept_.push_back({it->second, spec, nullptr, &table_.text[spec.name]});
      } else {
        kept_.push_back({it->second, spec, &table_.numeric[spec.name], nullptr});
      }
    }
    kept_ok_ = errors_.total == 0;
  }

  const ColumnChooser& choose_;
  const CsvReadOptions& options_;
  csv_parser p_{};
  RunTable table_;
  CsvErrors errors_;
  std::vector<std::string> fields_;
  std::vector<std::string> names_;
  std::vector<Kept> kept_;
  std::vector<double> row_values_;
  bool header_done_ = false;
  char delimiter_ = ',';
  bool kept_ok_ = false;
  bool at_record_start_ = true;
  bool record_single_line_ = true;
  int line_no_ = 0;
  int record_line_ = 0;
  const std::string* current_line_ = nullptr;
};

// What spreadsheets and dataframes write, read as what the user meant: a UTF-8 byte-order
// mark (Excel's "CSV UTF-8") is dropped, old-Mac CR-only line ends become LF, and a header
// with no comma but ';' or a tab sets that separator (European Excel, TSV).
std::expected<RunTable, CsvErrors> parse_stream(std::string_view text, const std::string& source,
                                                const ColumnChooser& choose,
                                                const CsvReadOptions& options) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::string normalised;
  if (text.find('\n') == std::string_view::npos && text.find('\r') != std::string_view::npos) {
    normalised.assign(text);
    std::replace(normalised.begin(), normalised.end(), '\r', '\n');
    text = normalised;
  }
  char delimiter = ',';
  std::size_t at = 0;
  while (at < text.size()) {  // the first line that is not blank or a comment
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == '#') continue;
    if (line.find(',') == std::string_view::npos) {
      if (line.find(';') != std::string_view::npos) delimiter = ';';
      else if (line.find('\t') != std::string_view::npos) delimiter = '\t';
    }
    break;
  }
  Parser parser(source, choose, options);
  parser.init(delimiter);
  std::istringstream in{std::string(text)};
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    parser.feed_line(line, ++line_no);
  }
  return parser.finish();
}

}  // namespace

std::expected<RunTable, CsvErrors> parse_runs_csv(const std::string& text,
                                                  const std::string& source,
                                                  const ColumnChooser& choose,
                                                  const CsvReadOptions& options) {
  auto table = parse_stream(text, source, choose, options);
  if (table) table->md5 = dlib::md5(text);
  return table;
}

std::expected<RunTable, CsvErrors> read_runs_csv(const std::string& path,
                                                 const ColumnChooser& choose,
                                                 const CsvReadOptions& options) {
  // The bytes are read once and both parsed and hashed, so a pipe (fit <(cat runs.csv),
  // /dev/stdin, '-') records the MD5 of what was read, not of an empty reopened stream.
  // Bounded: fit /dev/zero is refused after 256 MiB, not read until memory runs out.
  constexpr std::string_view what = "a runs or residuals CSV";
  auto read = path == "-" ? read_stdin_bounded(k_max_csv_bytes, what)
                          : read_bounded(path, k_max_csv_bytes, what);
  if (!read) {
    CsvErrors e;
    e.errors.push_back(read.error());
    e.total = 1;
    return std::unexpected(std::move(e));
  }
  const std::string& bytes = *read;
  auto table = parse_stream(bytes, path == "-" ? std::string("<stdin>") : path, choose, options);
  if (table) table->md5 = dlib::md5(bytes);
  return table;
}

}  // namespace moeplan
