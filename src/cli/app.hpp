#pragma once
#include "moeplan/base/errors.hpp"
#include <iosfwd>
#include <string>

namespace moeplan::cli {

/// Exit statuses, documented in man/moeplan.1 (EXIT STATUS).
enum class ExitStatus : int {
  ok = 0,
  internal_error = 1,  ///< a bug: an unexpected exception
  usage = 2,           ///< bad flag, flag value or subcommand
  infeasible = 3,      ///< no architecture satisfies the constraints; which one is printed
  input_file = 4,      ///< a file given on the command line is unreadable or invalid
  output_file = 5,     ///< the -o file could not be written
};
static_assert(static_cast<int>(ExitStatus::infeasible) == static_cast<int>(ErrorCode::infeasible) &&
              static_cast<int>(ExitStatus::input_file) == static_cast<int>(ErrorCode::input));

struct TerminalStyle;

/// Whole command line in, exit status out. Data goes to `out`, diagnostics to `err`.
/// `style` says how the table view may decorate `out` (plain when omitted).
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
        const TerminalStyle& style);

/// "moeplan 0.1.0 (git abc123def456)": --version, and the header of generated files.
std::string version_text();

/// The style for a stdout that is (or is not) a terminal, honouring NO_COLOR and TERM=dumb
/// (either turns colour and box-drawing rules off). The arguments are the raw environment
/// values; nullptr means unset.
TerminalStyle terminal_style(bool stdout_is_terminal, const char* no_color_env,
                             const char* term_env = nullptr);

}  // namespace moeplan::cli
