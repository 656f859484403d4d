#include <algorithm>
#include "app.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <ostream>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "completion.hpp"
#include "git_revision.hpp"  // generated at build time: MOEPLAN_GIT_REVISION

namespace moeplan::cli {

namespace {

// Levenshtein distance, for "did you mean" on a mistyped command.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace


namespace {
std::vector<Command> commands() {
  return {suggest_command(), score_command(), fit_command(),   bench_command(),
          plot_command(),    presets_command(), completion_command()};
}
}  // namespace

TerminalStyle terminal_style(bool stdout_is_terminal, const char* no_color_env,
                             const char* term_env) {
  // NO_COLOR: "when present and not an empty string" (https://no-color.org).
  const bool no_color = no_color_env != nullptr && no_color_env[0] != '\0';
  // TERM=dumb (Emacs shell buffers, some CI logs) renders neither SGR codes nor box
  // drawing; ninja's line_printer and hyperfine's --style auto check it the same way.
  const bool dumb = term_env != nullptr && std::string_view(term_env) == "dumb";
  const bool decorate = stdout_is_terminal && !no_color && !dumb;
  return TerminalStyle{.colour = decorate, .unicode = decorate};
}

std::string version_text() {
  return fmt::format("moeplan {} (git {})", MOEPLAN_VERSION, MOEPLAN_GIT_REVISION);
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run(argc, argv, out, err, TerminalStyle{});
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
        const TerminalStyle& style) {
  Io io{out, err, style};
  try {
    CLI::App app{"moeplan: plan a Mixture-of-Experts architecture from published scaling laws",
                 "moeplan"};
    app.set_version_flag("--version", version_text());
    app.require_subcommand(1, 1);
    // Global flags, accepted before or after the subcommand (fallthrough).
    bool quiet = false, verbose = false;
    app.add_flag("--quiet,-q", quiet, "Errors only on stderr: no warnings, notes or progress");
    app.add_flag("--verbose,-v", verbose, "Also print details of what was done on stderr");
    app.fallthrough();
    app.footer(
        "Examples:\n"
        "  moeplan suggest --flops 1e22\n"
        "  moeplan suggest --flops 3e20 --format json | jq .config\n"
        "  moeplan score deepseek-v3.1 qwen3-235b-a22b\n"
        "  moeplan fit runs.csv --out my-laws.toml\n"
        "  moeplan plot el --flops 1e22 -o el.png\n"
        "Run 'moeplan SUBCOMMAND --help' for its flags; man moeplan for exit statuses.");

    std::vector<std::pair<CLI::App*, std::function<int(Io&)>>> runners;
    for (const Command& c : commands()) {
      CLI::App* sub = app.add_subcommand(c.name, c.summary);
      runners.emplace_back(sub, c.setup(*sub));
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e, out, err);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e, out, err);
    } catch (const CLI::CallForVersion& e) {
      return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
      // An unknown first word reads as "A subcommand is required" in CLI11: name the word,
      // the commands there are, and the nearest one.
      const bool known = argc < 2 || argv[1][0] == '-' ||
                         std::any_of(runners.begin(), runners.end(), [&](const auto& r) {
                           return r.first->get_name() == argv[1];
                         });
      if (!known) {
        std::string names, nearest;
        std::size_t best = 3;  // at most 2 edits away
        for (const auto& r : runners) {
          const std::string& name = r.first->get_name();
          names += (names.empty() ? "" : ", ") + name;
          if (const std::size_t d = edit_distance(name, argv[1]); d < best) {
            best = d;
            nearest = name;
          }
        }
        err << "moeplan: error: unknown command '" << argv[1] << "'"
            << (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") << "; commands: " << names
            << "\nRun 'moeplan --help' for usage.\n";
        return static_cast<int>(ExitStatus::usage);
      }
      err << "moeplan: error: " << e.what() << "\n"
          << "Run 'moeplan --help' for usage.\n";
      return static_cast<int>(ExitStatus::usage);
    }
    if (quiet && verbose) {
      io.error("--quiet and --verbose contradict each other");
      return static_cast<int>(ExitStatus::usage);
    }
    io.verbosity = quiet ? Verbosity::quiet : verbose ? Verbosity::verbose : Verbosity::normal;
    for (auto& [sub, runner] : runners) {
      if (sub->parsed()) {
        return runner(io);
      }
    }
    return static_cast<int>(ExitStatus::usage);
  } catch (const std::exception& e) {
    err << "moeplan: error: internal: " << e.what() << "\n";
    return static_cast<int>(ExitStatus::internal_error);
  }
}

}  // namespace moeplan::cli
