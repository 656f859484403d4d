// The GPU path of `moeplan bench`: bf16 inputs, fp32 accumulate (CUBLAS_COMPUTE_32F),
// bf16 output, timed with CUDA events. Plain GEMMs go through cublasGemmEx. The routed
// experts of one layer are laid out by token count (balanced routing gives at most two
// counts) and run as one cublasGemmStridedBatchedEx call per count, every expert with its
// own weight matrix so no weight is served from a warm cache the real layer would not
// have. cublasGemmGroupedBatchedEx (one group per count) ran the same shapes at 0.31-0.47x
// of torch.bmm on an H100 (issue 15), so it is kept only for routing with many distinct
// counts; if it is refused, a loop of cublasGemmEx runs. The result names the kernel.
//
// Layout: moeplan's GEMMs are row-major C[m×n] = A[m×k]·B[k×n]. cuBLAS is column-major,
// so every call computes Cᵀ = Bᵀ·Aᵀ: (M, N, K) = (n, m, k), the weights first with
// ld = n, the activations second with ld = k, the output with ld = n.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gpu_module.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

namespace {

std::string cuda_error(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorString(e);
}

std::string cublas_error(const char* what, cublasStatus_t s) {
  return std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(s));
}

/// One device allocation, freed on scope exit.
struct DeviceBuffer {
  void* ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
  std::string allocate(size_t bytes) {
    const cudaError_t e = cudaMalloc(&ptr, std::max<size_t>(bytes, 1));
    if (e != cudaSuccess) {
      ptr = nullptr;
      return cuda_error("cudaMalloc", e) + " (" + std::to_string(bytes) + " bytes)";
    }
    return {};
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

__global__ void fill_bf16(__nv_bfloat16* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    p[i] = __float2bfloat16((static_cast<float>(h & 0xffff) / 65535.0f - 0.5f) * 0.25f);
  }
}

std::string fill(DeviceBuffer& b, size_t n, unsigned seed) {
  fill_bf16<<<1024, 256>>>(b.as<__nv_bfloat16>(), n, seed);
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? std::string() : cuda_error("fill kernel", e);
}

struct Context {
  bool ready = false;
  std::string why;
  cublasHandle_t handle = nullptr;
  GpuDevice device;
};

Context& context() {
  static Context c = [] {
    Context ctx;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      // Without the kernel driver the runtime reports "driver version is insufficient",
      // which reads as a version problem: say what is missing.
      const bool no_driver = access("/dev/nvidiactl", F_OK) != 0 && access("/dev/nvidia0", F_OK) != 0;
      ctx.why = no_driver ? std::string("no CUDA device (no NVIDIA driver: /dev/nvidiactl is absent)")
                : e != cudaSuccess ? "no CUDA device: " + std::string(cudaGetErrorString(e))
                                   : std::string("no CUDA device");
      ctx.device.status = ctx.why;
      return ctx;
    }
    cudaDeviceProp p{};
    if (const cudaError_t pe = cudaGetDeviceProperties(&p, 0); pe != cudaSuccess) {
      ctx.why = cuda_error("cudaGetDeviceProperties", pe);
      ctx.device.status = ctx.why;
      return ctx;
    }
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    GpuDevice& d = ctx.device;
    d.name = p.name;
    d.compute_capability = p.major * 10 + p.minor;
    d.sm_count = p.multiProcessorCount;
    d.clock_hz = clock_khz * 1e3;
    d.memory_bytes = static_cast<double>(p.totalGlobalMem);
    d.bf16_dense_peak =
        gpu_bf16_dense_peak(d.name, d.compute_capability, d.sm_count, d.clock_hz, &d.peak_source);
    if (const cublasStatus_t s = cublasCreate(&ctx.handle); s != CUBLAS_STATUS_SUCCESS) {
      ctx.why = cublas_error("cublasCreate", s);
      d.status = ctx.why;
      return ctx;
    }
    ctx.ready = true;
    d.usable = true;
    char line[256];
    std::snprintf(line, sizeof line, "%s, compute capability %d.%d, %d SMs, %.0f GiB", p.name,
                  p.major, p.minor, p.multiProcessorCount,
                  static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024 * 1024));
    d.status = line;
    return ctx;
  }();
  return c;
}

/// One plain GEMM on device buffers (row-major view, see the file comment).
cublasStatus_t gemm(cublasHandle_t h, const __nv_bfloat16* A, const __nv_bfloat16* B,
                    __nv_bfloat16* C, std::int64_t m, std::int64_t n, std::int64_t k) {
  const float alpha = 1.0f, beta = 0.0f;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                      static_cast<int>(k), &alpha, B, CUDA_R_16BF, static_cast<int>(n), A,
                      CUDA_R_16BF, static_cast<int>(k), &beta, C, CUDA_R_16BF,
                      static_cast<int>(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

/// Device-side state of one grouped run: per-member A, B, C pointers, grouped by rows.
struct Grouped {
  std::vector<std::int64_t> group_rows;  ///< distinct non-zero row counts, descending
  std::vector<int> group_size;
  std::vector<const void*> a_host, b_host;  ///< weights (cuBLAS A) and activations (cuBLAS B)
  std::vector<void*> c_host;
  std::vector<std::size_t> member;          ///< original member index of each pointer slot
  DeviceBuffer a_ptrs, b_ptrs, c_ptrs;
};

/// Orders members by row count so each group is contiguous in the pointer arrays.
std::string prepare_grouped(Grouped& g, const std::vector<std::int64_t>& rows,
                            const std::vector<const __nv_bfloat16*>& act,
                            const std::vector<const __nv_bfloat16*>& weights,
                            const std::vector<__nv_bfloat16*>& out) {
  std::map<std::int64_t, std::vector<std::size_t>, std::greater<>> by_rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] > 0) by_rows[rows[i]].push_back(i);
  }
  for (const auto& [r, members] : by_rows) {
    g.group_rows.push_back(r);
    g.group_size.push_back(static_cast<int>(members.size()));
    for (std::size_t i : members) {
      g.a_host.push_back(weights[i]);
      g.b_host.push_back(act[i]);
      g.c_host.push_back(out[i]);
      g.member.push_back(i);
    }
  }
  const std::size_t bytes = g.a_host.size() * sizeof(void*);
  for (DeviceBuffer* b : {&g.a_ptrs, &g.b_ptrs, &g.c_ptrs}) {
    if (std::string e = b->allocate(bytes); !e.empty()) return e;
  }
  cudaMemcpy(g.a_ptrs.ptr, g.a_host.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(g.b_ptrs.ptr, g.b_host.data(), bytes, cudaMemcpyHostToDevice);
  const cudaError_t e = cudaMemcpy(g.c_ptrs.ptr, g.c_host.data(), bytes, cudaMemcpyHostToDevice);
  return e == cudaSuccess ? std::string() : cuda_error("cudaMemcpy pointer arrays", e);
}

cublasStatus_t grouped_call(cublasHandle_t h, const Grouped& g, std::int64_t n, std::int64_t k) {
  const std::size_t G = g.group_rows.size();
  std::vector<cublasOperation_t> ops(G, CUBLAS_OP_N);
  std::vector<int> M(G, static_cast<int>(n)), N(G), K(G, static_cast<int>(k));
  std::vector<int> lda(G, static_cast<int>(n)), ldb(G, static_cast<int>(k)),
      ldc(G, static_cast<int>(n));
  std::vector<float> alpha(G, 1.0f), beta(G, 0.0f);
  for (std::size_t i = 0; i < G; ++i) N[i] = static_cast<int>(g.group_rows[i]);
  return cublasGemmGroupedBatchedEx(
      h, ops.data(), ops.data(), M.data(), N.data(), K.data(), alpha.data(),
      static_cast<const void* const*>(g.a_ptrs.ptr), CUDA_R_16BF, lda.data(),
      static_cast<const void* const*>(g.b_ptrs.ptr), CUDA_R_16BF, ldb.data(), beta.data(),
      static_cast<void* const*>(g.c_ptrs.ptr), CUDA_R_16BF, ldc.data(), static_cast<int>(G),
      g.group_size.data(), CUBLAS_COMPUTE_32F);
}

/// The fallback: one cublasGemmEx per member, all on the handle's stream.
cublasStatus_t looped_call(cublasHandle_t h, const Grouped& g, std::int64_t n, std::int64_t k) {
  std::size_t slot = 0;
  for (std::size_t grp = 0; grp < g.group_rows.size(); ++grp) {
    for (int j = 0; j < g.group_size[grp]; ++j, ++slot) {
      const cublasStatus_t s =
          gemm(h, static_cast<const __nv_bfloat16*>(g.b_host[slot]),
               static_cast<const __nv_bfloat16*>(g.a_host[slot]),
               static_cast<__nv_bfloat16*>(g.c_host[slot]), g.group_rows[grp], n, k);
      if (s != CUBLAS_STATUS_SUCCESS) return s;
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

/// Members with the same row count laid out back to back: activations, weights and outputs
/// of member j of a group at fixed strides, so the group is ONE strided-batched GEMM.
/// Balanced routing gives at most two row counts (q and q+1), so at most two calls.
struct StridedGroup {
  std::int64_t rows = 0;
  int count = 0;
  const __nv_bfloat16* act = nullptr;  ///< count x (rows x k)
  const __nv_bfloat16* weights = nullptr;  ///< count x (k x n)
  __nv_bfloat16* out = nullptr;  ///< count x (rows x n)
};

cublasStatus_t strided_call(cublasHandle_t h, const std::vector<StridedGroup>& groups,
                            std::int64_t n, std::int64_t k) {
  const float alpha = 1.0f, beta = 0.0f;
  for (const StridedGroup& g : groups) {
    const cublasStatus_t s = cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(g.rows),
        static_cast<int>(k), &alpha, g.weights, CUDA_R_16BF, static_cast<int>(n),
        static_cast<long long>(k) * n, g.act, CUDA_R_16BF, static_cast<int>(k),
        static_cast<long long>(g.rows) * k, &beta, g.out, CUDA_R_16BF, static_cast<int>(n),
        static_cast<long long>(g.rows) * n, g.count, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
  }
  return CUBLAS_STATUS_SUCCESS;
}

/// Distinct non-zero row counts (descending) and how many members have each.
std::vector<std::pair<std::int64_t, int>> row_groups(const std::vector<std::int64_t>& rows) {
  std::map<std::int64_t, int, std::greater<>> count;
  for (std::int64_t r : rows) {
    if (r > 0) ++count[r];
  }
  return {count.begin(), count.end()};
}

/// The strided path serves routing with few distinct row counts (balanced: at most two);
/// skewed routing, with many, stays one grouped call.
constexpr std::size_t k_max_strided_calls = 4;

template <class Call>
GpuTiming time_calls(const char* kernel, int warmup, int reps, Call call) {
  GpuTiming t;
  t.kernel = kernel;
  for (int i = 0; i < warmup; ++i) {
    if (const cublasStatus_t s = call(); s != CUBLAS_STATUS_SUCCESS) {
      t.error = cublas_error(kernel, s);
      return t;
    }
  }
  Events ev;
  std::vector<double> seconds;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(ev.start);
    const cublasStatus_t s = call();
    cudaEventRecord(ev.stop);
    cudaEventSynchronize(ev.stop);
    if (s != CUBLAS_STATUS_SUCCESS) {
      t.error = cublas_error(kernel, s);
      return t;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, ev.start, ev.stop);
    seconds.push_back(ms * 1e-3);
  }
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    t.error = cuda_error(kernel, e);
    return t;
  }
  std::sort(seconds.begin(), seconds.end());
  t.reps = reps;
  t.min_s = seconds.front();
  t.max_s = seconds.back();
  t.median_s = seconds.size() % 2 ? seconds[seconds.size() / 2]
                                  : 0.5 * (seconds[seconds.size() / 2 - 1] + seconds[seconds.size() / 2]);
  return t;
}

}  // namespace

namespace cuda_path {

GpuDevice gpu_device() { return context().device; }

GpuTiming gpu_time_gemm(std::int64_t m, std::int64_t n, std::int64_t k, int warmup, int reps) {
  Context& ctx = context();
  if (!ctx.ready) return GpuTiming{0, 0, 0, 0, "", ctx.why};
  DeviceBuffer a, b, c;
  const size_t e = sizeof(__nv_bfloat16);
  for (auto [buf, count] : {std::pair{&a, size_t(m) * k}, {&b, size_t(k) * n}, {&c, size_t(m) * n}}) {
    if (std::string err = buf->allocate(count * e); !err.empty()) return GpuTiming{0, 0, 0, 0, "", err};
  }
  if (std::string err = fill(a, size_t(m) * k, 1) + fill(b, size_t(k) * n, 2); !err.empty()) {
    return GpuTiming{0, 0, 0, 0, "", err};
  }
  return time_calls("cublasGemmEx", warmup, reps, [&] {
    return gemm(ctx.handle, a.as<__nv_bfloat16>(), b.as<__nv_bfloat16>(),
                c.as<__nv_bfloat16>(), m, n, k);
  });
}

GpuTiming gpu_time_grouped(const std::vector<std::int64_t>& rows, std::int64_t n,
                           std::int64_t k, int warmup, int reps) {
  Context& ctx = context();
  if (!ctx.ready) return GpuTiming{0, 0, 0, 0, "", ctx.why};
  std::int64_t total_rows = 0;
  for (std::int64_t r : rows) total_rows += r;
  const size_t e = sizeof(__nv_bfloat16), members = rows.size();
  DeviceBuffer act, weights, out;
  for (auto [buf, count] : {std::pair{&act, size_t(total_rows) * k},
                            {&weights, members * size_t(k) * n}, {&out, size_t(total_rows) * n}}) {
    if (std::string err = buf->allocate(count * e); !err.empty()) return GpuTiming{0, 0, 0, 0, "", err};
  }
  if (std::string err = fill(act, size_t(total_rows) * k, 3) + fill(weights, members * size_t(k) * n, 4);
      !err.empty()) {
    return GpuTiming{0, 0, 0, 0, "", err};
  }
  // Members in group order (rows descending), each with its own weights: the layout the
  // strided path needs and the grouped path accepts alike.
  const auto groups = row_groups(rows);
  std::vector<StridedGroup> strided;
  std::vector<std::int64_t> ordered_rows;
  std::vector<const __nv_bfloat16*> A, B;
  std::vector<__nv_bfloat16*> C;
  std::int64_t offset = 0;
  std::size_t member = 0;
  for (const auto& [r, count] : groups) {
    strided.push_back({r, count, act.as<__nv_bfloat16>() + offset * k,
                       weights.as<__nv_bfloat16>() + member * size_t(k) * n,
                       out.as<__nv_bfloat16>() + offset * n});
    for (int j = 0; j < count; ++j, ++member, offset += r) {
      ordered_rows.push_back(r);
      A.push_back(act.as<__nv_bfloat16>() + offset * k);
      B.push_back(weights.as<__nv_bfloat16>() + member * size_t(k) * n);
      C.push_back(out.as<__nv_bfloat16>() + offset * n);
    }
  }
  if (groups.size() <= k_max_strided_calls) {
    GpuTiming t = time_calls("cublasGemmStridedBatchedEx, one call per row count", warmup, reps,
                             [&] { return strided_call(ctx.handle, strided, n, k); });
    if (t.error.empty()) return t;
  }
  Grouped g;
  if (std::string err = prepare_grouped(g, ordered_rows, A, B, C); !err.empty()) return GpuTiming{0, 0, 0, 0, "", err};
  GpuTiming t = time_calls("cublasGemmGroupedBatchedEx", warmup, reps,
                           [&] { return grouped_call(ctx.handle, g, n, k); });
  if (!t.error.empty()) {
    t = time_calls("cublasGemmEx loop (grouped call refused)", warmup, reps,
                   [&] { return looped_call(ctx.handle, g, n, k); });
  }
  return t;
}

std::string gpu_run_grouped(const std::vector<std::int64_t>& rows, std::int64_t n,
                            std::int64_t k, const std::vector<const float*>& A,
                            const std::vector<const float*>& B, const std::vector<float*>& C) {
  Context& ctx = context();
  if (!ctx.ready) return ctx.why;
  // The path gpu_time_grouped times: members of one row count back to back, one
  // strided-batched call per row count (a single member is a plain GEMM).
  const std::size_t members = rows.size();
  std::int64_t total_rows = 0;
  for (std::int64_t r : rows) total_rows += r;
  DeviceBuffer act, weights, out;
  for (auto [buf, count] : {std::pair{&act, size_t(total_rows) * k},
                            {&weights, members * size_t(k) * n}, {&out, size_t(total_rows) * n}}) {
    if (std::string err = buf->allocate(count * sizeof(__nv_bfloat16)); !err.empty()) return err;
  }
  std::vector<StridedGroup> strided;
  std::vector<std::pair<std::size_t, std::int64_t>> placed;  // member, row offset
  std::int64_t offset = 0;
  std::size_t slot = 0;
  for (const auto& [r, count] : row_groups(rows)) {
    strided.push_back({r, count, act.as<__nv_bfloat16>() + offset * k,
                       weights.as<__nv_bfloat16>() + slot * size_t(k) * n, out.as<__nv_bfloat16>() + offset * n});
    for (std::size_t i = 0; i < members; ++i) {
      if (rows[i] != r) continue;
      const size_t na = size_t(r) * k, nb = size_t(k) * n;
      std::vector<__nv_bfloat16> ha(na), hb(nb);
      for (size_t j = 0; j < na; ++j) ha[j] = __float2bfloat16(A[i][j]);
      for (size_t j = 0; j < nb; ++j) hb[j] = __float2bfloat16(B[i][j]);
      cudaMemcpy(act.as<__nv_bfloat16>() + offset * k, ha.data(), na * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice);
      cudaMemcpy(weights.as<__nv_bfloat16>() + slot * nb, hb.data(), nb * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice);
      placed.emplace_back(i, offset);
      offset += r;
      ++slot;
    }
  }
  const cublasStatus_t s =
      members == 1 ? gemm(ctx.handle, act.as<__nv_bfloat16>(), weights.as<__nv_bfloat16>(),
                          out.as<__nv_bfloat16>(), rows[0], n, k)
                   : strided_call(ctx.handle, strided, n, k);
  if (s != CUBLAS_STATUS_SUCCESS) {
    return cublas_error(members == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx", s);
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_error("kernel", e);
  for (const auto& [i, at] : placed) {
    const size_t nc = size_t(rows[i]) * n;
    std::vector<__nv_bfloat16> hc(nc);
    cudaMemcpy(hc.data(), out.as<__nv_bfloat16>() + at * n, nc * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost);
    for (size_t j = 0; j < nc; ++j) C[i][j] = __bfloat162float(hc[j]);
  }
  return {};
}

}  // namespace cuda_path

}  // namespace moeplan

extern "C" __attribute__((visibility("default"))) const moeplan::gpu_module::Api* moeplan_gpu_module_api() {
  static const moeplan::gpu_module::Api api{
      moeplan::gpu_module::k_abi, &moeplan::cuda_path::gpu_device, &moeplan::cuda_path::gpu_time_gemm,
      &moeplan::cuda_path::gpu_time_grouped, &moeplan::cuda_path::gpu_run_grouped};
  return &api;
}
