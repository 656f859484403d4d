// Mistyped flags are named with the nearest flag of the subcommand in use, flags that would
// be silently ignored or silently mean something else are refused, and numbers written with
// a decimal comma are not read as lists (issue 22, item 10).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_run.hpp"
#include "typos.hpp"

TEST_CASE("nearest_words: same word but for case and separators, then prefix, then 2 edits") {
  using moeplan::cli::nearest_words;
  const std::vector<std::string> flags{"flops", "format", "no-bench", "no-gpu", "top-k", "experts", "d"};
  CHECK(nearest_words("nobench", flags) == std::vector<std::string>{"no-bench"});
  CHECK(nearest_words("NO_BENCH", flags) == std::vector<std::string>{"no-bench"});
  CHECK(nearest_words("topk", flags) == std::vector<std::string>{"top-k"});
  CHECK(nearest_words("flop", flags) == std::vector<std::string>{"flops"});
  CHECK(nearest_words("expert", flags) == std::vector<std::string>{"experts"});
  CHECK(nearest_words("fromat", flags) == std::vector<std::string>{"format"});
  CHECK(nearest_words("no", flags) == std::vector<std::string>{"no-bench", "no-gpu"});
  CHECK(nearest_words("zzzzzz", flags).empty());
  // Three edits away is no suggestion (review: score --topk said "did you mean --flops?").
  CHECK(nearest_words("topk", {"flops", "out", "laws"}).empty());
  CHECK(nearest_words("x", flags).empty());  // one letter is not "one edit from d"
}

TEST_CASE("a mistyped flag is named with the nearest flag of the subcommand, exit 2") {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<Case> cases{
      // --flop used to read "--flops is required"
      {{"suggest", "--flop", "1e22"}, "unknown flag --flop (did you mean --flops"},
      {{"suggest", "--flops", "1e22", "--fromat", "json"}, "unknown flag --fromat (did you mean --format?)"},
      {{"suggest", "--flops", "1e22", "--nobench"}, "unknown flag --nobench (did you mean --no-bench?)"},
      {{"suggest", "--flops", "1e22", "--topk", "4"}, "unknown flag --topk (did you mean --top-k?)"},
      {{"suggest", "--flops", "1e22", "--expert", "8"}, "unknown flag --expert (did you mean --experts?)"},
      {{"suggest", "--flops", "1e22", "--expert=8"}, "unknown flag --expert (did you mean --experts?)"},
      {{"score", "moe-mini", "--fromat", "json"}, "unknown flag --fromat (did you mean --format?)"},
      {{"-q", "fit", "x.csv", "--bootstap", "3"}, "unknown flag --bootstap (did you mean --bootstrap?)"},
  };
  for (const Case& c : cases) {
    CAPTURE(fmt_args(c.args));
    const Run r = run_moeplan(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.message) != std::string::npos);
  }
}

TEST_CASE("usage hints point to the subcommand's own --help") {
  const Run typo = run_moeplan({"suggest", "--flop", "1e22"});
  CHECK(typo.err.find("Run 'moeplan suggest --help'") != std::string::npos);
  const Run bad_value = run_moeplan({"score", "moe-mini", "--tokens", "abc"});
  CHECK(bad_value.code == 2);
  CHECK(bad_value.err.find("Run 'moeplan score --help'") != std::string::npos);
  const Run no_command = run_moeplan({"sugest"});
  CHECK(no_command.err.find("Run 'moeplan --help'") != std::string::npos);
}

TEST_CASE("flags after a lone -- are not flags, and real flags pass in every spelling") {
  const Run ok = run_moeplan({"suggest", "--flops=1e20", "--no-bench", "--format=json", "--top-k=8"});
  CHECK(ok.code == 0);
  CHECK(ok.err.find("unknown flag") == std::string::npos);
  const Run sep = run_moeplan({"score", "--", "--not-a-flag"});
  CHECK(sep.err.find("unknown flag") == std::string::npos);
  CHECK(sep.code == 4);  // read as a config file name
}

TEST_CASE("suggest --top is refused with a hint: it was renamed --candidates and reads like --top-k") {
  const Run top = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "--top", "4"});
  CHECK(top.code == 2);
  CHECK(top.out.empty());
  CHECK(top.err.find("--candidates") != std::string::npos);
  CHECK(top.err.find("--top-k") != std::string::npos);
  const Run renamed = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "--candidates", "2", "--format", "json"});
  CHECK(renamed.code == 0);
  const Run help = run_moeplan({"suggest", "--help"});
  CHECK(help.out.find("--candidates") != std::string::npos);
  CHECK(help.out.find("--top ") == std::string::npos);  // hidden
  for (const char* shell : {"bash", "zsh"}) {
    CAPTURE(shell);
    const Run completion = run_moeplan({"completion", shell});
    CHECK(completion.out.find("--top ") == std::string::npos);
    CHECK(completion.out.find("'--top[") == std::string::npos);
    CHECK(completion.out.find("--candidates") != std::string::npos);
  }
}

TEST_CASE("a decimal comma in --flops is refused, not read as a list") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"suggest", "--no-bench", "--flops", "1,5e22"},
        std::vector<std::string>{"suggest", "--no-bench", "--flops", "1e20,1,5e22"},
        std::vector<std::string>{"score", "moe-mini", "--flops", "1,5e22"}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);  // was 3: "infeasible at C = 1"
    CHECK(r.out.empty());
    CHECK(r.err.find("--flops: '1,5e22' is not a number (use '.' as the decimal point") != std::string::npos);
  }
  const Run list = run_moeplan({"suggest", "--no-bench", "--flops", "1e20,3e20", "--format", "csv"});
  CHECK(list.code == 0);  // a real list still is one
}

TEST_CASE("benchmark settings where nothing is timed are refused, naming both flags") {
  struct Case {
    std::vector<std::string> args;
    std::vector<const char*> named;
  };
  const std::vector<Case> cases{
      {{"suggest", "--flops", "1e20", "--no-bench", "--bench-seconds", "3"}, {"--bench-seconds", "--no-bench"}},
      {{"suggest", "--flops", "1e20", "--no-bench", "--micro-batch-tokens", "64"}, {"--micro-batch-tokens", "--no-bench"}},
      {{"suggest", "--flops", "1e20", "--no-bench", "--no-gpu"}, {"--no-gpu", "--no-bench"}},
      {{"suggest", "--flops", "1e20,1e21", "--bench-seconds", "3"}, {"--bench-seconds", "sweep"}},
      {{"suggest", "--flops", "1e20", "--emit", "toml", "--micro-batch-tokens", "64"}, {"--micro-batch-tokens", "--emit"}},
  };
  for (const Case& c : cases) {
    CAPTURE(fmt_args(c.args));
    const Run r = run_moeplan(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    for (const char* word : c.named) CHECK(r.err.find(word) != std::string::npos);
  }
}

TEST_CASE("a config that is neither a file nor a preset says so and lists the presets") {
  const Run r = run_moeplan({"score", "moe-mni"});
  CHECK(r.code == 4);
  CHECK(r.err.find("moe-mni: neither a file nor a model preset") != std::string::npos);
  CHECK(r.err.find("moe-mini") != std::string::npos);  // the list
  CHECK(r.err.find("moeplan presets") != std::string::npos);
}
