// The table: aligned text for people, one report or several side by side.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include "output/exporter.hpp"

namespace moeplan::cli {
namespace {

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

class TableExporter final : public Exporter {
 public:
  explicit TableExporter(const TerminalStyle& style) : style_(style) {}
  void write(const Report& report, std::ostream& out) const override {
    emit_table(printable_report(report), out, style_);
  }
  void write_many(const std::vector<Report>& reports, std::ostream& out, std::string_view) const override {
    if (reports.size() == 1) {
      write(reports.front(), out);
    } else {
      emit_table_many(printable_reports(reports), out, style_);
    }
  }

 private:
  TerminalStyle style_;
};

}  // namespace

std::unique_ptr<Exporter> table_exporter(const TerminalStyle& style) { return std::make_unique<TableExporter>(style); }

}  // namespace moeplan::cli
