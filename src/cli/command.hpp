#pragma once
/// The one table of subcommands (ninja's kTools[] pattern): app.cpp registers every entry,
/// and --help is generated from the same flag definitions.
#include <concepts>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "app.hpp"  // ExitStatus
#include "moeplan/base/errors.hpp"  // ErrorCode
#include "output/printable.hpp"

namespace CLI {
class App;
}

namespace moeplan::cli {

/// How the table view may decorate stdout: colour (ANSI SGR) and box-drawing rules. Both
/// only when stdout is a terminal, NO_COLOR is unset (https://no-color.org) and TERM is not
/// "dumb"; never for
/// -o files or pipes, which get plain text.
struct TerminalStyle {
  bool colour = false;
  bool unicode = false;
};

enum class Verbosity { quiet, normal, verbose };

struct Io {
  std::ostream& out;
  std::ostream& err;
  TerminalStyle style{};
  Verbosity verbosity = Verbosity::normal;

  /// Diagnostics on stderr. Errors always print; warnings and notes not with --quiet;
  /// detail only with --verbose.
  /// Messages quote the user's files (names, paths): printable() keeps their control
  /// characters off the terminal; a message's own line breaks stay.
  void error(std::string_view message) const {
    err << "moeplan: error: " << printable(message, true) << "\n";
  }
  void warning(std::string_view message) const { say("warning", message, Verbosity::normal); }
  void note(std::string_view message) const { say("note", message, Verbosity::normal); }
  void detail(std::string_view message) const { say("detail", message, Verbosity::verbose); }

 private:
  void say(std::string_view kind, std::string_view message, Verbosity least) const {
    if (static_cast<int>(verbosity) >= static_cast<int>(least)) {
      err << "moeplan: " << kind << ": " << printable(message, true) << "\n";
    }
  }
};

struct Command {
  const char* name;
  const char* summary;
  /// Adds the subcommand's flags to `sub` and returns what runs once parsing succeeded.
  std::function<std::function<int(Io&)>(CLI::App& sub)> setup;
};

/// Reports `message` as an error and returns `status` as the exit code.
inline int fail(const Io& io, ExitStatus status, std::string_view message) {
  io.error(message);
  return static_cast<int>(status);
}

/// Reports an error of the family (moeplan/base/errors.hpp): its code is the exit status.
template <class Error>
  requires requires(const Error& e) { { Error::code } -> std::convertible_to<ErrorCode>; e.to_string(); }
int fail(const Io& io, const Error& e) {
  return fail(io, static_cast<ExitStatus>(Error::code), e.to_string());
}

Command suggest_command();
Command score_command();
Command fit_command();
Command bench_command();
Command plot_command();
Command presets_command();
Command completion_command();
Command schema_command();

}  // namespace moeplan::cli
