#include "output/emitters.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

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
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
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
        } else {
          const double a = std::abs(x);
          if (a != 0 && (a >= 1e5 || a < 1e-3)) {
            return fmt::format("{:.4e}", x);
          }
          return fmt::format("{:.4g}", x);
        }
      },
      f.value);
}

void emit_table(const Report& r, std::ostream& out) {
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
    out << (first ? "" : "\n") << s.title << "\n";
    first = false;
    for (const auto& f : s.fields) {
      const std::string& name = f.symbol.empty() ? f.key : f.symbol;
      out << fmt::format("  {:<{}}  {:>{}} {:<{}}  {}\n", name, sym_w, human(f), val_w, f.unit,
                         unit_w, f.description);
    }
  }
}

void emit_json(const Report& r, std::ostream& out) {
  out << "{\n";
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    const Section& s = r.sections[i];
    out << "  " << json_string(s.key) << ": {\n";
    for (std::size_t j = 0; j < s.fields.size(); ++j) {
      const Field& f = s.fields[j];
      const std::string v = std::holds_alternative<std::string>(f.value)
                                ? json_string(std::get<std::string>(f.value))
                                : exact(f.value);
      out << "    " << json_string(f.key) << ": " << v << (j + 1 < s.fields.size() ? ",\n" : "\n");
    }
    out << "  }" << (i + 1 < r.sections.size() ? ",\n" : "\n");
  }
  out << "}\n";
}

void emit_toml(const Report& r, std::ostream& out) {
  toml::table doc;
  for (const Section& s : r.sections) {
    toml::table t;
    for (const Field& f : s.fields) {
      std::visit([&](const auto& x) { t.insert(f.key, x); }, f.value);
    }
    doc.insert(s.key, std::move(t));
  }
  out << doc << "\n";
}

void emit_csv(const Report& r, std::ostream& out) {
  std::vector<std::string> header, row;
  for (const Section& s : r.sections) {
    for (const Field& f : s.fields) {
      header.push_back(csv_cell(s.key + "." + f.key));
      row.push_back(csv_cell(exact(f.value)));
    }
  }
  out << fmt::format("{}\n{}\n", fmt::join(header, ","), fmt::join(row, ","));
}

}  // namespace

void emit(const Report& report, Format format, std::ostream& out) {
  switch (format) {
    case Format::table: emit_table(report, out); break;
    case Format::json: emit_json(report, out); break;
    case Format::toml: emit_toml(report, out); break;
    case Format::csv: emit_csv(report, out); break;
  }
}

}  // namespace moeplan::cli
