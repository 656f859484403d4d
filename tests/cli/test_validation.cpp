// docs/validation.md as a test: every published training or benchmark of
// bench/validation/cases.csv run as published (its layout, batch, sequence and precision)
// through `moeplan score`; the prediction within the bound the doc states (0.5x to 2x of the
// published figure), and the cases moeplan cannot run as published (documented there) refused
// with exit 3. bench/validation.sh prints the same table.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {
const std::string k_bench = MOEPLAN_TEST_DATA_DIR "/../../bench/";

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) {
    if (w.rfind("bench/", 0) == 0) w = k_bench + w.substr(6);  // a model file of the cases
    out.push_back(w);
  }
  return out;
}
}  // namespace

TEST_CASE("validation: published trainings and benchmarks within the bound docs/validation.md states" *
          doctest::test_suite("slow")) {
  std::ifstream in(k_bench + "validation/cases.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header: id,split,class,expect,published,figure,args,source
  int cases = 0, moe = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> c = cells(line);
    REQUIRE(c.size() >= 7);
    const std::string id = c[0], expect = c[3], figure = c[5];
    const double published = std::stod(c[4]);
    std::vector<std::string> args = {"score"};
    for (const std::string& w : words(c[6])) args.push_back(w);
    args.insert(args.end(), {"--format", "json"});
    CAPTURE(id);
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    ++cases;
    if (c[2].rfind("moe", 0) == 0) ++moe;
    if (expect == "refused") {  // a known failure (docs/validation.md): refused, named, not wrong
      CHECK(r.code == 3);
      CHECK(r.out.empty());  // a config with no answer on the cluster is left out
      continue;
    }
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const json j = json::parse(r.out).at(0);
    const json& t = j.at("step_time");
    double predicted = 0;
    if (figure == "gpu_hours") predicted = t.at("gpu_hours").get<double>();
    if (figure == "step_s") predicted = t.at("step").get<double>();
    if (figure == "tokens_per_gpu_s") predicted = t.at("tokens_per_second").get<double>() / j.at("cluster").at("gpus").get<double>();
    // predicted speed over published speed (> 1: too fast), whatever the figure
    const double ratio = figure == "tokens_per_gpu_s" ? predicted / published : published / predicted;
    CAPTURE(ratio);
    CHECK(ratio > 0.5);
    CHECK(ratio < 2.0);
  }
  CHECK(cases >= 10);
  CHECK(moe >= 6);
}
