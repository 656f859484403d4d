#pragma once
/// Draws a plot::Figure with PLplot (the one file that includes it). PNG goes through the
/// pngcairo driver; SVG through PLplot's own svg driver, which keeps text as <text>
/// elements (svgcairo turns every glyph into a path), so labels stay searchable.
#include <expected>
#include <string>

#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot {

/// The image's bytes (PNG or SVG), drawn in memory; the caller writes them (cli's
/// write_outputs: whole or nothing). Else the reason (also when the driver is missing).
std::expected<std::string, std::string> render(const Figure& figure, ImageFormat format);

}  // namespace moeplan::plot
