#include "plplot_module.hpp"

#include <plplot/plplot.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace moeplan::plot {

namespace {

// cmap0 slots (PLplot colour map 0): background, axes, band, then the series colours.
enum Colour : PLINT { k_background = 0, k_ink = 1, k_band = 2, k_chosen = 3, k_minimum = 4,
                      k_first_series = 5 };
constexpr int k_series_colours = 6;

void set_palette() {
  // White background, black ink, light grey band, red chosen, black minimum, then a
  // colour-blind-safe series palette (Okabe–Ito).
  // Slots 11-15 are spare (15: the legend background).
  PLINT r[] = {255, 0, 215, 213, 0, 0, 230, 0, 204, 86, 120, 0, 0, 0, 0, 255};
  PLINT g[] = {255, 0, 215, 0, 0, 114, 159, 158, 121, 180, 120, 0, 0, 0, 0, 255};
  PLINT b[] = {255, 0, 215, 0, 0, 178, 0, 115, 167, 233, 120, 0, 0, 0, 0, 255};
  plscmap0(r, g, b, static_cast<PLINT>(std::size(r)));
}

// Stacked bars (kind step): the first five slots as set_palette's, then each bar's own
// colours, so that two bars' legends never share a colour for different things: bar 0 a
// strong qualitative set (Okabe-Ito, then Tableau 10's remaining hues), bar 1 a light set
// whose first colour, the steady state, is grey. The last slot is the legends' background.
constexpr PLINT k_bar_first = 5, k_bar0_colours = 12, k_bar1_colours = 8;
constexpr PLINT k_bar_legend_background = k_bar_first + k_bar0_colours + k_bar1_colours;

void set_bar_palette() {
  PLINT r[] = {255, 0, 215, 213, 0,
               0, 230, 0, 204, 86, 213, 240, 140, 127, 23, 188, 148,
               199, 255, 152, 255, 197, 196, 247, 219,
               255};
  PLINT g[] = {255, 0, 215, 0, 0,
               114, 159, 158, 121, 180, 94, 228, 86, 127, 190, 189, 103,
               199, 187, 223, 152, 176, 156, 182, 219,
               255};
  PLINT b[] = {255, 0, 215, 0, 0,
               178, 0, 115, 167, 233, 0, 66, 75, 127, 207, 34, 189,
               199, 120, 138, 150, 213, 148, 210, 141,
               255};
  static_assert(std::size(r) == k_bar_legend_background + 1);
  plscmap0(r, g, b, static_cast<PLINT>(std::size(r)));
}

void set_heat_palette() {
  // cmap1: dark blue → teal → yellow (viridis-like), low EL dark.
  PLFLT pos[] = {0.0, 0.35, 0.7, 1.0};
  PLFLT r[] = {0.27, 0.19, 0.36, 0.99};
  PLFLT g[] = {0.00, 0.41, 0.78, 0.91};
  PLFLT b[] = {0.33, 0.56, 0.39, 0.14};
  plscmap1l(1, 4, pos, r, g, b, nullptr);
}

/// PLplot reads '#' as an escape; labels are plain text.
std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '#' ? std::string("##") : std::string(1, c);
  return out;
}

double to_axis(double v, bool log) { return log ? std::log10(v) : v; }

std::string tick_text(double v, std::string_view key) {
  if (key == "activation_ratio") {
    return fmt::format("{:g}%", v * 100);
  }
  if (key == "plain") {
    return fmt::format("{:.4g}", v);
  }
  if (std::abs(v) >= 1e5 || (v != 0 && std::abs(v) < 1e-3)) {
    const int e = static_cast<int>(std::floor(std::log10(v) + 1e-9));
    const double m = v / std::pow(10.0, e);
    return std::abs(m - 1) < 1e-9 ? fmt::format("1e{}", e) : fmt::format("{:g}e{}", m, e);
  }
  return fmt::format("{:g}", v);
}

/// Ticks and labels on a log axis: 1-2-5 steps when it spans under 3 decades, decades
/// otherwise (PLplot's own log axes label decades only).
void log_axis(bool x_axis, double lo, double hi, std::string_view key,
              double xmin, double xmax, double ymin, double ymax) {
  const double span = std::log10(hi / lo);
  std::vector<double> mantissas = span < 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
  const double len_x = (ymax - ymin) * 0.015, len_y = (xmax - xmin) * 0.01;
  for (int e = static_cast<int>(std::floor(std::log10(lo))) ; e <= std::ceil(std::log10(hi)); ++e) {
    for (double m : mantissas) {
      const double v = m * std::pow(10.0, e);
      if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
      const double w = std::log10(v);
      const std::string text = escape(tick_text(v, key));
      if (x_axis) {
        pljoin(w, ymin, w, ymin + len_x);
        pljoin(w, ymax, w, ymax - len_x);
        plmtex("b", 1.6, (w - xmin) / (xmax - xmin), 0.5, text.c_str());
      } else {
        pljoin(xmin, w, xmin + len_y, w);
        pljoin(xmax, w, xmax - len_y, w);
        plmtex("lv", 0.7, (w - ymin) / (ymax - ymin), 1.0, text.c_str());
      }
    }
  }
}

/// Decimals that tell ticks apart on a linear axis spanning `range` (PLplot's own choice
/// prints 2.181 five times on a loss axis 0.002 wide).
int decimals_for(double range) {
  return std::clamp(static_cast<int>(std::ceil(-std::log10(range / 8))), 0, 8);
}

struct TickDecimals {
  int x = 0, y = 0;
};

void linear_label(PLINT axis, PLFLT value, char* label, PLINT length, PLPointer data) {
  const auto* d = static_cast<const TickDecimals*>(data);
  const int digits = axis == PL_X_AXIS ? d->x : d->y;
  std::snprintf(label, static_cast<std::size_t>(length), "%.*f", digits, value);
}

void draw_box(const Figure& f, double xmin, double xmax, double ymin, double ymax,
              double lo_x, double hi_x, double lo_y, double hi_y) {
  plcol0(k_ink);
  plwidth(1.2);
  TickDecimals decimals{decimals_for(xmax - xmin), decimals_for(ymax - ymin)};
  plslabelfunc(linear_label, &decimals);
  plbox(f.log_x ? "bc" : "bcnsto", 0, 0, f.log_y ? "bc" : "bcnstvo", 0, 0);
  plslabelfunc(nullptr, nullptr);
  if (f.log_x) log_axis(true, lo_x, hi_x, f.x_key, xmin, xmax, ymin, ymax);
  if (f.log_y) log_axis(false, lo_y, hi_y, f.y_key, xmin, xmax, ymin, ymax);
  plmtex("b", 3.4, 0.5, 0.5, escape(f.x_label).c_str());
  plmtex("l", f.log_y ? 4.2 : 2.0 + 0.75 * (decimals.y + 2), 0.5, 0.5, escape(f.y_label).c_str());
  plschr(0, 1.15);
  plmtex("t", f.caption.empty() ? 1.5 : 2.3, 0.5, 0.5, escape(f.title).c_str());
  plschr(0, 1.0);
  if (!f.caption.empty()) {  // a subtitle, smaller, between the title and the box
    plschr(0, 0.8);
    plmtex("t", 0.8, 0.5, 0.5, escape(f.caption).c_str());
    plschr(0, 1.0);
  }
}

struct LegendEntry {
  std::string text;
  PLINT colour;
  bool line;
  std::string glyph;
};

void draw_legend(const std::vector<LegendEntry>& entries, bool left) {
  if (entries.empty()) return;
  const auto n = static_cast<PLINT>(entries.size());
  std::vector<PLINT> opts, text_colors, box_colors(entries.size(), 0), box_patterns(entries.size(), 0),
      line_colors, line_styles(entries.size(), 1), symbol_colors, symbol_numbers;
  std::vector<PLFLT> box_scales(entries.size(), 0), box_line_widths(entries.size(), 0),
      line_widths(entries.size(), 2.5), symbol_scales(entries.size(), 1.2);
  std::vector<const char*> texts, symbols;
  for (const LegendEntry& e : entries) {
    const bool box = e.colour == k_band;  // the band: a grey swatch, as drawn
    opts.push_back(box ? PL_LEGEND_COLOR_BOX : e.line ? PL_LEGEND_LINE : PL_LEGEND_SYMBOL);
    box_colors[texts.size()] = e.colour;
    box_scales[texts.size()] = 0.8;
    text_colors.push_back(k_ink);
    line_colors.push_back(e.colour);
    symbol_colors.push_back(e.colour);
    symbol_numbers.push_back(1);
    texts.push_back(e.text.c_str());
    symbols.push_back(e.glyph.c_str());
  }
  PLFLT w = 0, h = 0;
  plscol0a(15, 255, 255, 255, 0.85);
  pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
           PL_POSITION_TOP | (left ? PL_POSITION_LEFT : PL_POSITION_RIGHT) | PL_POSITION_INSIDE, 0.01, 0.01, 0.05, 15, k_ink,
           1, 0, 0, n, opts.data(), 1.0, 0.9, 2.0, 1.0, text_colors.data(), texts.data(),
           box_colors.data(), box_patterns.data(), box_scales.data(), box_line_widths.data(),
           line_colors.data(), line_styles.data(), line_widths.data(), symbol_colors.data(),
           symbol_scales.data(), symbol_numbers.data(), symbols.data());
}

void draw_chart(const Figure& f) {
  double lo_x = std::numeric_limits<double>::infinity(), hi_x = -lo_x, lo_y = lo_x, hi_y = -lo_x;
  for (const Series& s : f.series) {
    for (double v : s.x) lo_x = std::min(lo_x, v), hi_x = std::max(hi_x, v);
    if (f.y_range_series.empty() || s.name == f.y_range_series || s.style == SeriesStyle::marker) {
      for (double v : s.y) lo_y = std::min(lo_y, v), hi_y = std::max(hi_y, v);
    }
  }
  if (!f.y_range_series.empty()) hi_y += (hi_y - lo_y) * 0.5;  // some room for the others
  if (f.y_max && hi_y > *f.y_max && lo_y < *f.y_max) hi_y = *f.y_max;
  if (!(lo_x < hi_x)) lo_x = lo_x * 0.9 - 1e-9, hi_x = hi_x * 1.1 + 1e-9;
  if (!(lo_y < hi_y)) lo_y = lo_y * 0.999 - 1e-9, hi_y = hi_y * 1.001 + 1e-9;
  // Margins: 3 % each side in x (5 % for scatter), 8 % in y (room for the legend on top).
  const bool scatter = f.kind == "residuals";
  double xmin = to_axis(lo_x, f.log_x), xmax = to_axis(hi_x, f.log_x);
  double ymin = to_axis(lo_y, f.log_y), ymax = to_axis(hi_y, f.log_y);
  const double px = (xmax - xmin) * (scatter ? 0.05 : 0.03), py = (ymax - ymin) * 0.08;
  xmin -= px, xmax += px, ymin -= py, ymax += py;
  // Head room for the legend (top right): about 6.5 % of the height per entry.
  std::size_t entries = 0;
  for (const Series& s : f.series) entries += s.style == SeriesStyle::grid ? 0 : 1;
  if (!scatter) {
    const double share = std::min(0.5, 0.065 * double(entries) + 0.03);
    ymax = ymin + (ymax - ymin) / (1 - share);
  }
  if (f.log_x) lo_x = std::pow(10.0, xmin), hi_x = std::pow(10.0, xmax);
  if (f.log_y) lo_y = std::pow(10.0, ymin), hi_y = std::pow(10.0, ymax);

  plvpor(0.12, 0.96, 0.12, 0.91);
  plwind(xmin, xmax, ymin, ymax);

  std::vector<LegendEntry> legend;
  // The band first, under everything: a grey x-interval as in paper 002 Figs. 5-6.
  if (const Series* band = f.find("band"); band && !band->x.empty()) {
    const auto [bx0, bx1] = std::minmax_element(band->x.begin(), band->x.end());
    PLFLT bx[] = {to_axis(*bx0, f.log_x), to_axis(*bx1, f.log_x), to_axis(*bx1, f.log_x),
                  to_axis(*bx0, f.log_x)};
    PLFLT by[] = {ymin, ymin, ymax, ymax};
    if (bx[1] - bx[0] < (xmax - xmin) * 0.004) {  // one sweep point: keep it visible
      const double half = (xmax - xmin) * 0.002;
      bx[0] -= half, bx[3] -= half, bx[1] += half, bx[2] += half;
    }
    plcol0(k_band);
    plfill(4, bx, by);
    legend.push_back({"within 0.1 % of min (" + std::to_string(band->x.size()) + " points)",
                      k_band, true, ""});
  }
  draw_box(f, xmin, xmax, ymin, ymax, lo_x, hi_x, lo_y, hi_y);
  // A linear y axis across 0 (the overhead of plot overtraining) gets a dotted zero line,
  // so the points below it read as below it.
  if (!f.log_y && ymin < 0 && ymax > 0) {
    plcol0(k_ink);
    plwidth(1.0);
    pllsty(3);
    pljoin(xmin, 0, xmax, 0);
    pllsty(1);
  }

  int next = 0;
  for (const Series& s : f.series) {
    std::vector<PLFLT> x, y;
    for (double v : s.x) x.push_back(to_axis(v, f.log_x));
    for (double v : s.y) y.push_back(to_axis(v, f.log_y));
    const auto n = static_cast<PLINT>(x.size());
    switch (s.style) {
      case SeriesStyle::line: {
        const bool diagonal = s.name == "y = x";
        const PLINT c = diagonal ? k_ink : k_first_series + next++ % k_series_colours;
        plcol0(c);
        plwidth(diagonal ? 1.2 : 2.5);
        pllsty(diagonal ? 2 : 1);
        plline(n, x.data(), y.data());
        pllsty(1);
        legend.push_back({s.name, c, true, ""});
        break;
      }
      case SeriesStyle::points: {
        const PLINT c = k_first_series + next++ % k_series_colours;
        plcol0(c);
        plschr(0, 0.55);
        plstring(n, x.data(), y.data(), s.name == "validation" ? "◆" : "●");
        plschr(0, 1.0);
        legend.push_back({fmt::format("{} ({} runs)", s.name, s.x.size()), c, false,
                          s.name == "validation" ? "◆" : "●"});
        break;
      }
      case SeriesStyle::marker: {
        // A star for a plan (suggest's config, paper 002's compute-optimal plan), a ring
        // for a minimum.
        const bool chosen = s.name == "chosen", optimal = s.name == "compute-optimal";
        const bool star = chosen || optimal;
        plcol0(star ? k_chosen : k_minimum);
        plschr(0, star ? 2.2 : 1.6);
        plstring(n, x.data(), y.data(), star ? "★" : "○");
        plschr(0, 1.0);
        const std::string at = tick_text(s.x[0], f.x_key == "compute" ? "" : "plain");
        legend.push_back({chosen    ? fmt::format("suggest's config ({} = {})", f.x_key, at)
                          : optimal ? std::string("paper 002's compute-optimal plan (overhead 0)")
                                    : fmt::format("minimum ({} = {})", f.x_key, at),
                          star ? k_chosen : k_minimum, false, star ? "★" : "○"});
        break;
      }
      case SeriesStyle::band:
      case SeriesStyle::grid:
      case SeriesStyle::stack:
        break;
    }
  }
  plwidth(1.0);
  draw_legend(legend, scatter);  // scatter hugs y = x: the top left is empty

}

void draw_map(const Figure& f) {
  const Series* map = f.find("el");
  if (map == nullptr || map->x.size() < 2 || map->y.size() < 2) return;
  const auto nx = static_cast<PLINT>(map->x.size()), ny = static_cast<PLINT>(map->y.size());
  std::vector<PLFLT> xg, yg;
  for (double v : map->x) xg.push_back(std::log10(v));
  for (double v : map->y) yg.push_back(std::log10(v));
  std::vector<const PLFLT*> rows;
  for (PLINT i = 0; i < nx; ++i) rows.push_back(map->z.data() + i * ny);
  const auto [zlo, zhi] = std::minmax_element(map->z.begin(), map->z.end());
  const double xmin = xg.front(), xmax = xg.back(), ymin = yg.front(), ymax = yg.back();

  plvpor(0.09, 0.84, 0.12, 0.91);
  plwind(xmin, xmax, ymin, ymax);
  set_heat_palette();
  constexpr int k_shades = 40;
  std::vector<PLFLT> shades;
  for (int i = 0; i <= k_shades; ++i) shades.push_back(*zlo + (*zhi - *zlo) * i / k_shades);
  PLcGrid grid{xg.data(), yg.data(), nullptr, nx, ny, 0};
  plshades(rows.data(), nx, ny, nullptr, xmin, xmax, ymin, ymax, shades.data(), k_shades + 1, 1,
           0, 0, plfill, 1, pltr1, &grid);

  // Labelled contours at round EL values.
  std::vector<PLFLT> lines;
  for (double v : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 15.0, 20.0, 30.0, 50.0}) {
    if (v > *zlo && v < *zhi) lines.push_back(v);
  }
  plcol0(k_background);
  plwidth(1.0);
  pl_setcontlabelformat(3, 2);
  pl_setcontlabelparam(0.008, 0.45, 0.25, 1);
  plcont(rows.data(), nx, ny, 1, nx, 1, ny, lines.data(), static_cast<PLINT>(lines.size()), pltr1,
         &grid);
  pl_setcontlabelparam(0.008, 0.45, 0.25, 0);

  if (const Series* g = f.find("G_opt")) {
    PLFLT x[] = {std::log10(g->x[0]), std::log10(g->x[1])};
    PLFLT y[] = {std::log10(g->y[0]), std::log10(g->y[1])};
    plcol0(k_background);
    plwidth(2.0);
    pllsty(2);
    plline(2, x, y);
    pllsty(1);
    const std::string text = escape(fmt::format("EL-maximising granularity {:.3g}", g->y[0]));
    plptex(xmax - (xmax - xmin) * 0.02, y[0] + (ymax - ymin) * 0.02, 1, 0, 1.0, text.c_str());
  }
  if (const Series* c = f.find("chosen")) {
    PLFLT x[] = {std::log10(c->x[0])}, y[] = {std::log10(c->y[0])};
    plcol0(k_chosen);
    plschr(0, 2.6);
    plstring(1, x, y, "★");
    plschr(0, 1.0);
    plcol0(k_background);
    // Two short lines centred under the star (inside the box for any star position).
    const std::string line1 =
        escape(fmt::format("suggest: A = {:.2f} %, 2d/d_m = {:.3g}", c->x[0] * 100, c->y[0]));
    const std::string line2 = escape(fmt::format("EL = {:.2f}", c->z.empty() ? 0.0 : c->z[0]));
    const double tx = std::clamp(x[0], xmin + (xmax - xmin) * 0.2, xmax - (xmax - xmin) * 0.2);
    plptex(tx, y[0] - (ymax - ymin) * 0.07, 1, 0, 0.5, line1.c_str());
    plptex(tx, y[0] - (ymax - ymin) * 0.12, 1, 0, 0.5, line2.c_str());
  }
  draw_box(f, xmin, xmax, ymin, ymax, map->x.front(), map->x.back(), map->y.front(), map->y.back());

  // Colour bar on the right.
  PLFLT cw = 0, ch = 0;
  PLINT label_opts[] = {PL_COLORBAR_LABEL_RIGHT};
  const std::string label = escape(f.z_label);
  const char* labels[] = {label.c_str()};
  const char* axis_opts[] = {"bcvtm"};
  PLFLT ticks[] = {0.0};
  PLINT sub_ticks[] = {0};
  PLINT n_values[] = {static_cast<PLINT>(shades.size())};
  const PLFLT* values[] = {shades.data()};
  plcol0(k_ink);
  plcolorbar(&cw, &ch, PL_COLORBAR_SHADE,
             PL_POSITION_RIGHT | PL_POSITION_OUTSIDE, 0.03, 0.0, 0.04, 1.0, k_background, k_ink,
             1, 0.0, 1.0, 0, 0.0, 1, label_opts, labels, 1, axis_opts, ticks, sub_ticks, n_values,
             values);
}

/// The segments of bar `bar` (stack series at x = bar), in stacking order.
struct Segment {
  const Series* series;
  double amount, share;
};
std::vector<Segment> segments_of(const Figure& f, std::size_t bar) {
  std::vector<Segment> out;
  for (const Series& s : f.series) {
    if (s.style != SeriesStyle::stack) continue;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (s.x[i] == double(bar)) out.push_back({&s, s.y[i], i < s.z.size() ? s.z[i] : 0.0});
    }
  }
  return out;
}

// The key beside a bar: its colour boxes' width (a fraction of the key's viewport), the text's
// offset from them and its height (in character widths and heights), and the least height a
// key too wide for its panel is shrunk to (engineering choices: legible at 1200 x 800).
constexpr double k_bar_key_box_width = 0.05, k_bar_key_text_offset = 0.6, k_bar_key_text_scale = 0.68,
                 k_bar_key_min_text_scale = 0.5;

/// Fits the key's lines to the width of the current viewport (the panel right of the bar, up
/// to the page's edge) and returns their text scale: a line wider than the room is cut after
/// its name, the amount and share on a line of their own under it; if a line is still too
/// wide, the text shrinks (to k_bar_key_min_text_scale at least). A key that fits is left as it
/// was. PLplot's public API measures no string (plstrl is internal), so a line's width is
/// estimated from its characters in PLplot's character heights (plgchr).
double fit_legend(std::vector<std::string>& texts, std::vector<PLINT>& opts, std::vector<PLINT>& box_colours) {
  // Measured on this figure through pngcairo (DejaVu Sans), where a character height at the
  // key's scale is 13.6 px: "checkpoint saves: 139 days (11.4 %)" is 337 px for 35 characters
  // (0.71 heights each), "full-batch steps: 90.8 days (97.9 %)" 327 px for 36 (0.67); the text
  // starts 50.7 px right of the panel's edge, 20.7 of them the boxes (the rest 2.2 heights);
  // 0.3 heights of slack on the right for the key's background.
  constexpr double k_heights_per_char = 0.70, k_text_start_heights = 2.2, k_right_slack_heights = 0.3;
  PLFLT vx0 = 0, vx1 = 0, vy0 = 0, vy1 = 0, sx0 = 0, sx1 = 0, sy0 = 0, sy1 = 0;
  plgvpd(&vx0, &vx1, &vy0, &vy1);
  plgspa(&sx0, &sx1, &sy0, &sy1);
  const double viewport_mm = (vx1 - vx0) * (sx1 - sx0);
  const auto height_at = [](double scale) {
    PLFLT default_mm = 0, height_mm = 0;
    plschr(0, scale);
    plgchr(&default_mm, &height_mm);
    plschr(0, 1.0);
    return height_mm;
  };
  const auto too_wide = [&](const std::string& text, double scale) {
    const double h = height_at(scale);
    const double room = viewport_mm * (1 - k_bar_key_box_width) - (k_text_start_heights + k_right_slack_heights) * h;
    return double(text.size()) * k_heights_per_char * h > room;
  };
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::size_t cut = texts[i].find(": ");
    if (opts[i] != PL_LEGEND_COLOR_BOX || cut == std::string::npos || !too_wide(texts[i], k_bar_key_text_scale)) {
      continue;
    }
    std::string rest = "  " + texts[i].substr(cut + 2);
    texts[i].resize(cut + 1);
    texts.insert(texts.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(rest));
    opts.insert(opts.begin() + static_cast<std::ptrdiff_t>(i) + 1, PL_LEGEND_NONE);
    box_colours.insert(box_colours.begin() + static_cast<std::ptrdiff_t>(i) + 1, k_ink);
    ++i;
  }
  double scale = k_bar_key_text_scale;
  for (const std::string& t : texts) {
    while (scale > k_bar_key_min_text_scale && too_wide(t, scale)) {
      scale = std::max(k_bar_key_min_text_scale, scale - 0.02);
    }
  }
  return scale;
}

/// The key beside a bar: its segments top down (as stacked), each with its amount and share;
/// the segments of zero size named together at the end, a few to a line; fitted to the panel
/// (fit_legend).
void draw_bar_legend(const std::vector<Segment>& segments, const std::vector<PLINT>& colours, const Bar& bar) {
  std::vector<std::string> texts;
  std::vector<PLINT> opts, box_colours;
  for (std::size_t i = segments.size(); i-- > 0;) {
    if (!(segments[i].amount > 0)) continue;
    texts.push_back(escape(fmt::format("{}: {:.3g} {} ({:.1f} %)", segments[i].series->name, segments[i].amount,
                                       bar.unit, segments[i].share * 100)));
    opts.push_back(PL_LEGEND_COLOR_BOX);
    box_colours.push_back(colours[i]);
  }
  std::string line;
  const auto flush = [&] {
    if (line.empty()) return;
    texts.push_back(escape(line));
    opts.push_back(PL_LEGEND_NONE);
    box_colours.push_back(k_ink);
    line.clear();
  };
  bool first_zero = true;
  for (const Segment& s : segments) {
    if (s.amount > 0) continue;
    if (!line.empty() && line.size() + s.series->name.size() > 34) flush();
    line += line.empty() ? (first_zero ? fmt::format("0 {}: ", bar.unit) : std::string("  ")) : std::string(", ");
    line += s.series->name;
    first_zero = false;
  }
  flush();
  const double text_scale = fit_legend(texts, opts, box_colours);
  const auto n = static_cast<PLINT>(texts.size());
  if (n == 0) return;
  std::vector<const char*> text_ptrs, symbols(texts.size(), "");
  for (const std::string& t : texts) text_ptrs.push_back(t.c_str());
  std::vector<PLINT> ink(texts.size(), k_ink), patterns(texts.size(), 0), styles(texts.size(), 1),
      numbers(texts.size(), 1);
  std::vector<PLFLT> box_scales(texts.size(), 1.0), box_widths(texts.size(), 0.5), widths(texts.size(), 1.0),
      symbol_scales(texts.size(), 1.0);
  PLFLT w = 0, h = 0;
  pllegend(&w, &h, PL_LEGEND_BACKGROUND, PL_POSITION_LEFT | PL_POSITION_TOP | PL_POSITION_INSIDE, 0.0, 0.0,
           k_bar_key_box_width, k_bar_legend_background, k_ink, 1, 0, 0, n, opts.data(), k_bar_key_text_offset,
           text_scale, 1.6, 0.0, ink.data(),
           text_ptrs.data(), box_colours.data(), patterns.data(), box_scales.data(), box_widths.data(), ink.data(),
           styles.data(), widths.data(), ink.data(), symbol_scales.data(), numbers.data(), symbols.data());
}

/// One bar in the panel [x0, x0 + width] of the page, on its own axis: its segments stacked
/// in series order, each outlined and, when tall enough, its share written on it; the total on
/// top; the key to its right, in the rest of the panel.
void draw_one_bar(const Figure& f, std::size_t bar, double x0, double width) {
  constexpr double k_axis_left = 0.065, k_axis_width = 0.07, k_bottom = 0.10, k_top = 0.78;
  const std::vector<Segment> segments = segments_of(f, bar);
  double total = 0;
  for (const Segment& s : segments) total += std::max(0.0, s.amount);
  const double top = total > 0 ? total * 1.06 : 1.0;
  plvpor(x0 + k_axis_left, x0 + k_axis_left + k_axis_width, k_bottom, k_top);
  plwind(0, 1, 0, top);
  std::vector<PLINT> colours;
  const PLINT first = bar == 0 ? k_bar_first : k_bar_first + k_bar0_colours;
  const PLINT count = bar == 0 ? k_bar0_colours : k_bar1_colours;
  double base = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    colours.push_back(first + static_cast<PLINT>(i) % count);
    const double amount = segments[i].amount;
    if (!(amount > 0)) continue;
    PLFLT x[] = {0.12, 0.88, 0.88, 0.12, 0.12}, y[] = {base, base, base + amount, base + amount, base};
    plcol0(colours.back());
    plfill(4, x, y);
    plcol0(k_ink);
    plwidth(0.6);
    plline(5, x, y);
    if (amount >= top * 0.045) {
      const std::string share = escape(fmt::format("{:.0f} %", segments[i].share * 100));
      plschr(0, 0.8);
      plptex(0.5, base + amount / 2 - top * 0.008, 1, 0, 0.5, share.c_str());
      plschr(0, 1.0);
    }
    base += amount;
  }
  plcol0(k_ink);
  plwidth(1.2);
  TickDecimals decimals{0, decimals_for(top)};
  plslabelfunc(linear_label, &decimals);
  plbox("bc", 0, 0, "bcnstvo", 0, 0);
  plslabelfunc(nullptr, nullptr);
  const Bar& b = f.bars[bar];
  // The axis title clears the widest tick label: its integer digits, point and decimals.
  const double digits = std::floor(std::log10(std::max(top, 1.0))) + 1.0 + (decimals.y > 0 ? decimals.y + 1.0 : 0.0);
  plmtex("l", 1.6 + 0.8 * digits, 0.5, 0.5, escape(fmt::format("{} ({})", b.label, b.unit)).c_str());
  // Above the top tick label (a tick at the axis top, e.g. 50 of 50.1, reaches half a line up).
  plmtex("t", 1.9, 0.5, 0.5, escape(fmt::format("{:.4g} {}", total, b.unit)).c_str());
  plvpor(x0 + k_axis_left + k_axis_width + 0.01, x0 + width, k_bottom, k_top);
  plwind(0, 1, 0, 1);
  draw_bar_legend(segments, colours, b);
}

/// Stacked bars (kind step): each bar on its own axis, in its own unit, side by side; the
/// title and caption across the page.
void draw_bars(const Figure& f) {
  // The caption a line per "; " part: a layout line and what the bars leave out.
  std::vector<std::string> lines;
  for (std::size_t from = 0; from < f.caption.size();) {
    const std::size_t cut = f.caption.find("; ", from);
    lines.push_back(f.caption.substr(from, cut == std::string::npos ? std::string::npos : cut - from));
    from = cut == std::string::npos ? f.caption.size() : cut + 2;
  }
  plvpor(0.04, 0.96, 0.10, 0.80);
  plcol0(k_ink);
  plschr(0, 1.15);
  plmtex("t", 3.0 + 1.1 * double(lines.size()), 0.5, 0.5, escape(f.title).c_str());
  plschr(0, 0.75);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    plmtex("t", 3.6 + 1.3 * double(lines.size() - 1 - i), 0.5, 0.5, escape(lines[i]).c_str());
  }
  plschr(0, 1.0);
  const double panel = 0.98 / double(std::max<std::size_t>(1, f.bars.size()));
  for (std::size_t i = 0; i < f.bars.size(); ++i) draw_one_bar(f, i, 0.01 + panel * double(i), panel);
}

std::expected<std::string, std::string> draw(const Figure& f, ImageFormat format) {
  const char* device = format == ImageFormat::png ? "pngcairo" : "svg";
  {
    const char* menus[256];
    const char* names[256];
    const char** m = menus;
    const char** d = names;
    PLINT n = 256;
    plgDevs(&m, &d, &n);
    bool found = false;
    for (PLINT i = 0; i < n; ++i) found = found || std::strcmp(d[i], device) == 0;
    if (!found) {
      return std::unexpected(
          fmt::format("PLplot has no '{}' driver here (install plplot-driver-cairo)", device));
    }
  }
  // Into memory: the CLI writes the image like every other output (whole or nothing,
  // never over an input, removed on Ctrl-C), so PLplot never touches the file system.
  char* bytes = nullptr;
  std::size_t size = 0;
  FILE* file = ::open_memstream(&bytes, &size);
  if (file == nullptr) return std::unexpected(std::string("cannot draw in memory: ") + std::strerror(errno));
  plsdev(device);
  plsfile(file);  // plend() closes it, which sets `bytes` and `size`
  plspage(0, 0, 1200, 800, 0, 0);
  if (f.kind == "step") {
    set_bar_palette();
  } else {
    set_palette();
  }
  plinit();
  plfontld(1);
  pladv(0);
  if (f.kind == "el") {
    draw_map(f);
  } else if (f.kind == "step") {
    draw_bars(f);
  } else {
    draw_chart(f);
  }
  plend();
  std::string image(bytes == nullptr ? "" : std::string(bytes, size));
  std::free(bytes);
  // PLplot reports no errors; an empty image is the sign of one.
  if (image.empty()) return std::unexpected(std::string("PLplot drew nothing"));
  return image;
}

}  // namespace

}  // namespace moeplan::plot

// The module's one exported symbol (plplot_module.hpp); everything else is hidden.
extern "C" __attribute__((visibility("default"))) const moeplan::plot::plplot_module::Api* moeplan_plplot_module() {
  static const moeplan::plot::plplot_module::Api api{moeplan::plot::plplot_module::k_abi,
                                                    sizeof(moeplan::plot::Figure), &moeplan::plot::draw};
  return &api;
}
