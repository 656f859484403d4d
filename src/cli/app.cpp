#include "app.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <ostream>
#include <vector>

#include "command.hpp"

namespace moeplan::cli {

namespace {
std::vector<Command> commands() {
  return {suggest_command(), score_command(), fit_command(), bench_command(), plot_command()};
}
}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Io io{out, err};
  try {
    CLI::App app{"moeplan: plan a Mixture-of-Experts architecture from published scaling laws",
                 "moeplan"};
    app.set_version_flag("--version", std::string("moeplan ") + MOEPLAN_VERSION);
    app.require_subcommand(1, 1);
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
      err << "moeplan: error: " << e.what() << "\n"
          << "Run 'moeplan --help' for usage.\n";
      return static_cast<int>(ExitStatus::usage);
    }
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
