#include "moeplan/plot/drawn_text.hpp"

#include <fmt/format.h>

#include "moeplan/base/utf8.hpp"
#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot {

namespace {

constexpr std::string_view k_ellipsis = "…";  // U+2026, 3 bytes in UTF-8

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string shorten_drawn_text(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  if (max_bytes < k_ellipsis.size()) return "";
  std::size_t end = max_bytes - k_ellipsis.size();
  // Back to the first byte of a character, so that no multi-byte character is split.
  while (end > 0 && continuation_byte(text[end])) --end;
  return std::string(text.substr(0, end)) + std::string(k_ellipsis);
}

std::vector<std::string> shorten_drawn_texts(Figure& figure) {
  std::vector<std::string> notes;
  const auto cut = [&notes](std::string& text, const std::string& what) {
    text = valid_utf8(text);  // PLplot drops a text that is not UTF-8 ("UTF-8 string is malformed")
    if (text.size() <= k_max_drawn_text_bytes) return;
    notes.push_back(fmt::format("plot: the {} ({} bytes) is cut to {} bytes in the image, the most one drawn text "
                                "holds; the data (-o FILE.csv or .json, --data) keeps it whole",
                                what, text.size(), k_max_drawn_text_bytes));
    text = shorten_drawn_text(text);
  };
  cut(figure.title, "title");
  cut(figure.caption, "caption");
  cut(figure.x_label, "x-axis label");
  cut(figure.y_label, "y-axis label");
  cut(figure.z_label, "colour-bar label");
  for (Series& s : figure.series) cut(s.name, "series name '" + shorten_drawn_text(s.name, 40) + "'");
  for (Bar& b : figure.bars) {
    cut(b.label, "bar label");
    cut(b.unit, "bar unit");
  }
  return notes;
}

}  // namespace moeplan::plot
