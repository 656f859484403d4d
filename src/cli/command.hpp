#pragma once
/// The one table of subcommands (ninja's kTools[] pattern): app.cpp registers every entry,
/// and --help is generated from the same flag definitions.
#include <functional>
#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace moeplan::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  const char* name;
  const char* summary;
  /// Adds the subcommand's flags to `sub` and returns what runs once parsing succeeded.
  std::function<std::function<int(Io&)>(CLI::App& sub)> setup;
};

Command suggest_command();
Command score_command();
Command fit_command();
Command bench_command();
Command plot_command();

}  // namespace moeplan::cli
