#pragma once
#include <iosfwd>

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

/// Whole command line in, exit status out. Data goes to `out`, diagnostics to `err`.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace moeplan::cli
