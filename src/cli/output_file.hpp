#pragma once
/// Writes a command's whole output at once: to stdout for "-", else to a temporary file
/// renamed over the target, so a failed (or interrupted: interrupt_cleanup.hpp) run never
/// leaves a half-written file. And never a destroyed one: an output that is one of the
/// command's inputs, a write-protected file, or two outputs naming one file are refused.
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

struct OutputFile {
  std::string path;  ///< "-" for stdout ("" is refused by the flags' not_empty_path())
  std::string text;
  std::string flag = "-o";  ///< names the output in messages: "--out: …"
};

/// The files a command reads (paths as given, "-" for standard input; names that are no
/// file, such as preset names, are skipped). An output is one of them when it is the same
/// file, by device and inode: ./runs.csv, a symlink or a hard link to runs.csv count too.
using InputFiles = std::vector<std::string>;

/// What is wrong with these destinations before anything is written: "" or the reason,
/// prefixed with the output's flag. A regular file that is an input, that is write-protected
/// (not writable by the user, or no write bit at all, which also stops root, as the shell's
/// `>` would stop anyone else), a directory, or two outputs naming one file (by identity
/// when it exists, by normalised path when it is new). Commands call it before their work
/// so a bad destination costs nothing; write_outputs checks again.
std::string check_outputs(const std::vector<OutputFile>& files, const InputFiles& inputs);

/// Several outputs of one command, all or nothing: every destination is checked
/// (check_outputs) and every regular file's temporary written before any is renamed into
/// place, so one bad path (fit --out ok.toml --residuals /nonexistent/r.csv) leaves none of
/// them behind. A regular file (or a new one) is written to a temporary beside it and
/// renamed over it; a symlink's target is replaced (the link stays); a device, FIFO or
/// socket is written in place. Returns "" or the reason.
std::string write_outputs(const std::vector<OutputFile>& files, std::ostream& out,
                          const InputFiles& inputs = {});

/// One output: write_outputs({{path, text}}, out, inputs).
std::string write_output(const std::string& path, const std::string& text, std::ostream& out,
                         const InputFiles& inputs = {});

/// A command's last step: write `text` to -o `path` (stdout for "-"). Exit status 0, or 5
/// with "moeplan: error: -o: reason" (or "cannot write to standard output: reason") on
/// stderr.
int deliver(const std::string& path, const std::string& text, const Io& io,
            const InputFiles& inputs = {});

/// The reason a write to standard output failed: "cannot write to standard output: " and
/// strerror(errno) when errno says why.
std::string stdout_failure(int saved_errno);

}  // namespace moeplan::cli
