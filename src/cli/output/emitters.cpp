#include "output/emitters.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "moeplan/base/number_parse.hpp"
#include "output/printable.hpp"

namespace moeplan::cli {

Format parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "json") return Format::json;
  if (name == "toml") return Format::toml;
  if (name == "csv") return Format::csv;
  throw std::invalid_argument("unknown format: " + std::string(name));
}

namespace {

// A list's items in one CSV cell or table cell.
std::string joined(const TextList& items, std::string_view separator) {
  return fmt::format("{}", fmt::join(items, separator));
}

// Shortest text that reads back to the same double (fmt's default for "{}").
std::string exact(const Value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else if constexpr (std::is_same_v<T, Missing>) {
          return "";
        } else if constexpr (std::is_same_v<T, TextList>) {
          return joined(x, " | ");
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
}

// Each section's place in a flat namespace: its key, or KEY.N (N from 1) for the N-th
// section of a repeated key. CSV columns and the side-by-side table are keyed by it.
std::vector<std::string> section_ids(const Report& r) {
  std::vector<std::string> ids;
  for (const Section& s : r.sections) {
    if (!s.repeated) {
      ids.push_back(s.key);
      continue;
    }
    const auto n = std::count_if(ids.begin(), ids.end(), [&](const std::string& id) {
      return id.starts_with(s.key + ".");
    });
    ids.push_back(fmt::format("{}.{}", s.key, n + 1));
  }
  return ids;
}

// Data formats are typed: a non-finite double becomes Missing, and every Missing field
// gets a KEY_reason string field right after it (JSON null / TOML absent / CSV empty).
Report typed(const Report& in, bool with_reasons = true) {
  Report out;
  for (const Section& s : in.sections) {
    Section t{s.key, s.title, {}, s.repeated};
    for (const Field& f : s.fields) {
      Field g = f;
      if (const auto* d = std::get_if<double>(&g.value); d && !std::isfinite(*d)) {
        g.value = Missing{fmt::format("not a finite number ({})", *d)};
      }
      t.fields.push_back(g);
      if (const auto* m = std::get_if<Missing>(&g.value); m && with_reasons) {
        t.fields.push_back({f.key + "_reason", "", "", m->reason, "why " + f.key + " is null"});
      }
    }
    out.sections.push_back(std::move(t));
  }
  return out;
}

// The table and CSV print text as it is (JSON and TOML escape it themselves): every text of
// the report through printable(), so a control character in a model's name or a path shows
// as an escape instead of reaching the terminal or splitting a CSV row.
Report printable_report(const Report& in) {
  Report out = in;
  for (Section& s : out.sections) {
    s.key = printable(s.key);
    s.title = printable(s.title);
    for (Field& f : s.fields) {
      for (std::string* text : {&f.key, &f.symbol, &f.unit, &f.description}) *text = printable(*text);
      if (auto* v = std::get_if<std::string>(&f.value)) *v = printable(*v);
      if (auto* m = std::get_if<Missing>(&f.value)) m->reason = printable(m->reason);
      if (auto* items = std::get_if<TextList>(&f.value)) {
        for (std::string& item : *items) item = printable(item);
      }
    }
  }
  return out;
}

std::vector<Report> printable_reports(const std::vector<Report>& in) {
  std::vector<Report> out;
  for (const Report& r : in) out.push_back(printable_report(r));
  return out;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

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

// Human view: 4 significant digits for reals, thousands grouping for big counts.
std::string human(const Field& f) {
  return std::visit(
      [&](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "yes" : "no";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return fmt::format("{}", x);
        } else if constexpr (std::is_same_v<T, Missing>) {
          return "n/a (" + x.reason + ")";
        } else if constexpr (std::is_same_v<T, TextList>) {
          return joined(x, "; ");
        } else {
          if (!std::isfinite(x)) return fmt::format("n/a ({})", x);
          if (f.exact) return shortest_scientific(x);
          const double a = std::abs(x);
          if (a != 0 && (a >= 1e5 || a < 1e-3)) {
            return fmt::format("{:.4e}", x);
          }
          return fmt::format("{:.4g}", x);
        }
      },
      f.value);
}

/// A section heading: plain, or bold cyan under a box-drawing rule on a terminal.
std::string heading(const std::string& title, const TerminalStyle& style) {
  std::string line = title;
  if (style.unicode) {
    constexpr std::size_t width = 78;
    const std::size_t used = title.size() + 4;  // "── " + title + " "
    std::string rule;
    for (std::size_t i = used; i < width; ++i) rule += "─";
    line = "── " + title + " " + rule;
  }
  return style.colour ? "\x1b[1;36m" + line + "\x1b[0m" : line;
}

/// Descriptions are secondary: dim on a colour terminal.
std::string dim(const std::string& text, const TerminalStyle& style) {
  return style.colour && !text.empty() ? "\x1b[2m" + text + "\x1b[0m" : text;
}

void emit_table(const Report& r, std::ostream& out, const TerminalStyle& style) {
  std::size_t sym_w = 0, val_w = 0, unit_w = 0;
  for (const auto& s : r.sections) {
    for (const auto& f : s.fields) {
      sym_w = std::max(sym_w, (f.symbol.empty() ? f.key : f.symbol).size());
      const bool text = std::holds_alternative<std::string>(f.value) || std::holds_alternative<Missing>(f.value);
      if ((text && human(f).size() > 28) || std::holds_alternative<TextList>(f.value)) {
        continue;  // long strings (file paths, a missing value's reason) and lists do not widen the column
      }
      val_w = std::max(val_w, human(f).size());
      unit_w = std::max(unit_w, f.unit.size());
    }
  }
  bool first = true;
  for (const auto& s : r.sections) {
    out << (first ? "" : "\n") << heading(s.title, style) << "\n";
    first = false;
    for (const auto& f : s.fields) {
      const std::string& name = f.symbol.empty() ? f.key : f.symbol;
      if (const auto* items = std::get_if<TextList>(&f.value)) {  // a row per item, unaligned
        if (items->empty()) out << fmt::format("  {:<{}}  (none)\n", name, sym_w);
        for (const std::string& item : *items) out << fmt::format("  {:<{}}  {}\n", name, sym_w, item);
        continue;
      }
      std::string line = fmt::format("  {:<{}}  {:>{}} {:<{}}  ", name, sym_w, human(f), val_w,
                                     f.unit, unit_w);
      out << line << dim(f.description, style) << "\n";
    }
  }
}

std::string json_value(const Value& v) {
  if (const auto* text = std::get_if<std::string>(&v)) return json_string(*text);
  if (std::holds_alternative<Missing>(v)) return "null";
  if (const auto* items = std::get_if<TextList>(&v)) {
    std::vector<std::string> quoted;
    for (const std::string& item : *items) quoted.push_back(json_string(item));
    return fmt::format("[{}]", fmt::join(quoted, ", "));
  }
  return exact(v);
}

void json_fields(const Section& s, std::ostream& out, std::string_view indent) {
  out << "{\n";
  for (std::size_t j = 0; j < s.fields.size(); ++j) {
    const Field& f = s.fields[j];
    out << indent << "  " << json_string(f.key) << ": " << json_value(f.value)
        << (j + 1 < s.fields.size() ? ",\n" : "\n");
  }
  out << indent << "}";
}

// One JSON object per report, already typed(): a section is an object, the sections of a
// repeated key one array of objects where the first of them stands. `empty_arrays` are
// repeated keys the report has no section of, written as [] so every object of a JSON
// array has them.
void json_object(const Report& r, std::ostream& out, const std::vector<std::string>& empty_arrays = {}) {
  std::vector<std::string> entries;
  std::vector<std::string> done;  // repeated keys already written
  for (const Section& s : r.sections) {
    std::ostringstream entry;
    entry << "  " << json_string(s.key) << ": ";
    if (!s.repeated) {
      json_fields(s, entry, "  ");
    } else if (std::find(done.begin(), done.end(), s.key) != done.end()) {
      continue;
    } else {
      done.push_back(s.key);
      entry << "[";
      bool first = true;
      for (const Section& t : r.sections) {
        if (!t.repeated || t.key != s.key) continue;
        entry << (first ? "\n    " : ",\n    ");
        json_fields(t, entry, "    ");
        first = false;
      }
      entry << "\n  ]";
    }
    entries.push_back(entry.str());
  }
  for (const std::string& key : empty_arrays) entries.push_back("  " + json_string(key) + ": []");
  out << "{\n" << fmt::format("{}", fmt::join(entries, ",\n")) << "\n}\n";
}

void emit_json(const Report& report, std::ostream& out) { json_object(typed(report), out); }

// The objects of a JSON array share their sections, so a tool can read any key of any of
// them: a section one report lacks (a sweep's budget without a plan) is written with every
// field null, the report's own reason field saying why, and a missing array as [].
void emit_json_many(const std::vector<Report>& untyped, std::ostream& out) {
  std::vector<Report> reports;
  for (const Report& r : untyped) reports.push_back(typed(r));
  std::vector<const Section*> shape;  // every section key once, as first seen
  for (const Report& r : reports) {
    for (const Section& s : r.sections) {
      if (std::none_of(shape.begin(), shape.end(), [&](const Section* t) { return t->key == s.key; })) {
        shape.push_back(&s);
      }
    }
  }
  out << "[\n";
  for (std::size_t k = 0; k < reports.size(); ++k) {
    Report filled;
    std::vector<std::string> empty_arrays;
    for (const Section* s : shape) {
      bool own = false;
      for (const Section& t : reports[k].sections) {
        if (t.key != s->key) continue;
        filled.sections.push_back(t);
        own = true;
      }
      if (own) continue;
      if (s->repeated) {
        empty_arrays.push_back(s->key);
        continue;
      }
      Section nulls{s->key, s->title, {}};
      for (const Field& f : s->fields) nulls.fields.push_back({f.key, "", "", Missing{}, ""});
      filled.sections.push_back(std::move(nulls));
    }
    json_object(filled, out, empty_arrays);
    if (k + 1 < reports.size()) out << ",\n";
  }
  out << "]\n";
}

toml::table toml_of(const Report& report) {
  const Report r = typed(report);
  toml::table doc;
  for (const Section& s : r.sections) {
    toml::table t;
    for (const Field& f : s.fields) {
      std::visit(
          [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, TextList>) {
              toml::array items;
              for (const std::string& item : x) items.push_back(item);
              t.insert(f.key, std::move(items));
            } else if constexpr (!std::is_same_v<T, Missing>) {
              t.insert(f.key, x);
            }
          },
          f.value);  // TOML has no null: a Missing key is left out, KEY_reason says why
    }
    if (!s.repeated) {
      doc.insert(s.key, std::move(t));
      continue;
    }
    if (!doc.contains(s.key)) doc.insert(s.key, toml::array{});  // [[key]]
    doc[s.key].as_array()->push_back(std::move(t));
  }
  return doc;
}

void emit_toml(const Report& r, std::ostream& out) { out << toml_of(r) << "\n"; }

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

void emit_table_many(const std::vector<Report>& reports, std::ostream& out,
                     const TerminalStyle& style) {
  constexpr std::size_t k_long = 24;  // longer strings go below the table
  std::size_t name_w = 0;
  std::vector<std::size_t> col_w(reports.size(), 0);
  const Report& first = reports.front();
  for (const Section& s : first.sections) {
    for (const Field& f : s.fields) {
      name_w = std::max(name_w, (f.symbol.empty() ? f.key : f.symbol).size() + f.unit.size() + 3);
    }
  }
  std::vector<std::vector<std::string>> ids;  // section_ids of each report
  for (const Report& r : reports) ids.push_back(section_ids(r));
  const auto find = [&](std::size_t c, const std::string& sec, const std::string& key) -> const Field* {
    for (std::size_t i = 0; i < reports[c].sections.size(); ++i) {
      if (ids[c][i] != sec) continue;
      for (const Field& f : reports[c].sections[i].fields) {
        if (f.key == key) return &f;
      }
    }
    return nullptr;
  };
  // A list goes below the table, an item a line: "[k] section.key: item".
  std::vector<std::string> footnotes;
  const auto cell = [&](std::size_t c, const std::string& sec, const Field& f) -> std::string {
    if (const auto* items = std::get_if<TextList>(&f.value)) {
      for (const std::string& item : *items) footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, sec, f.key, item));
      return items->empty() ? "" : fmt::format("see [{}]", c + 1);
    }
    std::string v = human(f);
    if (v.size() > k_long) {
      footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, sec, f.key, v));
      v = fmt::format("see [{}]", c + 1);
    }
    return v;
  };
  for (std::size_t c = 0; c < reports.size(); ++c) {
    for (const Section& s : reports[c].sections) {
      for (const Field& f : s.fields) {
        const std::string v = human(f);
        if (v.size() <= k_long && !std::holds_alternative<TextList>(f.value)) {
          col_w[c] = std::max(col_w[c], v.size());
        }
      }
    }
  }
  bool first_section = true;
  for (std::size_t i = 0; i < first.sections.size(); ++i) {
    const Section& s = first.sections[i];
    out << (first_section ? "" : "\n") << heading(s.title, style) << "\n";
    first_section = false;
    for (const Field& f : s.fields) {
      const std::string name =
          (f.symbol.empty() ? f.key : f.symbol) + (f.unit.empty() ? "" : " [" + f.unit + "]");
      std::string line = fmt::format("  {:<{}}", name, name_w);
      for (std::size_t c = 0; c < reports.size(); ++c) {
        const Field* g = find(c, ids[0][i], f.key);
        line += fmt::format("  {:>{}}", g ? cell(c, ids[0][i], *g) : "", col_w[c]);
      }
      out << line << "\n";
    }
  }
  // Fields the first report lacks (other models' extra sections) go below the table too.
  for (std::size_t c = 0; c < reports.size(); ++c) {
    for (std::size_t i = 0; i < reports[c].sections.size(); ++i) {
      for (const Field& f : reports[c].sections[i].fields) {
        if (find(0, ids[c][i], f.key) != nullptr) continue;
        if (const auto* items = std::get_if<TextList>(&f.value)) {
          for (const std::string& item : *items) footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, ids[c][i], f.key, item));
        } else {
          footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, ids[c][i], f.key, human(f)));
        }
      }
    }
  }
  // "[k] key: value" repeated for every model collapses to one "[all] key: value".
  std::vector<std::string> shown;
  for (const std::string& n : footnotes) {
    const std::string rest = n.substr(n.find(']') + 1);
    const auto same = static_cast<std::size_t>(std::count_if(
        footnotes.begin(), footnotes.end(),
        [&](const std::string& o) { return o.substr(o.find(']') + 1) == rest; }));
    const std::string line = same == reports.size() ? "[all]" + rest : n;
    if (std::find(shown.begin(), shown.end(), line) == shown.end()) shown.push_back(line);
  }
  if (!shown.empty()) {
    out << "\n";
    for (const std::string& n : shown) out << n << "\n";
  }
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

}  // namespace

void emit_many(const std::vector<Report>& reports, Format format, std::ostream& out,
               const TerminalStyle& style, std::string_view toml_array_key) {
  if (reports.empty()) return;
  switch (format) {
    case Format::table:
      if (reports.size() == 1) {
        emit_table(printable_report(reports.front()), out, style);
      } else {
        emit_table_many(printable_reports(reports), out, style);
      }
      break;
    case Format::json: emit_json_many(reports, out); break;
    case Format::toml: {
      toml::array models;
      for (const Report& r : reports) models.push_back(toml_of(r));
      toml::table doc;
      doc.insert(toml_array_key, std::move(models));
      out << doc << "\n";
      break;
    }
    case Format::csv: emit_csv_many(printable_reports(reports), out); break;
  }
}

void emit(const Report& report, Format format, std::ostream& out, const TerminalStyle& style) {
  switch (format) {
    case Format::table: emit_table(printable_report(report), out, style); break;
    case Format::json: emit_json(report, out); break;
    case Format::toml: emit_toml(report, out); break;
    case Format::csv: emit_csv(printable_report(report), out); break;
  }
}

}  // namespace moeplan::cli
