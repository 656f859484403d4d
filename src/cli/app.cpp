#include <algorithm>
#include "app.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cerrno>
#include <cstdlib>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "completion.hpp"
#include "output_file.hpp"
#include "typos.hpp"
#include "moeplan/base/work_counts.hpp"
#include "git_revision.hpp"  // generated at build time: MOEPLAN_GIT_REVISION

namespace moeplan::cli {

namespace {
std::vector<Command> commands() {
  return {suggest_command(), score_command(),   fit_command(),        bench_command(),
          plot_command(),    presets_command(), completion_command(), schema_command()};
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

namespace {

// Forwards every write to the stream's own buffer and remembers the errno of the first that
// failed: by the time a command ends, the errno of a failed write (ENOSPC of `> /dev/full`)
// is long overwritten, and the message should still say why.
class ErrnoOfFirstFailure : public std::streambuf {
 public:
  explicit ErrnoOfFirstFailure(std::ostream& out) : out_(out), inner_(out.rdbuf(this)) {}
  ~ErrnoOfFirstFailure() override { out_.rdbuf(inner_); }
  ErrnoOfFirstFailure(const ErrnoOfFirstFailure&) = delete;
  ErrnoOfFirstFailure& operator=(const ErrnoOfFirstFailure&) = delete;

  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    errno = 0;
    const int_type r = inner_->sputc(traits_type::to_char_type(c));
    if (traits_type::eq_int_type(r, traits_type::eof())) remember();
    return r;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    errno = 0;
    const std::streamsize done = inner_->sputn(s, n);
    if (done < n) remember();
    return done;
  }
  int sync() override {
    errno = 0;
    const int r = inner_->pubsync();
    if (r != 0) remember();
    return r;
  }

 private:
  void remember() {
    if (error_ == 0) error_ = errno != 0 ? errno : EIO;
  }
  std::ostream& out_;
  std::streambuf* inner_;
  int error_ = 0;
};

// The command line, parsed and run; run() then checks what went to `out`.
int parse_and_run(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
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
    // A flag the subcommand does not have is named first: CLI11 would report a required
    // flag the typo stood for ("--flops is required" for --flop) or only "not expected".
    const CLI::App* named = named_subcommand(app, argc, argv);
    const std::string help_hint = fmt::format(
        "Run 'moeplan {}--help' for usage.\n", named ? named->get_name() + " " : std::string());
    if (named) {
      if (const std::string typo = unknown_flag_problem(app, *named, argc, argv); !typo.empty()) {
        err << "moeplan: error: " << typo << "\n" << help_hint;
        return static_cast<int>(ExitStatus::usage);
      }
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
      // --help wins over a bad value beside it (`--flops abc --help`), as it does over a
      // missing required flag: CLI11 checks values before it looks for --help.
      if (std::any_of(argv + 1, argv + argc, [](const char* a) {
            return std::string_view(a) == "--help" || std::string_view(a) == "-h";
          })) {
        out << (named ? named->help(app.get_name()) : app.help());
        return static_cast<int>(ExitStatus::ok);
      }
      // An unknown first word reads as "A subcommand is required" in CLI11: name the word,
      // the commands there are, and the nearest one.
      const bool known = argc < 2 || argv[1][0] == '-' ||
                         std::any_of(runners.begin(), runners.end(), [&](const auto& r) {
                           return r.first->get_name() == argv[1];
                         });
      if (!known) {
        std::vector<std::string> names;
        for (const auto& r : runners) names.push_back(r.first->get_name());
        const std::vector<std::string> nearest = nearest_words(argv[1], names);
        err << "moeplan: error: unknown command '" << argv[1] << "'"
            << (nearest.empty() ? "" : " (did you mean '" + nearest.front() + "'?)")
            << "; commands: " << fmt::format("{}", fmt::join(names, ", "))
            << "\nRun 'moeplan --help' for usage.\n";
        return static_cast<int>(ExitStatus::usage);
      }
      err << "moeplan: error: " << e.what() << "\n" << help_hint;
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

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
        const TerminalStyle& style) {
  const ErrnoOfFirstFailure watch(out);
  const int status = parse_and_run(argc, argv, out, err, style);
  // MOEPLAN_WORK_COUNTS=1: how often the expensive steps ran (base/work_counts.hpp), on stderr.
  if (const char* v = std::getenv("MOEPLAN_WORK_COUNTS"); v != nullptr && std::string_view(v) == "1") {
    for (std::size_t i = 0; i < work::k_step_names.size(); ++i) {
      err << "moeplan: work: " << work::k_step_names[i] << " "
          << work::count(static_cast<work::Step>(i)) << "\n";
    }
  }
  if (status != static_cast<int>(ExitStatus::ok)) return status;  // its error is printed
  // --help, --version, completion scripts and data on stdout: a write that failed (a full
  // disk, `> /dev/full`) is exit 5, never a silent 0.
  out.flush();
  if (out && watch.error() == 0) return status;
  err << "moeplan: error: " << stdout_failure(watch.error()) << "\n";
  return static_cast<int>(ExitStatus::output_file);
}

}  // namespace moeplan::cli
