#include "output/printable.hpp"

#include <fmt/format.h>

#include "moeplan/base/utf8.hpp"

namespace moeplan::cli {

std::string printable(std::string_view raw, bool keep_newlines) {
  const std::string valid = valid_utf8(raw);
  const std::string_view text = valid;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' && keep_newlines) {
      out += '\n';
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\u{:04x}", c);
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      // C1 controls (CSI U+009B among them) in UTF-8: two bytes, one code point.
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[++i]));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace moeplan::cli
