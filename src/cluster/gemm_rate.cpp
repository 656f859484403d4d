// GEMM time from its shape (docs/step-model.md, include/moeplan/cluster/gemm_rate.hpp for
// the sources): tensor-core time reduced by tile, wave and pipeline-fill quantization, or the
// HBM time of its operands, whichever is longer.
#include "moeplan/cluster/gemm_rate.hpp"

#include <algorithm>
#include <cmath>

#include "moeplan/cluster/gemm_table.hpp"

namespace moeplan {

namespace {

constexpr double k_tile_m = 128;            // output rows per thread block (CUTLASS SM90 default)
constexpr double k_tile_n = 128;            // output columns per thread block
constexpr double k_step_bytes = 128;        // bytes of a row loaded per K-step
constexpr double k_fill_steps = 4;          // K-steps before the math runs
constexpr double k_output_bytes = 2;        // bf16 outputs

}  // namespace

double dense_peak(const GpuSpec& gpu, Precision precision) { return precision_spec(precision).peak_flops(gpu); }

GemmRateModel GemmRateModel::of(const GpuSpec& gpu, Precision precision, double efficiency, double hbm_efficiency) {
  GemmRateModel r;
  const PrecisionSpec& spec = precision_spec(precision);
  r.peak = spec.peak_flops(gpu);
  r.efficiency = efficiency;
  r.hbm = gpu.hbm_bandwidth * hbm_efficiency;
  r.sms = gpu.sms;
  r.operand_bytes = spec.gemm_operand_bytes;
  return r;
}

double gemm_shape_factor(const GemmRateModel& r, double groups, double m, double n, double k) {
  if (!(groups > 0 && m > 0 && n > 0 && k > 0) || !r.shaped) return 1.0;
  const double row_tiles = std::ceil(m / k_tile_m);
  const double col_tiles = std::ceil(n / k_tile_n);
  // Tile quantization: the overhanging part of the edge tiles computes nothing.
  const double tile = (m * n) / (row_tiles * k_tile_m * col_tiles * k_tile_n);
  // Wave quantization: the last wave of blocks leaves SMs idle.
  double wave = 1.0;
  if (r.sms > 0) {
    const double tiles = groups * row_tiles * col_tiles;
    const double waves = std::ceil(tiles / r.sms);
    wave = tiles / (waves * r.sms);
  }
  // Pipeline fill: the first K-steps load operands before the tensor cores start.
  const double fill = k_fill_steps * k_step_bytes / r.operand_bytes;
  return tile * wave * k / (k + fill);
}

double gemm_seconds(const GemmRateModel& r, double groups, double m, double n, double k) {
  if (!(groups > 0 && m > 0 && n > 0 && k > 0)) return 0;
  const double flops = 2.0 * groups * m * n * k;
  if (r.measured) return flops / r.measured->rate(groups, m, n, k);
  if (!(r.peak > 0) || !(r.efficiency > 0)) return 0;
  const double math = flops / (r.peak * r.efficiency * gemm_shape_factor(r, groups, m, n, k));
  const double bytes = groups * ((m * k + k * n) * r.operand_bytes + m * n * k_output_bytes);
  const double memory = r.hbm > 0 ? bytes / r.hbm : 0;
  return std::max(math, memory);
}

double training_gemm_seconds(const GemmRateModel& r, double groups, double rows, double out, double in) {
  return gemm_seconds(r, groups, rows, out, in)     // forward: y = x W
         + gemm_seconds(r, groups, rows, in, out)   // data gradient: dx = dy W^T
         + gemm_seconds(r, groups, out, in, rows);  // weight gradient: dW = x^T dy
}

}  // namespace moeplan
