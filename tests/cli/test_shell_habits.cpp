// Terminal habits: colour only for a terminal without NO_COLOR, --quiet/--verbose, the
// compact suggest table, `moeplan presets`, completion scripts and --version.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app.hpp"
#include "cli_run.hpp"
#include "command.hpp"
#include "moeplan/base/presets.hpp"

using namespace moeplan;

namespace {

Run run_styled(std::vector<std::string> args, const cli::TerminalStyle& style) {
  args.insert(args.begin(), "moeplan");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err, style);
  return {code, out.str(), err.str()};
}

bool has_escape(const std::string& s) { return s.find('\x1b') != std::string::npos; }

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("terminal_style: decorate a terminal unless NO_COLOR is set and non-empty") {
  CHECK(cli::terminal_style(true, nullptr).colour);
  CHECK(cli::terminal_style(true, nullptr).unicode);
  CHECK(cli::terminal_style(true, "").colour);  // no-color.org: empty means unset
  CHECK_FALSE(cli::terminal_style(true, "1").colour);
  CHECK_FALSE(cli::terminal_style(true, "1").unicode);
  CHECK_FALSE(cli::terminal_style(false, nullptr).colour);
  CHECK_FALSE(cli::terminal_style(false, nullptr).unicode);
}

TEST_CASE("terminal_style: TERM=dumb gets neither colour nor box-drawing rules") {
  CHECK_FALSE(cli::terminal_style(true, nullptr, "dumb").colour);
  CHECK_FALSE(cli::terminal_style(true, nullptr, "dumb").unicode);
  CHECK(cli::terminal_style(true, nullptr, "xterm-256color").colour);
  CHECK(cli::terminal_style(true, nullptr, "").colour);  // set but empty: not dumb
}

TEST_CASE("colour and rules reach a terminal's table only, never data formats or -o files") {
  const cli::TerminalStyle tty{true, true};
  const Run table = run_styled({"suggest", "--flops", "1e20", "--no-bench"}, tty);
  REQUIRE(table.code == 0);
  CHECK(has_escape(table.out));
  CHECK(table.out.find("──") != std::string::npos);
  const Run plain = run_styled({"suggest", "--flops", "1e20", "--no-bench"}, {});
  CHECK_FALSE(has_escape(plain.out));
  CHECK(plain.out.find("──") == std::string::npos);
  const Run json = run_styled({"suggest", "--flops", "1e20", "--no-bench", "--format", "json"}, tty);
  CHECK_FALSE(has_escape(json.out));
  const auto path = temp_path("styled.txt");
  const Run file = run_styled({"suggest", "--flops", "1e20", "--no-bench", "-o", path.string()}, tty);
  REQUIRE(file.code == 0);
  const std::string written = slurp(path);
  CHECK_FALSE(written.empty());
  CHECK_FALSE(has_escape(written));
  std::filesystem::remove(path);
  CHECK_FALSE(has_escape(table.err));  // diagnostics stay plain
}

TEST_CASE("fit --quiet silences warnings and notes, --verbose adds details, errors always show") {
  const Run normal = run_moeplan({"suggest", "--flops", "1e22", "--no-bench"});
  CHECK(normal.err.find("moeplan: warning:") != std::string::npos);
  CHECK(normal.err.find("moeplan: detail:") == std::string::npos);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-q", "suggest", "--flops", "1e22", "--no-bench"},
        std::vector<std::string>{"suggest", "--flops", "1e22", "--no-bench", "--quiet"}}) {
    const Run q = run_moeplan(args);
    CHECK(q.code == 0);
    CHECK(q.err.empty());
    CHECK(q.out == normal.out);  // data unchanged
  }
  const Run v = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "-v"});
  CHECK(v.err.find("moeplan: warning:") != std::string::npos);
  CHECK(v.err.find("moeplan: detail: laws: ") != std::string::npos);
  const Run bad = run_moeplan({"-q", "suggest", "--flops", "junk"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("moeplan: error:") != std::string::npos);
  CHECK(run_moeplan({"-q", "-v", "suggest", "--flops", "1e20", "--no-bench"}).code == 2);
}

TEST_CASE("suggest's default table is one screen with the key numbers first - --full has it all") {
  const Run compact = run_moeplan({"suggest", "--flops", "1e22", "--no-bench"});
  REQUIRE(compact.code == 0);
  const auto lines = std::count(compact.out.begin(), compact.out.end(), '\n');
  CHECK(lines <= 40);
  CHECK(compact.out.rfind("Plan for C = 1e+22 FLOPs", 0) == 0);
  const auto pos = [&](const char* s) { return compact.out.find(s); };
  CHECK(pos("  N ") < pos("  d "));  // size before shape
  CHECK(pos("--full") != std::string::npos);
  const Run full = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "--full"});
  REQUIRE(full.code == 0);
  CHECK(std::count(full.out.begin(), full.out.end(), '\n') > lines);
  for (const char* needle : {"r_a", "Candidate 1", "How it was chosen", "dN/N"}) {
    CAPTURE(needle);
    CHECK(full.out.find(needle) != std::string::npos);
    CHECK(compact.out.find(needle) == std::string::npos);
  }
}

TEST_CASE("presets lists every embedded file - presets show prints one verbatim") {
  const Run list = run_moeplan({"presets"});
  REQUIRE(list.code == 0);
  for (const EmbeddedFile& f : embedded_presets()) {
    std::string p(f.path);
    const std::string name = p.substr(p.find('/') + 1, p.rfind(".toml") - p.find('/') - 1);
    CAPTURE(name);
    CHECK(list.out.find(name) != std::string::npos);
    const Run show = run_moeplan({"presets", "show", name});
    CHECK(show.code == 0);
    CHECK(show.out == std::string(f.text));
  }
  const Run json = run_moeplan({"presets", "--format", "json"});
  CHECK(json.out.find("\"description\"") != std::string::npos);
  const Run missing = run_moeplan({"presets", "show", "no-such-preset"});
  CHECK(missing.code == 2);
  CHECK(missing.out.empty());
  CHECK(missing.err.find("holistic") != std::string::npos);  // lists what there is
}

TEST_CASE("completion scripts name every subcommand and its flags") {
  const Run bash = run_moeplan({"completion", "bash"});
  const Run zsh = run_moeplan({"completion", "zsh"});
  REQUIRE(bash.code == 0);
  REQUIRE(zsh.code == 0);
  CHECK(zsh.out.rfind("#compdef moeplan", 0) == 0);
  for (const char* sub : {"suggest", "score", "fit", "bench", "plot", "presets", "completion"}) {
    CAPTURE(sub);
    CHECK(bash.out.find(std::string(sub) + ")") != std::string::npos);
    const std::string described = std::string(1, '\'') + sub + ":";
    CHECK(zsh.out.find(described) != std::string::npos);
  }
  for (const char* flag : {"--flops", "--align", "--no-bench", "--full", "--law", "--bootstrap"}) {
    CAPTURE(flag);
    CHECK(bash.out.find(flag) != std::string::npos);
    CHECK(zsh.out.find(flag) != std::string::npos);
  }
  CHECK(run_moeplan({"completion", "fish"}).code == 2);
}

TEST_CASE("fit --version names the version and a git revision") {
  const Run v = run_moeplan({"--version"});
  CHECK(v.code == 0);
  CHECK(v.out.rfind("moeplan 0.1.0 (git ", 0) == 0);
  CHECK(v.out.find("(git )") == std::string::npos);  // never empty
}
