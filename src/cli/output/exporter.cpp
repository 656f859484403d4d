// What the exporters share: typing a report for the data formats, making its text printable.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "output/exporter.hpp"
#include "output/printable.hpp"

namespace moeplan::cli {

std::string joined(const TextList& items, std::string_view separator) {
  return fmt::format("{}", fmt::join(items, separator));
}

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

// JSON null / TOML absent / CSV empty.
Report typed(const Report& in, bool with_reasons) {
  Report out;
  for (const Section& s : in.sections) {
    Section t{s.key, s.title, {}, s.repeated};
    for (const Field& f : s.fields) {
      Field g = f;
      if (const auto* d = std::get_if<double>(&g.value); d && !std::isfinite(*d)) {
        g.value = Missing{fmt::format("not a finite number ({})", *d)};
      }
      // Text from the user's files (a model's name, a file name) may not be UTF-8: the data
      // formats are, so each invalid byte is written as \xHH.
      g.key = valid_utf8(g.key);
      if (auto* text = std::get_if<std::string>(&g.value)) *text = valid_utf8(*text);
      if (auto* items = std::get_if<TextList>(&g.value)) {
        for (std::string& item : *items) item = valid_utf8(item);
      }
      if (auto* m = std::get_if<Missing>(&g.value)) m->reason = valid_utf8(m->reason);
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

}  // namespace moeplan::cli
