#include "output/emitters.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "moeplan/base/number_parse.hpp"

namespace moeplan::cli {

Format parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "json") return Format::json;
  if (name == "toml") return Format::toml;
  if (name == "csv") return Format::csv;
  throw std::invalid_argument("unknown format: " + std::string(name));
}

namespace {

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
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
}

// Data formats are typed: a non-finite double becomes Missing, and every Missing field
// gets a KEY_reason string field right after it (JSON null / TOML absent / CSV empty).
Report typed(const Report& in, bool with_reasons = true) {
  Report out;
  for (const Section& s : in.sections) {
    Section t{s.key, s.title, {}};
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
      if (std::holds_alternative<std::string>(f.value) && std::get<std::string>(f.value).size() > 28) {
        continue;  // long strings (file paths) do not widen the column
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
      std::string line = fmt::format("  {:<{}}  {:>{}} {:<{}}  ", name, sym_w, human(f), val_w,
                                     f.unit, unit_w);
      out << line << dim(f.description, style) << "\n";
    }
  }
}

// One JSON object per report, already typed().
void json_object(const Report& r, std::ostream& out) {
  out << "{\n";
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    const Section& s = r.sections[i];
    out << "  " << json_string(s.key) << ": {\n";
    for (std::size_t j = 0; j < s.fields.size(); ++j) {
      const Field& f = s.fields[j];
      const std::string v = std::holds_alternative<std::string>(f.value)
                                ? json_string(std::get<std::string>(f.value))
                            : std::holds_alternative<Missing>(f.value) ? std::string("null")
                                                                      : exact(f.value);
      out << "    " << json_string(f.key) << ": " << v << (j + 1 < s.fields.size() ? ",\n" : "\n");
    }
    out << "  }" << (i + 1 < r.sections.size() ? ",\n" : "\n");
  }
  out << "}\n";
}

void emit_json(const Report& report, std::ostream& out) { json_object(typed(report), out); }

// The objects of a JSON array share their sections, so a tool can read any key of any of
// them: a section one report lacks (a sweep's budget without a plan) is written with every
// field null, the report's own reason field saying why.
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
    for (const Section* s : shape) {
      const auto own = std::find_if(reports[k].sections.begin(), reports[k].sections.end(),
                                    [&](const Section& t) { return t.key == s->key; });
      if (own != reports[k].sections.end()) {
        filled.sections.push_back(*own);
        continue;
      }
      Section nulls{s->key, s->title, {}};
      for (const Field& f : s->fields) nulls.fields.push_back({f.key, "", "", Missing{}, ""});
      filled.sections.push_back(std::move(nulls));
    }
    json_object(filled, out);
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
            if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, Missing>) t.insert(f.key, x);
          },
          f.value);  // TOML has no null: a Missing key is left out, KEY_reason says why
    }
    doc.insert(s.key, std::move(t));
  }
  return doc;
}

void emit_toml(const Report& r, std::ostream& out) { out << toml_of(r) << "\n"; }

// CSV: a missing number is an empty cell, and no KEY_reason columns, so every run of a
// command has the same header and files concatenate (the table and JSON/TOML say why).
void emit_csv(const Report& report, std::ostream& out) {
  const Report r = typed(report, false);
  std::vector<std::string> header, row;
  for (const Section& s : r.sections) {
    for (const Field& f : s.fields) {
      header.push_back(csv_cell(s.key + "." + f.key));
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
  const auto find = [](const Report& r, const std::string& sec, const std::string& key) -> const Field* {
    for (const Section& s : r.sections) {
      if (s.key != sec) continue;
      for (const Field& f : s.fields) {
        if (f.key == key) return &f;
      }
    }
    return nullptr;
  };
  for (std::size_t c = 0; c < reports.size(); ++c) {
    for (const Section& s : reports[c].sections) {
      for (const Field& f : s.fields) {
        const std::string v = human(f);
        if (v.size() <= k_long) col_w[c] = std::max(col_w[c], v.size());
      }
    }
  }
  std::vector<std::string> footnotes;
  bool first_section = true;
  for (const Section& s : first.sections) {
    out << (first_section ? "" : "\n") << heading(s.title, style) << "\n";
    first_section = false;
    for (const Field& f : s.fields) {
      const std::string name =
          (f.symbol.empty() ? f.key : f.symbol) + (f.unit.empty() ? "" : " [" + f.unit + "]");
      std::string line = fmt::format("  {:<{}}", name, name_w);
      for (std::size_t c = 0; c < reports.size(); ++c) {
        const Field* g = find(reports[c], s.key, f.key);
        std::string v = g ? human(*g) : "";
        if (v.size() > k_long) {
          footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, s.key, f.key, v));
          v = fmt::format("see [{}]", c + 1);
        }
        line += fmt::format("  {:>{}}", v, col_w[c]);
      }
      out << line << "\n";
    }
  }
  // Notes differ in number between models: list every model's long strings and notes.
  for (std::size_t c = 0; c < reports.size(); ++c) {
    for (const Section& s : reports[c].sections) {
      for (const Field& f : s.fields) {
        if (find(first, s.key, f.key) == nullptr) {
          footnotes.push_back(fmt::format("[{}] {}.{}: {}", c + 1, s.key, f.key, human(f)));
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
    for (const Section& s : r.sections) {
      for (const Field& f : s.fields) {
        const std::string k = s.key + "." + f.key;
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
      }
    }
  }
  std::vector<std::string> header;
  for (const std::string& k : keys) header.push_back(csv_cell(k));
  out << fmt::format("{}\n", fmt::join(header, ","));
  for (const Report& r : reports) {
    std::vector<std::string> row(keys.size());
    for (const Section& s : r.sections) {
      for (const Field& f : s.fields) {
        const auto at = std::find(keys.begin(), keys.end(), s.key + "." + f.key) - keys.begin();
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
        emit_table(reports.front(), out, style);
      } else {
        emit_table_many(reports, out, style);
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
    case Format::csv: emit_csv_many(reports, out); break;
  }
}

void emit(const Report& report, Format format, std::ostream& out, const TerminalStyle& style) {
  switch (format) {
    case Format::table: emit_table(report, out, style); break;
    case Format::json: emit_json(report, out); break;
    case Format::toml: emit_toml(report, out); break;
    case Format::csv: emit_csv(report, out); break;
  }
}

}  // namespace moeplan::cli
