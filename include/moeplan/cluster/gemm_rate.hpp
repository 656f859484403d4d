#pragma once
/// How fast one GEMM runs on a GPU, from its shape (docs/step-model.md): a roofline of
/// tensor-core throughput, reduced by tile and wave quantization on the GPU's SMs and by the
/// pipeline fill of a short reduction, against the HBM traffic of its operands.
///
/// Sources and stated figures:
/// - NVIDIA, "Matrix Multiplication Background User's Guide" (docs.nvidia.com/deeplearning/
///   performance/dl-performance-matrix-multiplication): an output is computed in tiles, one
///   thread block per tile; tiles are scheduled in waves of one block per SM, so a last partial
///   wave and tiles that overhang the matrix waste their share of the GPU ("wave quantization",
///   "tile quantization"); arithmetic intensity against the memory bandwidth decides whether a
///   GEMM is math- or memory-limited.
/// - Tile 128 × 128 outputs: CUTLASS's default Hopper (SM90) warp-specialized tile and a common
///   cuBLAS choice (an engineering figure: libraries pick per shape).
/// - Reduction pipeline: a tile loads its operands in K-steps of 128 bytes per row (64 bf16 or
///   128 fp8 elements, the TMA/WGMMA K-block); the first 4 steps fill the stages before the
///   math runs (engineering figure: CUTLASS SM90 mainloops keep 4-7 stages).
/// - Achieved HBM bandwidth 0.85 of the datasheet: measured, 4.06 TB/s of 4.8 on an H200 by
///   bench/gpu_shape_sweep.py (a 1 GiB copy), 2026-11-26.
/// The ceiling (`efficiency`) is the caller's: sustained large-GEMM rate over the datasheet peak.
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/cluster/precision_spec.hpp"

namespace moeplan {

struct MeasuredGemmRates;  // gemm_table.hpp

/// FLOP/s, the GPU's dense tensor-core peak in `precision` (the datasheet's, no sparsity): the
/// catalog figure its description names (precision_spec.hpp). 0 for fp8 on a GPU without FP8.
double dense_peak(const GpuSpec& gpu, Precision precision);

/// Achieved HBM bandwidth over the datasheet figure (see above: measured); the default of
/// StepTimeOptions::hbm_efficiency (--hbm-efficiency).
inline constexpr double k_hbm_efficiency = 0.85;

/// One GPU's GEMM rates for one precision.
struct GemmRateModel {
  double peak = 0;        ///< FLOP/s, dense tensor-core peak of the precision
  double efficiency = 1;  ///< sustained large-GEMM rate over peak (a stated figure)
  double hbm = 0;         ///< achieved HBM bandwidth, bytes/s
  int sms = 0;            ///< streaming multiprocessors (compute units); 0: waves not modelled
  double operand_bytes = 2;  ///< bytes per input element (the precision's gemm_operand_bytes); outputs are bf16
  /// false: `peak` is a rate measured on the shapes themselves (no tile, wave or fill factor).
  bool shaped = true;
  /// A table of measured rates for this GPU and precision (--gemm-table): when set, a GEMM
  /// takes its FLOPs over the table's interpolated rate, and nothing above applies.
  const MeasuredGemmRates* measured = nullptr;
  /// The model of `gpu` in `precision` at ceiling `efficiency` (the precision's peak, which the
  /// caller has checked is > 0, and operand bytes), the HBM at `hbm_efficiency` of the datasheet's.
  static GemmRateModel of(const GpuSpec& gpu, Precision precision, double efficiency,
                          double hbm_efficiency = k_hbm_efficiency);
};

/// Seconds of `groups` GEMMs, each an m × n output reduced over k (a grouped GEMM schedules
/// all the groups' tiles together). 0 when any dimension is not positive.
double gemm_seconds(const GemmRateModel& r, double groups, double m, double n, double k);

/// The tile/wave/pipeline factor alone (<= 1): what the shape leaves of the ceiling.
double gemm_shape_factor(const GemmRateModel& r, double groups, double m, double n, double k);

/// A linear layer in training: forward (rows × out, reduced over in), data gradient (rows × in,
/// over out) and weight gradient (out × in, over rows), seconds of the three.
double training_gemm_seconds(const GemmRateModel& r, double groups, double rows, double out, double in);

}  // namespace moeplan
