// src/gemm/gemm_bench.cpp: the timing engine's bookkeeping -- backends timed, totals, row
// slices under a small budget, the share of the hardware peak (moved from
// test_gemm_kernels.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "moeplan/gemm/gemm_bench.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"
#include "moeplan/io/model_loader.hpp"

using namespace moeplan;

namespace {

// The GEMMs of the moe-mini preset for T tokens, and CPU-only options of 3 rounds.
std::pair<ModelGemms, BenchOptions> moe_mini_bench(std::int64_t tokens, double seconds, int peak_size) {
  const auto m = load_model_config("moe-mini");
  REQUIRE(m.has_value());
  const auto g = model_gemms(*m, tokens);
  REQUIRE(g.has_value());
  BenchOptions o;
  o.tokens = tokens;
  o.cpu_seconds = seconds;
  o.reps = 3;
  o.gpu = false;
  o.peak_size = peak_size;
  return {*g, o};
}

}  // namespace

TEST_CASE("CPU bench: Eigen and the system BLAS both timed, the faster runs, and the notes say which") {
  const auto [gemms, o] = moe_mini_bench(256, 0.1, 256);
  const BenchResult r = run_gemm_bench(gemms, o);
  REQUIRE(r.cpu.has_value());
  const DeviceRun& c = *r.cpu;
  const auto note = std::find_if(c.notes.begin(), c.notes.end(),
                                 [](const std::string& n) { return n.starts_with("CPU GEMM: "); });
  REQUIRE(note != c.notes.end());
  const bool blas_ran = cpu_gemm_backend() == CpuGemmBackend::blas;
  for (const TimedOp& t : c.moe_layer) {
    CHECK(t.kernel.starts_with(blas_ran ? "cblas_sgemm" : "Eigen fp32 GEMM"));
  }
  const std::string& text = *note;
  CHECK(text.starts_with(blas_ran ? "CPU GEMM: cblas_sgemm of " : "CPU GEMM: Eigen ran"));
  if (!cpu_blas_library().empty()) {  // both rates are in the note, the one that ran the higher
    const double ran = std::stod(text.substr(text.find(" ran (") + 6));
    const std::size_t unit = text.rfind(" GFLOP/s");
    const double other = std::stod(text.substr(text.find_last_of(' ', unit - 1) + 1));
    CHECK(ran >= other);
    CHECK(text.find(blas_ran ? "; Eigen " : "; cblas_sgemm of ") != std::string::npos);
  }
  use_cpu_gemm_backend(CpuGemmBackend::eigen);
}

TEST_CASE("CPU bench: every op timed, totals add up, slices keep n and k" * doctest::test_suite("slow")) {
  const auto [gemms, o] = moe_mini_bench(512, 0.3, 256);
  const ModelGemms* g = &gemms;
  const BenchResult r = run_gemm_bench(gemms, o);
  REQUIRE(r.cpu.has_value());
  CHECK_FALSE(r.gpu.has_value());
  CHECK(r.gpu_status.find("--no-gpu") != std::string::npos);
  const DeviceRun& c = *r.cpu;
  CHECK(c.peak_size == 256);
  CHECK(c.peak_rate > 0);
  CHECK(c.errors.empty());
  REQUIRE(c.dense_layer.size() == g->dense_layer.size());
  REQUIRE(c.moe_layer.size() == g->moe_layer.size());
  double dense = 0, moe = 0;
  for (const auto* layer : {&c.dense_layer, &c.moe_layer}) {
    for (const TimedOp& t : *layer) {
      CAPTURE(t.op.name);
      CHECK(t.rate > 0);
      // The budget is a deadline: fewer rounds than asked only with a note saying so.
      CHECK(t.timing.reps >= 1);
      CHECK(t.timing.reps <= 3);
      if (t.timing.reps < 3) {
        CHECK(std::any_of(c.notes.begin(), c.notes.end(),
                          [](const std::string& n) { return n.find("timing rounds") != std::string::npos; }));
      }
      CHECK(t.fraction_of_peak >= 0);
      CHECK(t.fraction_of_peak <= 1);  // of the hardware peak, never above it
      CHECK(t.timing.min_s <= t.timing.median_s);
      CHECK(t.timing.median_s <= t.timing.max_s);
      REQUIRE(t.timed_rows.size() == 1);
      CHECK(t.timed_rows.front() >= 1);
      // A slice keeps k, and n or a slice of n with n's residue mod 64.
      CHECK(t.timed_n <= t.op.n);
      CHECK(t.timed_n % 64 == t.op.n % 64);
      CHECK(t.timed_flops == 2.0 * double(t.timed_rows.front()) * double(t.timed_n) * double(t.op.k));
      CHECK(t.seconds == doctest::Approx(t.op.flops() / t.rate).epsilon(1e-12));
      (t.op.layer == LayerKind::dense ? dense : moe) += t.seconds;
    }
  }
  CHECK(c.dense_layer_seconds == doctest::Approx(dense));
  CHECK(c.moe_layer_seconds == doctest::Approx(moe));
  CHECK(c.forward_seconds == doctest::Approx(g->dense_layers * dense + g->moe_layers * moe));
  CHECK(c.tokens_per_second == doctest::Approx(512.0 / c.forward_seconds));
  CHECK(c.rate == doctest::Approx(g->flops() / c.forward_seconds));
}

TEST_CASE("CPU bench: a tiny budget times row slices, under min_rows only with a note" * doctest::test_suite("slow")) {
  auto [gemms, o] = moe_mini_bench(8192, 0.01, 128);
  const ModelGemms* g = &gemms;
  o.min_rows = 32;
  CpuGemmBench cpu(o, 0.001);
  cpu.add(*g, 0.01);
  cpu.measure();
  const DeviceRun r = cpu.result(*g);
  bool some_sliced = false, below_min = false;
  for (const TimedOp& t : r.dense_layer) {
    CHECK(t.timed_rows.front() >= 16);  // below min_rows only to keep the budget, and noted
    CHECK(t.timed_rows.front() <= 8192);
    below_min = below_min || t.timed_rows.front() < 32;
    some_sliced = some_sliced || t.sliced();
  }
  CHECK(some_sliced);  // an 8192-row dense FFN does not fit 10 ms
  const bool noted = std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.find("fewer than --min-rows") != std::string::npos;
  });
  CHECK(noted == below_min);
}

TEST_CASE("fraction_of: a share of the hardware peak, capped at 1 with a note when the peak is wrong") {
  std::vector<std::string> notes;
  CHECK(fraction_of(0.5e12, 1e12, &notes) == doctest::Approx(0.5));
  CHECK(notes.empty());
  CHECK(fraction_of(3.43e12, 1e12, &notes) == 1.0);  // the 3.43 "of peak" once reported
  REQUIRE(notes.size() == 1);
  CHECK(notes.front().find("above the hardware peak") != std::string::npos);
  CHECK(fraction_of(5e12, 1e12, &notes) == 1.0);
  CHECK(notes.size() == 1);  // said once
  CHECK(fraction_of(1e12, 0, &notes) == 0);  // no peak known: no fraction
}

