#pragma once
/// Draws a plot::Figure with PLplot (the one file that includes it). PNG goes through the
/// pngcairo driver; SVG through PLplot's own svg driver, which keeps text as <text>
/// elements (svgcairo turns every glyph into a path), so labels stay searchable.
#include <string>

#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot {

/// Writes `path` + ".moeplan-tmp" and renames it over `path`, so a failure leaves no file.
/// Returns an empty string on success, else the reason (also when the driver is missing).
std::string render(const Figure& figure, ImageFormat format, const std::string& path);

}  // namespace moeplan::plot
