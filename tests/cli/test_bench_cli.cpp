// `moeplan bench`, suggest's benchmark and `--align auto`, driven as a user would.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"
#include "moeplan/alignment/hardware_alignment.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

TEST_CASE("suggest --align auto at 1e22, five runs: one answer, with its spread (issue 22)" * doctest::test_suite("slow-timing")) {
  std::set<std::int64_t> answers;
  for (int run = 0; run < 5; ++run) {
    const Run r = run_moeplan({"suggest", "--flops", "1e22", "--align", "auto", "--format", "json",
                               "--bench-seconds", "0.5", "--no-gpu", "-q"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const auto j = nlohmann::json::parse(r.out);
    answers.insert(j["config"]["hidden_size"].get<std::int64_t>());
    const auto& a = j["alignment"];
    // The spread, or null with a reason when too few rounds fit to compare at all.
    for (const char* key : {"speedup", "speedup_low", "speedup_high"}) {
      CAPTURE(key);
      CHECK((a[key].is_number() || (a[key].is_null() && a[std::string(key) + "_reason"].is_string())));
    }
    CHECK(a["decision"].is_string());
    CHECK(a["paired_rounds"].get<std::int64_t>() >= 0);
  }
  CHECK(answers.size() == 1);
}

TEST_CASE("suggest --align auto reports the trade and prints the chosen config" * doctest::test_suite("slow-timing")) {
  const Run r = run_moeplan({"suggest", "--flops", "1e20", "--align", "auto", "--format", "json",
                             "--bench-seconds", "0.3", "--micro-batch-tokens", "1024", "--no-gpu"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"alignment\"") != std::string::npos);
  CHECK(r.out.find("\"aligned\": [") != std::string::npos);
  CHECK(r.out.find("\"in_band\": true") != std::string::npos);
  CHECK(run_moeplan({"suggest", "--flops", "1e20", "--align", "auto", "--no-bench"}).code == 2);
  for (const char* bad : {"0", "abc", "1.5", "-8", "1e9"}) {
    CAPTURE(bad);
    const Run b = run_moeplan({"suggest", "--flops", "1e20", "--align", bad});
    CHECK(b.code == 2);
    CHECK(b.err.find("--align") != std::string::npos);
  }
  CHECK(run_moeplan({"suggest", "--flops", "1e20", "--align", "64", "--no-bench"}).code == 0);
}
