#pragma once
// Report sections for GEMM benchmark results (`moeplan bench`, `suggest`'s bench and
// `--align auto` trade).
#include <optional>

#include "moeplan/gemm/gemm_bench.hpp"
#include "moeplan/alignment/hardware_alignment.hpp"
#include "report.hpp"

namespace moeplan::cli {

/// "gemm" (shapes and exact FLOPs), then per device a "<dev>_bench" summary and, with
/// `per_op`, one "<dev>_<layer>_<op>" section per GEMM. A missing GPU run adds
/// gpu_status to the summary only. With `training_tokens` (D) each device also gets a
/// GEMM-only training-time estimate and its model FLOPs utilisation.
void add_bench(Report& report, const BenchResult& result, bool per_op,
               std::optional<double> training_tokens = std::nullopt);

/// "alignment" (what was chosen and why) and one "aligned_K" section per variant.
void add_alignment(Report& report, const AlignmentResult& result);

}  // namespace moeplan::cli
