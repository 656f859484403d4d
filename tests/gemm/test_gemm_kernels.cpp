// The CPU GEMM kernel against a naive reference, the timing engine's bookkeeping and the
// GPU peak table. (The GPU kernels are checked by moeplan_gpu_tests, which needs a device.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "gemm_reference.hpp"
#include "moeplan/gemm/gemm_bench.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"
#include "moeplan/io/model_loader.hpp"

using namespace moeplan;

TEST_CASE("CPU fp32 GEMM matches the naive reference within gamma_k (u = 2^-24)") {
  struct Shape {
    std::int64_t m, n, k;
  };
  for (const Shape s : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{64, 96, 128}, Shape{127, 129, 255},
                        Shape{3, 300, 1000}}) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    CAPTURE(s.k);
    const auto A = random_matrix(s.m, s.k, 1), B = random_matrix(s.k, s.n, 2);
    std::vector<float> C(static_cast<std::size_t>(s.m * s.n), 99.0f);
    cpu_gemm(A.data(), B.data(), C.data(), s.m, s.n, s.k);
    const double err = relative_gemm_error(A, B, C, s.m, s.n, s.k);
    CHECK(err <= gamma_k(s.k, std::ldexp(1.0, -24)));
  }
}

TEST_CASE("CPU GEMM gives the same result with 1 and 2 threads (within the same bound)") {
  const std::int64_t m = 200, n = 150, k = 300;
  const auto A = random_matrix(m, k, 3), B = random_matrix(k, n, 4);
  std::vector<float> C1(static_cast<std::size_t>(m * n)), C2(C1.size());
  set_cpu_gemm_threads(1);
  cpu_gemm(A.data(), B.data(), C1.data(), m, n, k);
  CHECK(cpu_gemm_threads() == 1);
  set_cpu_gemm_threads(2);
  cpu_gemm(A.data(), B.data(), C2.data(), m, n, k);
  set_cpu_gemm_threads(0);
  CHECK(relative_gemm_error(A, B, C1, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
  CHECK(relative_gemm_error(A, B, C2, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
}

TEST_CASE("the system BLAS backend computes the same row-major product, or is refused without one") {
  std::string why;
  const std::string blas = cpu_blas_library(&why);
  if (blas.empty()) {
    CHECK_FALSE(use_cpu_gemm_backend(CpuGemmBackend::blas));
    CHECK(cpu_gemm_backend() == CpuGemmBackend::eigen);
    CHECK(why.find("cblas_sgemm") != std::string::npos);
    return;
  }
  REQUIRE(use_cpu_gemm_backend(CpuGemmBackend::blas));
  CHECK(cpu_gemm_kernel_name().find(blas) != std::string::npos);
  using Shape = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
  for (const auto& [m, n, k] : std::vector<Shape>{{7, 13, 5}, {64, 96, 128}, {3, 300, 1000}}) {
    CAPTURE(m);
    const auto A = random_matrix(m, k, 5), B = random_matrix(k, n, 6);
    std::vector<float> C(static_cast<std::size_t>(m * n), 99.0f);
    cpu_gemm(A.data(), B.data(), C.data(), m, n, k);
    CHECK(relative_gemm_error(A, B, C, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
  }
  use_cpu_gemm_backend(CpuGemmBackend::eigen);
  CHECK(cpu_gemm_kernel_name() == "Eigen fp32 GEMM");
}

TEST_CASE("CPU threads are capped at the CPUs this process may use (issue 22: 100000 threads)") {
  const int cpus = available_cpu_threads();
  CHECK(cpus >= 1);
  set_cpu_gemm_threads(100000);
  CHECK(cpu_gemm_threads() == std::min(cpus, 100000));
  set_cpu_gemm_threads(1);
  CHECK(cpu_gemm_threads() == 1);
  set_cpu_gemm_threads(0);
}

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

TEST_CASE("the CPU hardware peak is threads x clock x FLOPs/cycle of the compiled ISA, and says so") {
  const CpuPeak one = cpu_hardware_peak(1);
  const CpuPeak two = cpu_hardware_peak(2);
  CHECK(two.flops == doctest::Approx(2 * one.flops));
  CHECK(one.source.find("FLOP/cycle") != std::string::npos);
  CHECK(one.source.find("1 threads") != std::string::npos);
  if (!one.native) CHECK(one.source.find("without -march=native") != std::string::npos);
}

TEST_CASE("GPU bf16 dense peaks: datasheet parts, then SMs x clock x FLOPs/SM/clock") {
  std::string src;
  CHECK(gpu_bf16_dense_peak("NVIDIA H100 80GB HBM3", 90, 132, 1.98e9, &src) == 989.5e12);
  CHECK(src.find("H100 SXM") != std::string::npos);
  CHECK(gpu_bf16_dense_peak("NVIDIA H200", 90, 132, 1.98e9, nullptr) == 989.5e12);
  CHECK(gpu_bf16_dense_peak("NVIDIA H100 PCIe", 90, 114, 1.755e9, nullptr) == 756.5e12);
  CHECK(gpu_bf16_dense_peak("NVIDIA A100-SXM4-80GB", 80, 108, 1.41e9, nullptr) == 312e12);
  // Unknown Hopper part: 132 SMs × 1.83 GHz × 4096 = the H100 SXM's 989 TFLOPS.
  CHECK(gpu_bf16_dense_peak("Some Hopper", 90, 132, 1.83e9, &src) ==
        doctest::Approx(989.5e12).epsilon(1e-3));
  CHECK(src.find("132 SMs") != std::string::npos);
  CHECK(gpu_bf16_dense_peak("Future part", 120, 100, 2e9, &src) == 0);
  CHECK(src.find("unknown") != std::string::npos);
}

TEST_CASE("the CUDA path is compiled in exactly when CMake found nvcc and cuBLAS") {
  CHECK(gpu_compiled() == (MOEPLAN_EXPECT_CUDA != 0));
  const GpuDevice d = gpu_device();
  CHECK_FALSE(d.status.empty());  // either the device or why there is none
  if (!d.usable) {
    const GpuTiming t = gpu_time_gemm(64, 64, 64, 1, 1);
    CHECK_FALSE(t.error.empty());
  }
}
