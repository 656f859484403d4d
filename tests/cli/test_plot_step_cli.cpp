// `moeplan plot step`: its bars against `score` for the same flags, and its refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "moeplan/cluster/step_time.hpp"

using json = nlohmann::json;

TEST_CASE("plot step: bad input exits 2 naming the flag and writes nothing") {
  const auto csv = temp_path("plot-step-bad.csv"), data = temp_path("plot-step-bad-data.csv");
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases{
      {{"plot", "step", "moe-mini", "--tokens", "1e11"}, 2, "--gpus"},
      {{"plot", "step", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11"}, 2, "needs the model"},
      {{"plot", "step", "gpt-oss-20b", "--gpus", "8", "--gpu", "h100"}, 2, "--tokens"},  // no [training]
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--flops", "1e21"}, 2, "--flops"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--points", "5"}, 2, "--points"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--from", "2"}, 2, "--from"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "nosuch", "--tokens", "1e11"}, 2, "--gpu"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--eval-minutes", "5"}, 2,
       "--eval-interval"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "-1"}, 2, "--tokens"},
      {{"plot", "el", "--flops", "1e22", "--tokens", "1e11"}, 2, "--tokens"},
      {{"plot", "el", "--flops", "1e22", "--seq-len", "4096"}, 2, "--seq-len"},
      {{"plot", "step", "no-such-model.toml", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11"}, 4, "no-such-model"},
      {{"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--tp", "3"}, 3, "TP"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"-o", csv.string(), "--data", data.string()});
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == c.code);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(csv));
    CHECK_FALSE(std::filesystem::exists(data));
  }
}
