// TOML: [section] tables; several reports an array of tables under one key.
#include <ostream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "output/exporter.hpp"

namespace moeplan::cli {
namespace {

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

class TomlExporter final : public Exporter {
 public:
  void write(const Report& report, std::ostream& out) const override { emit_toml(report, out); }
  void write_many(const std::vector<Report>& reports, std::ostream& out, std::string_view array_key) const override {
    toml::array models;
    for (const Report& r : reports) models.push_back(toml_of(r));
    toml::table doc;
    doc.insert(array_key, std::move(models));
    out << doc << "\n";
  }
};

}  // namespace

std::unique_ptr<Exporter> toml_exporter() { return std::make_unique<TomlExporter>(); }

}  // namespace moeplan::cli
