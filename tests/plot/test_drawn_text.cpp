// src/plot/drawn_text.cpp: texts drawn on a figure are cut on a character boundary (moved
// from test_plot_data.cpp).
#include <doctest/doctest.h>

#include <string>

#include "moeplan/plot/drawn_text.hpp"
#include "moeplan/plot/plot_data.hpp"

using namespace moeplan;

TEST_CASE("plot data: a drawn text is cut on a character boundary with an ellipsis, one note per cut") {
  using plot::shorten_drawn_text;
  CHECK(shorten_drawn_text("abc", 8) == "abc");
  CHECK(shorten_drawn_text("abcdefgh", 8) == "abcdefgh");
  CHECK(shorten_drawn_text("abcdefghi", 8) == "abcde…");  // 5 bytes + the 3-byte ellipsis
  // "é" is 2 bytes (0xC3 0xA9): a cut that would split it keeps the character out whole.
  CHECK(shorten_drawn_text("abcdé fgh", 8) == "abcd…");
  CHECK(shorten_drawn_text("★★★★", 8) == "★…");  // 3-byte characters: 3 + 3 bytes
  CHECK(shorten_drawn_text("abcdef", 2).empty());  // no room for the ellipsis

  plot::Figure f;
  f.title = std::string(300, 't');
  f.x_label = "C (FLOPs)";
  f.series.push_back({std::string(1000, 's'), plot::SeriesStyle::line, {1}, {1}, {}});
  f.series.push_back({"chosen", plot::SeriesStyle::marker, {1}, {1}, {}});
  const auto notes = plot::shorten_drawn_texts(f);
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].find("the title (300 bytes) is cut to 256 bytes") != std::string::npos);
  CHECK(notes[1].find("(1000 bytes) is cut to 256 bytes") != std::string::npos);
  CHECK(f.title.size() == 256);
  CHECK(f.title == std::string(253, 't') + "…");
  CHECK(f.series[0].name.size() == 256);
  CHECK(f.series[1].name == "chosen");
  CHECK(f.x_label == "C (FLOPs)");
}
