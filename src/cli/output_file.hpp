#pragma once
/// Writes a command's whole output at once: to stdout for "-", else to a temporary file
/// renamed over the target, so a failed run never leaves a half-written file.
#include <iosfwd>
#include <string>
#include <vector>

#include "command.hpp"

namespace moeplan::cli {

/// The table decoration for output going to `path`: the terminal's style for stdout ("-"),
/// plain for files.
inline TerminalStyle style_for(const std::string& path, const Io& io) {
  return path == "-" ? io.style : TerminalStyle{};
}

/// Returns an empty string on success, else the reason. A regular file (or a new one) is
/// written to a temporary beside it and renamed over it; a symlink's target is replaced
/// (the link stays); a device, FIFO or socket is written in place; a directory is refused.
std::string write_output(const std::string& path, const std::string& text, std::ostream& out);

struct OutputFile {
  std::string path;  ///< "-" or "" for stdout
  std::string text;
};

/// Several outputs of one command, all or nothing: every destination is checked and every
/// regular file's temporary written before any is renamed into place, so one bad path
/// (fit --out ok.toml --residuals /nonexistent/r.csv) leaves none of them behind.
std::string write_outputs(const std::vector<OutputFile>& files, std::ostream& out);

/// A command's last step: write `text` to -o `path` (stdout for "-"). Exit status 0, or 5
/// with "moeplan: error: -o: reason" on stderr.
int deliver(const std::string& path, const std::string& text, const Io& io);

}  // namespace moeplan::cli
