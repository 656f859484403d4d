// JSON: {"section": {"key": value}} with full-precision numbers; several reports an array
// of objects with the same sections.
#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "output/exporter.hpp"

namespace moeplan::cli {
namespace {

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
void json_object(const Report& r, std::ostream& out, const std::vector<std::string>& empty_arrays) {
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

void emit_json(const Report& report, std::ostream& out) { json_object(typed(report), out, {}); }

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

class JsonExporter final : public Exporter {
 public:
  void write(const Report& report, std::ostream& out) const override { emit_json(report, out); }
  void write_many(const std::vector<Report>& reports, std::ostream& out, std::string_view) const override {
    emit_json_many(reports, out);
  }
};

}  // namespace

std::unique_ptr<Exporter> json_exporter() { return std::make_unique<JsonExporter>(); }

}  // namespace moeplan::cli
