// The GEMM shape model's measured shortfall (issue 48; presets/hardware/gemm_shortfall.toml):
// the H200 sweep's measured/model ratios of the table, restated here, taken where below 1.
#include <doctest/doctest.h>

#include <cmath>

#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/gemm_shortfall.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"

using namespace moeplan;

namespace {

const GpuSpec& gpu(const char* id) { return *embedded_gpu_catalog().find(id); }

}  // namespace

TEST_CASE("gemm shortfall: the GH100 GPUs take the H200 sweep's table, other dies none") {
  CHECK(measured_gemm_shortfall(gpu("h200"), Precision::bf16) != nullptr);
  CHECK(measured_gemm_shortfall(gpu("h100"), Precision::fp8) != nullptr);
  CHECK(measured_gemm_shortfall(gpu("h800"), Precision::bf16) != nullptr);
  CHECK(measured_gemm_shortfall(gpu("a100-80gb"), Precision::bf16) == nullptr);
  CHECK(measured_gemm_shortfall(gpu("b200"), Precision::bf16) == nullptr);
  CHECK(measured_gemm_shortfall(gpu("h20"), Precision::bf16) == nullptr);  // 78 SMs: another die's layout
  CHECK(GemmRateModel::of(gpu("h100"), Precision::bf16, 0.6).shortfall != nullptr);
  CHECK_FALSE(gemm_shortfall_source().empty());
}

TEST_CASE("gemm shortfall: the measured ratio at a grid point, 1 where the model is the slower, log-bilinear between") {
  const GemmShortfall& bf16 = *measured_gemm_shortfall(gpu("h200"), Precision::bf16);
  // The table's rows (bf16): (768, 768) 0.9126, (768, 2048) 0.8886, (1536, 768) 1.1466.
  CHECK(bf16.factor(768, 768) == doctest::Approx(0.9126));
  CHECK(bf16.factor(768, 2048) == doctest::Approx(0.8886));
  CHECK(bf16.factor(1536, 768) == 1.0);  // measured faster than the model: the model's rate kept
  // Half-way in log n between 768 and 1536 at k 768: sqrt(0.9126 x 1.1466) = 1.0229 -> 1.
  CHECK(bf16.factor(std::sqrt(768.0 * 1536), 768) == 1.0);
  // Half-way in log k between 768 and 2048 at n 768: sqrt(0.9126 x 0.8886) = 0.90052.
  CHECK(bf16.factor(768, std::sqrt(768.0 * 2048)) == doctest::Approx(std::sqrt(0.9126 * 0.8886)));
  // Held at the grid's edges: n 512 and k 256 take (768, 768)'s ratio.
  CHECK(bf16.factor(512, 256) == doctest::Approx(0.9126));
}

TEST_CASE("gemm shortfall: a compute-bound GEMM's seconds grow by 1 / the factor, a benchmarked rate is untouched") {
  GemmRateModel with = GemmRateModel::of(gpu("h100"), Precision::bf16, 0.6);
  GemmRateModel without = with;
  without.shortfall = nullptr;
  // 16384 x 768 x 2048: compute-bound (2 x 16384 x 768 x 2048 FLOPs against its operands' bytes).
  CHECK(gemm_seconds(with, 1, 16384, 768, 2048) / gemm_seconds(without, 1, 16384, 768, 2048) ==
        doctest::Approx(1 / 0.8886));
  with.shaped = without.shaped = false;  // a benchmark's measured rate: no shape model, no shortfall
  CHECK(gemm_seconds(with, 1, 16384, 768, 2048) == gemm_seconds(without, 1, 16384, 768, 2048));
}
