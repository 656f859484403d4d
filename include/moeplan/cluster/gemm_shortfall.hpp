#pragma once
/// The GEMM shape model's measured shortfall (issue 48; presets/hardware/gemm_shortfall.toml,
/// where the measurement is cited): the rate an (n, k) GEMM loses against the shape model on a
/// GPU of the measured die, as the H200 sweep measured it.
#include <string>
#include <vector>

#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/cluster/precision_spec.hpp"

namespace moeplan {

/// One precision's grid of measured/model ratios over (n, k).
struct GemmShortfall {
  std::vector<double> ns, ks;      ///< the grid's widths and reductions, ascending
  std::vector<double> log_ns, log_ks;  ///< their logarithms (the interpolation's axes)
  std::vector<double> log_ratios;  ///< log(measured / model), row-major: ns.size() x ks.size()
  /// What of the modelled rate a GEMM of output width n and reduction k keeps: min(1, the
  /// ratio interpolated bilinearly in (log n, log k), held at the grid's edges).
  [[nodiscard]] double factor(double n, double k) const;
};

/// The measured shortfall of `gpu` in `precision`, or nullptr where the table does not cover
/// the GPU (another die) or the precision.
const GemmShortfall* measured_gemm_shortfall(const GpuSpec& gpu, Precision precision);

/// Where the table comes from, one line for the output (`cluster.gemm_rates`).
const std::string& gemm_shortfall_source();

}  // namespace moeplan
