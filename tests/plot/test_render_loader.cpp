// src/plot/render_loader.cpp: plot::render loads the PLplot module (libmoeplan_plplot.so, from
// the build directory here) on its first figure and draws through it, cutting every drawn text
// to what PLplot's buffer takes first (drawn_text.hpp), whoever calls. Built only with PLplot.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "moeplan/plot/plot_data.hpp"
#include "render.hpp"

using namespace moeplan;

namespace {

std::size_t occurrences(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("plot::render: the module drawn through, a PNG and an SVG whose 5000-byte title is cut to 256 bytes") {
  plot::Figure f;
  f.kind = "loss-vs-compute";
  f.title = std::string(5000, 'Q');  // no other Q is drawn: the axis labels and keys are lower case
  f.x_label = "compute";
  f.y_label = "loss";
  f.log_x = true;
  f.series.push_back({"line", plot::SeriesStyle::line, {1e20, 1e21, 1e22}, {2.5, 2.3, 2.1}, {}});
  const auto png = plot::render(f, plot::ImageFormat::png);
  REQUIRE_MESSAGE(png.has_value(), png.error());
  CHECK(png->compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  const auto svg = plot::render(f, plot::ImageFormat::svg);  // the module loaded once, kept
  REQUIRE_MESSAGE(svg.has_value(), svg.error());
  // PLplot's svg driver writes each character as &#xNN;: 253 Q (0x51) and the 3-byte ellipsis.
  CHECK(occurrences(*svg, "&#x51;") == 253);
  CHECK(f.title.size() == 5000);  // the caller's figure is left as it was
}
