#pragma once
// Free text from the user's files (a model's name or description, a path) reaches the
// terminal through the table and the diagnostics: a NUL, an ESC or another control
// character there would cut the line or drive the terminal. printable() shows them instead.
#include <string>
#include <string_view>

#include "moeplan/base/utf8.hpp"

namespace moeplan::cli {

/// `text` with every control character (C0, DEL, and the C1 range U+0080..U+009F in UTF-8)
/// written as an escape a person can read: "\n", "\t", "\r", else "\u001b"-style, as JSON
/// writes them; a byte that is not UTF-8 as \xHH (valid_utf8). Other bytes, UTF-8 included,
/// pass unchanged. `keep_newlines` leaves '\n' as a line break (diagnostics of several lines).
std::string printable(std::string_view text, bool keep_newlines = false);

}  // namespace moeplan::cli
