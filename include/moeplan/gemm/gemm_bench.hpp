#pragma once
/// Timing the GEMMs of a config (gemm_shapes.hpp) on the CPU and, when there is one, on a
/// CUDA GPU: per-shape rate and share of peak, and what they add up to for one micro-batch.
///
/// CPU runs are bounded in time: a shape whose full size would take longer than its share
/// of the budget is timed on a slice of its rows (at least `min_rows`, a multiple of 16),
/// which keeps n and k — the dimensions alignment is about — and changes only how many
/// times the same blocked kernel repeats; the full shape's time is then its exact FLOPs
/// over the measured rate. The routed experts (balanced routing: members of q and q+1
/// rows) are timed at q+1 rows and that rate serves every member, since the CPU runs
/// them one after another. Every timing is the median of `reps` runs after a warm-up.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "moeplan/gemm/gemm_kernels.hpp"
#include "moeplan/model/gemm_shapes.hpp"

namespace moeplan {

struct Timing {
  double median_s = 0, min_s = 0, max_s = 0;
  int reps = 0;
  /// Every timed run in the order it ran. CPU runs: entry r is round r, and round r timed
  /// every planned shape once, so two shapes' entries r are a pair measured side by side
  /// (what `--align auto` compares). Empty where only the summary is known (GPU).
  std::vector<double> samples = {};
  /// (max − min) / median: the run-to-run spread.
  [[nodiscard]] double spread() const { return median_s > 0 ? (max_s - min_s) / median_s : 0; }
};

/// The median, extremes and count of some runs, `samples` kept in the order given.
Timing summarise(std::vector<double> seconds);

struct TimedOp {
  GemmOp op;
  std::vector<std::int64_t> timed_rows;  ///< rows of each timed call (a slice or a member)
  std::int64_t timed_n = 0;              ///< columns of the timed call (< n: a slice of n too)
  double timed_flops = 0;                ///< FLOPs of one timed repetition
  Timing timing;                         ///< of one timed repetition
  std::string kernel;                    ///< which library call ran
  double rate = 0;                       ///< FLOP/s = timed_flops / median
  double fraction_of_peak = 0;           ///< rate / the hardware peak, at most 1
  double seconds = 0;                    ///< the whole op for the micro-batch: flops / rate
  [[nodiscard]] bool sliced() const;
};

struct DeviceRun {
  std::string device;            ///< "cpu: AMD EPYC …, 2 threads" / "cuda: NVIDIA H200 …"
  std::string precision;         ///< "fp32" / "bf16 in, fp32 accumulate, bf16 out"
  int peak_size = 0;             ///< n of the square GEMM timed for the peak
  double peak_rate = 0;          ///< FLOP/s of that GEMM: the "measured peak"
  double nominal_peak = 0;       ///< hardware peak: datasheet (GPU), threads x clock x FLOPs/cycle (CPU); 0 if unknown
  std::string nominal_peak_source;
  std::vector<std::string> notes;   ///< what the figures cannot be trusted for (a noisy peak, a cut run)
  std::vector<TimedOp> dense_layer, moe_layer;
  double dense_layer_seconds = 0, moe_layer_seconds = 0;
  double forward_seconds = 0;    ///< L_d·dense + L_m·moe, one micro-batch, GEMMs only
  /// forward_seconds in each interleaved timing round (CPU; empty when the ops' rounds do
  /// not line up, as on the GPU): the paired samples a comparison of two configs needs.
  std::vector<double> forward_seconds_by_round;
  /// forward_seconds from every op's fastest / slowest run: a bound on its spread.
  double forward_seconds_min = 0, forward_seconds_max = 0;
  double tokens_per_second = 0;  ///< T / forward_seconds
  double rate = 0;               ///< all forward GEMM FLOPs / forward_seconds
  std::vector<std::string> errors;  ///< ops that could not be timed (GPU memory, …)
};

struct BenchOptions {
  std::int64_t tokens = 8192;  ///< T, tokens per micro-batch
  double cpu_seconds = 2.0;    ///< time budget of the CPU run (timed work, ≈ wall time)
  int threads = 0;             ///< CPU threads; 0 = all
  int reps = 5;
  /// Slices are sized for this many times the planned calls (warm-up + reps). 1 for a
  /// single config; `--align auto` asks for more, because the 512³ probe overstates the
  /// rate of large shapes and a deadline that cuts rounds leaves no paired spread.
  double plan_margin = 1.0;
  std::int64_t min_rows = 64;  ///< smallest CPU row slice (smaller only to keep the budget, noted)
  /// Largest CPU operand (A, B or C) in bytes: a bigger weight matrix is timed on a slice of
  /// its columns (n keeps its residue mod 64), so memory stays bounded at any model size.
  double max_operand_bytes = 256.0 * 1024 * 1024;
  int peak_size = 0;           ///< CPU peak GEMM size; 0 = the largest of 2048/1536/1024/512 that fits
  bool cpu = true;
  bool gpu = true;
  int gpu_reps = 20;
};

/// Times GEMMs on the CPU. Shapes are planned first (add), then timed together (measure):
/// one warm-up each, then `reps` rounds that each time every shape once (odd rounds in
/// reverse order, so no shape always runs first or last), so a slow spell
/// of a shared machine hits all shapes — and all the configs being compared — alike.
/// Shapes that several configs share (the aligned variants of `suggest --align auto`)
/// are timed once.
class CpuGemmBench {
 public:
  /// Sizes the peak GEMM (the largest of 2048/1536/1024/512 whose runs fit in
  /// `peak_budget_s`, unless options.peak_size is set) and plans it.
  CpuGemmBench(const BenchOptions& options, double peak_budget_s);
  /// Plans the shapes of `gemms` so that their timed runs fit in `budget_s` seconds.
  void add(const ModelGemms& gemms, double budget_s);
  /// Plans the shapes of several configs at once, every new shape with the same share of
  /// `budget_s`: configs being compared get slices sized by one rule, so none is favoured
  /// by a larger slice (a larger slice amortises the packing of its weights better).
  void add(const std::vector<const ModelGemms*>& set, double budget_s);
  /// Times every planned shape not yet timed. When even the smallest slices would overrun
  /// the budget, the rounds drop from `reps` towards 3 (never fewer).
  void measure();
  /// The figures of `gemms` (added and measured before).
  [[nodiscard]] DeviceRun result(const ModelGemms& gemms) const;
  [[nodiscard]] double peak_rate() const;

 private:
  using Shape = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // m, n, k
  [[nodiscard]] TimedOp timed_op(const GemmOp& op) const;

  BenchOptions options_;
  int peak_size_ = 0;
  double probe_rate_ = 0;  ///< FLOP/s of a quick 512³ GEMM by the backend chosen, to size slices
  std::string backend_choice_;  ///< which CPU GEMM runs and why (Eigen or the system BLAS, both timed)
  std::string device_;
  std::map<Shape, Shape> slice_;         ///< (rows, n, k) of an op → the (rows, n, k) timed
  std::map<Shape, Timing> timed_;        ///< measured shapes
  std::vector<Shape> pending_;
  double budget_s_ = 0;  ///< total of the peak and add() budgets not yet spent
  CpuPeak hardware_;     ///< threads x clock x FLOPs/cycle
  int cut_rounds_ = 0;   ///< rounds the deadline allowed when fewer than reps (0: all ran)
  int below_min_rows_ = 0;  ///< shapes sliced below min_rows to keep the budget
  bool warm_only_ = false;  ///< the warm-up round was the only timing
  double pack_bytes_per_second_ = 1e9;  ///< Eigen's packing of the weight matrix, per call
  int column_sliced_ = 0;   ///< shapes whose n was sliced to bound memory
};

/// rate / peak for a fraction of the hardware peak, never above 1: a rate above the peak
/// means the peak's assumptions (clock, FMA pipes) do not hold, and `note` says so.
double fraction_of(double rate, double peak, std::vector<std::string>* notes);

/// GEMM-only training time on the device: forward + backward (3 x forward FLOPs) for D
/// tokens at the measured forward time of T tokens; excludes attention scores, the
/// optimiser and communication.
double training_gemm_seconds(const DeviceRun& run, const ModelGemms& gemms, double training_tokens);

/// Times every op of `gemms` on the GPU (full shapes; grouped experts as one call).
/// nullopt with `status` set when there is no usable GPU.
std::optional<DeviceRun> gpu_gemm_bench(const ModelGemms& gemms, const BenchOptions& options,
                                        std::string& status);

struct BenchResult {
  ModelGemms gemms;
  std::optional<DeviceRun> cpu;
  std::optional<DeviceRun> gpu;
  std::string gpu_status;  ///< one line: the device, or why there is no GPU run
};

/// CPU (unless options.cpu is false) and GPU (when usable and options.gpu) runs of `gemms`.
BenchResult run_gemm_bench(const ModelGemms& gemms, const BenchOptions& options);

}  // namespace moeplan
