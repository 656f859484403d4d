#pragma once
/// The GEMM kernels `moeplan bench` times, behind plain pointer interfaces so the timing
/// code and the tests do not depend on Eigen or CUDA headers.
///
/// CPU: fp32, row-major, Eigen's blocked GEMM on all threads (src/core/gemm_cpu.cpp is
/// compiled with -O3 and, with MOEPLAN_NATIVE_ARCH, -march=native so Eigen uses the
/// machine's widest FMA units).
/// GPU: bf16 inputs, fp32 accumulate, bf16 output, cuBLAS (src/gpu/gemm_cuda.cu); present
/// only when CMake found nvcc and cuBLAS. Without it every GPU call reports why not.
#include <cstdint>
#include <string>
#include <vector>

namespace moeplan {

// ---- CPU ---------------------------------------------------------------------------

/// C[m×n] = A[m×k]·B[k×n], row-major, fp32, by the backend chosen (Eigen unless
/// use_cpu_gemm_backend said otherwise).
void cpu_gemm(const float* A, const float* B, float* C, std::int64_t m, std::int64_t n,
              std::int64_t k);

/// Which CPU GEMM runs: Eigen's (compiled in) or the system BLAS's cblas_sgemm, dlopen()ed
/// (libopenblas.so.0, else libblas.so.3: whichever Debian's alternative installs, OpenBLAS,
/// BLIS or the reference BLAS). The bench times both and keeps the faster (issue 33: on a
/// 2-core EPYC OpenBLAS ran the plan's expert shapes at 1.4x Eigen, on an Intel machine
/// Eigen at up to 1.2x OpenBLAS), and says which ran.
enum class CpuGemmBackend { eigen, blas };
/// The system BLAS's library file, or "" with no cblas_sgemm found (the reason in `why`).
std::string cpu_blas_library(std::string* why = nullptr);
/// Selects the backend for every later cpu_gemm; blas without a library is ignored (false).
bool use_cpu_gemm_backend(CpuGemmBackend backend);
CpuGemmBackend cpu_gemm_backend();
/// "Eigen fp32 GEMM" or "cblas_sgemm (libopenblas.so.0)".
std::string cpu_gemm_kernel_name();
/// Threads the CPU GEMM uses (Eigen/OpenMP): 0 sets OpenMP's default; more than this process
/// may use is
/// capped there (a thread without a CPU of its own only time-slices, and a peak counted
/// from threads that cannot run would understate every fraction of it).
void set_cpu_gemm_threads(int threads);
/// CPUs this process may run on (its affinity mask: taskset, cgroup cpusets), at least 1.
int available_cpu_threads();
int cpu_gemm_threads();
/// The SIMD instruction sets Eigen was compiled for, e.g. "AVX512, FMA, AVX2, AVX, SSE…".
std::string cpu_gemm_isa();
/// The CPU's model name from /proc/cpuinfo ("unknown CPU" if unreadable).
std::string cpu_model_name();

/// The hardware peak the CPU kernel can reach: threads × clock × fp32 FLOPs per cycle of
/// the instruction set it was compiled for (two FMA pipes for AVX2/AVX-512, as on current
/// x86 server cores), with how it was derived. flops is 0 when the clock is unknown.
struct CpuPeak {
  double flops = 0;
  std::string source;  ///< e.g. "2 threads x 3.5 GHz (cpuinfo_max_freq) x 64 FLOP/cycle (AVX-512 FMA, 2 pipes)"
  bool native = false;  ///< the kernel was built with -march=native
};
CpuPeak cpu_hardware_peak(int threads);

// ---- GPU (CUDA) ----------------------------------------------------------------------

struct GpuDevice {
  bool usable = false;        ///< a device is present and cuBLAS initialised
  std::string status;         ///< one line: why not usable, or what was found
  std::string name;
  int compute_capability = 0;  ///< major·10 + minor, e.g. 90
  int sm_count = 0;
  double clock_hz = 0;         ///< peak SM clock
  double memory_bytes = 0;
  double bf16_dense_peak = 0;  ///< FLOP/s; see gpu_bf16_dense_peak()
  std::string peak_source;     ///< where bf16_dense_peak came from
};

/// Whether this binary has the CUDA path compiled in.
bool gpu_compiled();
/// Queries device 0 (cheap after the first call).
GpuDevice gpu_device();

/// Nominal dense bf16 tensor-core peak (FLOP/s, fp32 accumulate, no sparsity). Known
/// parts use NVIDIA's datasheet figure; others SMs × clock × dense bf16 FLOPs per SM per
/// clock of the architecture; 0 when the architecture is unknown.
double gpu_bf16_dense_peak(const std::string& name, int compute_capability, int sm_count,
                           double clock_hz, std::string* source);

struct GpuTiming {
  double median_s = 0, min_s = 0, max_s = 0;
  int reps = 0;
  std::string kernel;  ///< "cublasGemmEx", "cublasGemmGroupedBatchedEx", …
  std::string error;   ///< non-empty: the call failed (nothing else is meaningful)
};

/// Times one bf16 GEMM (m×k · k×n) with CUDA events: `warmup` untimed calls, then `reps`.
GpuTiming gpu_time_gemm(std::int64_t m, std::int64_t n, std::int64_t k, int warmup, int reps);
/// Times the members (rows[i]×k · k×n, each with its own weights) as one grouped GEMM.
GpuTiming gpu_time_grouped(const std::vector<std::int64_t>& rows, std::int64_t n,
                           std::int64_t k, int warmup, int reps);

/// Runs the grouped kernel on host data for checking: A[i] is rows[i]×k, B[i] is k×n,
/// C[i] rows[i]×n, all row-major fp32 on the host; inputs are rounded to bf16 on upload
/// and the bf16 results widened back. One member runs through the plain GEMM path.
/// Returns "" on success, else the reason.
std::string gpu_run_grouped(const std::vector<std::int64_t>& rows, std::int64_t n,
                            std::int64_t k, const std::vector<const float*>& A,
                            const std::vector<const float*>& B, const std::vector<float*>& C);

}  // namespace moeplan
