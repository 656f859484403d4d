// libFuzzer target: the texts `moeplan plot` draws (plot/drawn_text.hpp). The input is split
// at its first NUL into a title and a series name, set on a figure and cut for drawing.
// Invariants: every drawn text fits k_max_drawn_text_bytes (PLplot writes past a fixed buffer
// for a text of about 1 KiB: issue 46); a text within the bound is untouched; a cut text is a
// prefix of the original, cut on a UTF-8 character's first byte, followed by "…"; one note
// per text cut.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "moeplan/base/utf8.hpp"
#include "moeplan/plot/drawn_text.hpp"
#include "moeplan/plot/plot_data.hpp"

namespace {

void check_cut(const std::string& given, const std::string& drawn) {
  using moeplan::plot::k_max_drawn_text_bytes;
  // A byte that is not UTF-8 is drawn as \xHH (PLplot drops such a text): compare with that.
  const std::string original = moeplan::valid_utf8(given);
  FUZZ_CHECK(moeplan::is_valid_utf8(drawn), "a drawn text is UTF-8");
  FUZZ_CHECK(drawn.size() <= k_max_drawn_text_bytes, "a drawn text fits the bound");
  if (original.size() <= k_max_drawn_text_bytes) {
    FUZZ_CHECK(drawn == original, "a text within the bound is drawn whole");
    return;
  }
  const std::string_view ellipsis = "…";
  FUZZ_CHECK(drawn.size() >= ellipsis.size() && drawn.ends_with(ellipsis), "a cut text ends with an ellipsis");
  const std::size_t kept = drawn.size() - ellipsis.size();
  FUZZ_CHECK(original.compare(0, kept, drawn, 0, kept) == 0, "a cut text is a prefix of the original");
  FUZZ_CHECK((static_cast<unsigned char>(original[kept]) & 0xC0) != 0x80,
             "a cut falls on the first byte of a character");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  moeplan::plot::Figure figure;
  figure.title = std::string(input.substr(0, nul));
  figure.series.push_back({nul == std::string_view::npos ? "" : std::string(input.substr(nul + 1)),
                           moeplan::plot::SeriesStyle::line, {1.0}, {1.0}, {}});
  const moeplan::plot::Figure original = figure;
  const auto notes = moeplan::plot::shorten_drawn_texts(figure);
  check_cut(original.title, figure.title);
  check_cut(original.series[0].name, figure.series[0].name);
  const auto was_cut = [](const std::string& given) {
    return moeplan::valid_utf8(given).size() > moeplan::plot::k_max_drawn_text_bytes;
  };
  const std::size_t cut = was_cut(original.title) + was_cut(original.series[0].name);
  FUZZ_CHECK(notes.size() == cut, "one note per text cut");
  return 0;
}
