#pragma once
/// Well-formed UTF-8 (Unicode 15, Table 3-7): what the data formats and PLplot take.
#include <cstddef>
#include <string>
#include <string_view>

namespace moeplan {

/// Bytes of the well-formed UTF-8 sequence starting at text[i] (no overlong forms, no
/// surrogates, nothing past U+10FFFF); 0 when none starts there.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

/// `text` with each byte that starts no well-formed sequence (a Latin-1 file name, a cut
/// character) written as the four characters \xHH: valid UTF-8, the byte still visible.
std::string valid_utf8(std::string_view text);

bool is_valid_utf8(std::string_view text);

}  // namespace moeplan
