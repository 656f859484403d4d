// The CPU GEMM `moeplan bench` times: Eigen's blocked, OpenMP-parallel fp32 product, or the
// system BLAS's cblas_sgemm when it is faster on this machine (the bench measures both).
// This file alone is compiled with -O3 (even in Debug, so sanitizer builds still time a
// real kernel) and, with MOEPLAN_NATIVE_ARCH, -march=native (see CMakeLists.txt). It is
// the only translation unit that instantiates Eigen's float matrix product, so those
// flags cannot leak into other instantiations through the linker.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>
#include <utility>

#include <dlfcn.h>
#include <sched.h>

#include <fmt/format.h>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

namespace {
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}

namespace {

// CBLAS's row-major sgemm (cblas.h: CblasRowMajor = 101, CblasNoTrans = 111), looked up at
// run time so that no build depends on which BLAS the machine has.
using CblasSgemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                            const float* a, int lda, const float* b, int ldb, float beta, float* c,
                            int ldc);
using SetThreads = void (*)(int);
constexpr int k_cblas_row_major = 101;
constexpr int k_cblas_no_trans = 111;

struct SystemBlas {
  CblasSgemm sgemm = nullptr;
  SetThreads set_threads = nullptr;  ///< openblas_set_num_threads, when the library has it
  std::string file;
  std::string why;
};

const SystemBlas& system_blas() {
  static const SystemBlas blas = [] {
    SystemBlas b;
    for (const char* file : {"libopenblas.so.0", "libblas.so.3"}) {
      void* h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
      if (!h) continue;
      if (auto* f = reinterpret_cast<CblasSgemm>(dlsym(h, "cblas_sgemm"))) {
        b.sgemm = f;
        b.set_threads = reinterpret_cast<SetThreads>(dlsym(h, "openblas_set_num_threads"));
        b.file = file;
        return b;
      }
      dlclose(h);
    }
    b.why = "no libopenblas.so.0 or libblas.so.3 with cblas_sgemm";
    return b;
  }();
  return blas;
}

CpuGemmBackend g_backend = CpuGemmBackend::eigen;

}  // namespace

std::string cpu_blas_library(std::string* why) {
  const SystemBlas& b = system_blas();
  if (why) *why = b.why;
  return b.file;
}

bool use_cpu_gemm_backend(CpuGemmBackend backend) {
  if (backend == CpuGemmBackend::blas && !system_blas().sgemm) return false;
  g_backend = backend;
  return true;
}

CpuGemmBackend cpu_gemm_backend() { return g_backend; }

std::string cpu_gemm_kernel_name() {
  return g_backend == CpuGemmBackend::blas ? fmt::format("cblas_sgemm ({})", system_blas().file)
                                           : std::string("Eigen fp32 GEMM");
}

void cpu_gemm(const float* A, const float* B, float* C, std::int64_t m, std::int64_t n,
              std::int64_t k) {
  if (g_backend == CpuGemmBackend::blas) {
    // The bench's shapes are far below 2^31 in every dimension (a config's widths).
    const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
    system_blas().sgemm(k_cblas_row_major, k_cblas_no_trans, k_cblas_no_trans, M, N, K, 1.0f, A, K, B,
                        N, 0.0f, C, N);
    return;
  }
  Eigen::Map<const RowMajor> a(A, m, k), b(B, k, n);
  Eigen::Map<RowMajor> c(C, m, n);
  c.noalias() = a * b;
}

int available_cpu_threads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void set_cpu_gemm_threads(int threads) {
  const int available = available_cpu_threads();
  Eigen::setNbThreads(threads <= 0 ? 0 : std::min(threads, available));
  if (const SystemBlas& b = system_blas(); b.set_threads) b.set_threads(Eigen::nbThreads());
}

int cpu_gemm_threads() { return Eigen::nbThreads(); }

std::string cpu_gemm_isa() { return Eigen::SimdInstructionSetsInUse(); }

namespace {

// The highest clock the OS reports: cpufreq's maximum, else the largest "cpu MHz" of
// /proc/cpuinfo (the current clock, which may be below the maximum). GHz; 0 if unknown.
std::pair<double, std::string> cpu_clock_ghz() {
  std::ifstream freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  double khz = 0;
  if (freq >> khz && khz > 0) return {khz / 1e6, "cpuinfo_max_freq"};
  std::ifstream in("/proc/cpuinfo");
  double mhz = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("cpu MHz", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) mhz = std::max(mhz, std::stod(line.substr(colon + 1)));
    }
  }
  return {mhz / 1e3, "/proc/cpuinfo cpu MHz, the current clock"};
}

// fp32 FLOPs per cycle and core of what Eigen was compiled to use.
std::pair<double, const char*> flops_per_cycle() {
#if defined(EIGEN_VECTORIZE_AVX512)
  return {64, "AVX-512 FMA, 2 pipes x 16 lanes x 2"};
#elif defined(EIGEN_VECTORIZE_FMA) && defined(EIGEN_VECTORIZE_AVX)
  return {32, "AVX2 FMA, 2 pipes x 8 lanes x 2"};
#elif defined(EIGEN_VECTORIZE_AVX)
  return {16, "AVX, 8-lane add + 8-lane multiply"};
#elif defined(EIGEN_VECTORIZE_NEON)
  return {16, "NEON FMA, 2 pipes x 4 lanes x 2"};
#elif defined(EIGEN_VECTORIZE_SSE)
  return {8, "SSE, 4-lane add + 4-lane multiply"};
#else
  return {2, "scalar FMA"};
#endif
}

}  // namespace

CpuPeak cpu_hardware_peak(int threads) {
  CpuPeak p;
#ifdef MOEPLAN_GEMM_NATIVE
  p.native = true;
#endif
  const auto [ghz, clock_source] = cpu_clock_ghz();
  const auto [per_cycle, isa] = flops_per_cycle();
  // Whole kHz, so the product is an integer (no 332799744000.00006).
  if (ghz > 0) p.flops = threads * std::round(ghz * 1e6) * 1e3 * per_cycle;
  p.source = fmt::format("{} threads x {:.3g} GHz ({}) x {:g} FLOP/cycle ({}){}", threads, ghz,
                         clock_source, per_cycle, isa,
                         p.native ? "" : "; built without -march=native (MOEPLAN_NATIVE_ARCH=OFF)");
  return p;
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  }
  return "unknown CPU";
}

}  // namespace moeplan
