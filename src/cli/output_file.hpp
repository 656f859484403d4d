#pragma once
/// Writes a command's whole output at once: to stdout for "-", else to a temporary file
/// renamed over the target, so a failed run never leaves a half-written file.
#include <iosfwd>
#include <string>

#include "command.hpp"

namespace moeplan::cli {

/// The table decoration for output going to `path`: the terminal's style for stdout ("-"),
/// plain for files.
inline TerminalStyle style_for(const std::string& path, const Io& io) {
  return path == "-" ? io.style : TerminalStyle{};
}

/// Returns an empty string on success, else the reason.
std::string write_output(const std::string& path, const std::string& text, std::ostream& out);

/// A command's last step: write `text` to -o `path` (stdout for "-"). Exit status 0, or 5
/// with "moeplan: error: -o: reason" on stderr.
int deliver(const std::string& path, const std::string& text, const Io& io);

}  // namespace moeplan::cli
