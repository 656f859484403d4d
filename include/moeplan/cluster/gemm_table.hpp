#pragma once
/// Measured GEMM rates that replace the shape model (docs/step-model.md, "A table of measured
/// rates"): a CSV of (gpu, precision, groups, m, n, k, flops_per_s) rows, written by
/// `moeplan bench --gemm-table-out` on a GPU (or bench/gpu_shape_sweep.py --table), read by
/// `--gemm-table FILE`.
///
/// A shape's rate is interpolated in log space from the rows of its GPU and precision: the
/// four nearest rows in (log groups, log m, log n, log k), log rate weighted by 1/distance²;
/// rows of exactly the shape give their rate (the geometric mean when a shape was measured
/// more than once). Far from every row the estimate is only the
/// nearest measurements': the table should cover the shapes a plan times.
#include <expected>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"

namespace moeplan {

struct GemmTableRow {
  std::string gpu;  ///< the device as measured ("NVIDIA H200", "cuda: NVIDIA H100 80GB HBM3") or a catalog id
  Precision precision = Precision::bf16;
  double groups = 1, m = 0, n = 0, k = 0;  ///< groups GEMMs of m x n, reduced over k
  double flops_per_s = 0;
  int line = 0;  ///< in the file it was read from
};

/// Measured rates of one GPU and precision: what the step model interpolates.
struct MeasuredGemmRates {
  std::vector<GemmTableRow> rows;
  /// FLOP/s of `groups` GEMMs of m x n over k (see above); rows is not empty.
  [[nodiscard]] double rate(double groups, double m, double n, double k) const;
};

struct GemmTable {
  std::vector<GemmTableRow> rows;
  /// The rows measured on `gpu` (gpu_is: the device string names the catalog GPU, or is its
  /// id) in `precision`; nullptr when there are none.
  [[nodiscard]] std::shared_ptr<const MeasuredGemmRates> for_gpu(const GpuSpec& gpu, Precision precision) const;
};

inline constexpr std::string_view k_gemm_table_header = "gpu,precision,groups,m,n,k,flops_per_s";

/// Reads a table: the header above, then rows; blank lines and lines starting with # are
/// skipped. Errors name the file, line and column: a missing or extra cell, a precision other
/// than bf16/fp8, a number that is not finite and positive (groups, m, n, k whole numbers).
std::expected<GemmTable, InputError> read_gemm_table(std::string_view text, const std::string& source);

/// The CSV of `rows` in that schema (what read_gemm_table reads back).
std::string gemm_table_csv(const std::vector<GemmTableRow>& rows);

}  // namespace moeplan
