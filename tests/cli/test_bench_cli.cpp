// `moeplan bench`, suggest's benchmark and `--align auto`, driven as a user would.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "cli_run.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"
#include "moeplan/planner/hardware_alignment.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

TEST_CASE("aligned_hidden_sizes: d rounded down and up to each step") {
  const auto v = aligned_hidden_sizes(3664, {64, 128});
  const std::vector<std::pair<int, int>> expected{{3648, 64}, {3712, 64}, {3584, 128}, {3712, 128}};
  CHECK(v == expected);
  // Already aligned: d stays, the variants re-align d_m to the step.
  const std::vector<std::pair<int, int>> same{{4096, 64}, {4096, 128}};
  CHECK(aligned_hidden_sizes(4096, {64, 128}) == same);
  CHECK(aligned_hidden_sizes(100, {128}) == std::vector<std::pair<int, int>>{{128, 128}});
}

TEST_CASE("align_for_hardware: variants meet the same targets, are aligned, and the choice is in band" * doctest::test_suite("slow")) {
  const LawSet& laws = builtin_laws();
  SuggestOptions o;
  o.compute = Flops(1e20);
  const auto s = suggest(laws.holistic, o);
  REQUIRE(s.has_value());
  const auto ranked = rank_candidates(laws, o, *s);
  AlignmentOptions a;
  a.bench.cpu_seconds = 0.3;
  a.bench.reps = 3;
  a.bench.gpu = false;
  a.bench.tokens = 1024;
  a.bench.peak_size = 256;
  const AlignmentResult r = align_for_hardware(laws, o, ranked.candidates.front(), a);
  REQUIRE(r.variants.size() >= 2);
  CHECK(r.variants.front().is_proposal);
  CHECK(r.timed_on == "cpu");
  double lowest = 1e9;
  for (const AlignmentVariant& v : r.variants) lowest = std::min(lowest, v.loss_change);
  CHECK(lowest == 0.0);
  const Suggestion& p = r.variants.front().candidate.suggestion;
  for (const AlignmentVariant& v : r.variants) {
    const Suggestion& x = v.candidate.suggestion;
    CAPTURE(v.candidate.variant);
    CHECK(v.loss_change >= 0);
    CHECK(v.in_band == (v.loss_change <= 0.001));
    CHECK(v.budget_seconds > 0);
    REQUIRE(v.timing.has_value());
    REQUIRE(v.timing->cpu.has_value());
    if (v.is_proposal) continue;
    CHECK(x.solution.arch.d % v.step == 0);
    CHECK(x.solution.arch.d_m % v.step == 0);
    // Same targets as the proposal, met within the same tolerance (paper 002 Eq. 3).
    CHECK(x.targets.M.value() == doctest::Approx(p.targets.M.value()).epsilon(1e-12));
    CHECK(x.targets.N_a.value() == doctest::Approx(p.targets.N_a.value()).epsilon(1e-12));
    CHECK(x.targets.N.value() == doctest::Approx(p.targets.N.value()).epsilon(1e-12));
    const Accounting& acc = x.solution.accounting;
    CHECK(std::abs(acc.M / x.targets.M - 1) <= x.tolerance);
    CHECK(std::abs(acc.N_a / x.targets.N_a - 1) <= x.tolerance);
    CHECK(std::abs(acc.N / x.targets.N - 1) <= x.tolerance);
  }
  const AlignmentVariant& chosen = r.variants[r.chosen];
  CHECK(chosen.in_band);
  for (const AlignmentVariant& v : r.variants) {
    if (v.in_band) CHECK(chosen.budget_seconds <= v.budget_seconds);
  }
}

TEST_CASE("bench a preset: gemm and cpu sections, one GPU note at most, exit 0" * doctest::test_suite("slow")) {
  const Run r = run_moeplan({"bench", "moe-mini", "--seconds", "0.3", "--tokens", "512",
                             "--format", "json", "--no-gpu"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"gemm\"") != std::string::npos);
  CHECK(r.out.find("\"cpu_bench\"") != std::string::npos);
  CHECK(r.out.find("\"cpu_moe_expert_gate_up\"") != std::string::npos);
  CHECK(r.out.find("\"gpu_bench\"") == std::string::npos);
  CHECK(r.err.empty());
  const Run summary = run_moeplan({"bench", "moe-mini", "--seconds", "0.2", "--tokens", "256", "--summary"});
  REQUIRE(summary.code == 0);
  CHECK(summary.out.find("expert_gate_up") == std::string::npos);
  if (!gpu_device().usable) {
    // Without a GPU the CPU path still runs and stderr says why in one line.
    CHECK(summary.err.find("moeplan: note: no GPU run: ") == 0);
    CHECK(std::count(summary.err.begin(), summary.err.end(), '\n') == 1);
  }
}

TEST_CASE("bench errors: a bad config exits 4, impossible flags exit 2, nothing on stdout") {
  const Run missing = run_moeplan({"bench", "/nonexistent/model.toml"});
  CHECK(missing.code == 4);
  CHECK(missing.out.empty());
  CHECK(missing.err.find("/nonexistent/model.toml") != std::string::npos);
  const Run neither = run_moeplan({"bench", "moe-mini", "--no-cpu", "--no-gpu"});
  CHECK(neither.code == 2);
  CHECK(run_moeplan({"bench", "moe-mini", "--tokens", "0"}).code == 2);
  CHECK(run_moeplan({"bench", "moe-mini", "--seconds", "-1"}).code == 2);
}

TEST_CASE("suggest benchmarks its winner by default, --no-bench leaves it out" * doctest::test_suite("slow")) {
  const Run timed = run_moeplan({"suggest", "--flops", "1e20", "--format", "json",
                                 "--bench-seconds", "0.3", "--tokens", "1024", "--no-gpu"});
  REQUIRE(timed.code == 0);
  CHECK(timed.out.find("\"cpu_bench\"") != std::string::npos);
  CHECK(timed.out.find("\"cpu_moe_expert_down\"") != std::string::npos);
  const Run plain = run_moeplan({"suggest", "--flops", "1e20", "--format", "json", "--no-bench"});
  REQUIRE(plain.code == 0);
  CHECK(plain.out.find("cpu_bench") == std::string::npos);
  CHECK(plain.out.find("\"gemm\"") == std::string::npos);
}

TEST_CASE("suggest --align auto reports the trade and prints the chosen config" * doctest::test_suite("slow")) {
  const Run r = run_moeplan({"suggest", "--flops", "1e20", "--align", "auto", "--format", "json",
                             "--bench-seconds", "0.3", "--tokens", "1024", "--no-gpu"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"alignment\"") != std::string::npos);
  CHECK(r.out.find("\"aligned_1\"") != std::string::npos);
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
