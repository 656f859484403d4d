#pragma once
/// The texts a figure draws (title, caption, axis labels, legend names), kept within what
/// PLplot can draw. PLplot's text path (plcore.c, plP_text) decodes a string into a fixed
/// buffer of 1,024 code points and writes past it for a longer one: a title or a model name of
/// about 1 KiB crashed `moeplan plot` with SIGSEGV (issue 46). Every drawn text is cut here,
/// well inside that buffer, before it reaches the renderer.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace moeplan::plot {

struct Figure;

/// The most bytes of UTF-8 one drawn text holds (ellipsis included). An engineering bound:
/// a quarter of PLplot's 1,024-code-point buffer (each code point is at least a byte), and
/// about three lines' width of the 1,200-pixel image, so nothing readable is lost.
inline constexpr std::size_t k_max_drawn_text_bytes = 256;

/// `text` if it holds at most `max_bytes` bytes, else its longest prefix that ends on a
/// whole UTF-8 character followed by "…" (3 bytes), at most `max_bytes` in all.
std::string shorten_drawn_text(std::string_view text, std::size_t max_bytes = k_max_drawn_text_bytes);

/// Cuts every text of `figure` that is drawn (title, caption, x/y/z labels, series names, bars) to
/// k_max_drawn_text_bytes; one note per text cut, naming it and its length, for stderr.
std::vector<std::string> shorten_drawn_texts(Figure& figure);

}  // namespace moeplan::plot
