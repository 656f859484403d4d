// The GEMM rate of a shape (docs/step-model.md, include/moeplan/cluster/gemm_rate.hpp): tile,
// wave and pipeline-fill quantization under the ceiling, the HBM roofline, fp8, and what
// they do to a step: finer experts at equal active FLOPs take longer.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/step_time.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {
GemmRateModel bf16() { return GemmRateModel::of(h100_like(), Precision::bf16, 0.6); }
double rate(const GemmRateModel& r, double g, double m, double n, double k) {
  return 2.0 * g * m * n * k / gemm_seconds(r, g, m, n, k);
}
}  // namespace

TEST_CASE("gemm rate: a large well-shaped GEMM runs at the ceiling less the pipeline fill") {
  const GemmRateModel r = bf16();
  // 11 x 128 rows by 12 x 128 columns: one full wave of 132 tiles of 128 x 128; k = 8192
  // against a fill of 4 K-steps of 64 bf16 values; compute-bound (48 MB of operands)
  const double k = 8192;
  CHECK(rate(r, 1, 11 * 128, 12 * 128, k) == doctest::Approx(989e12 * 0.6 * k / (k + 256)));
  CHECK(gemm_shape_factor(r, 1, 11 * 128, 12 * 128, k) == doctest::Approx(k / (k + 256)));
}

TEST_CASE("gemm rate: tile and wave quantization") {
  const GemmRateModel r = bf16();
  // one row past a tile: the edge tiles compute 129 of 256 rows
  CHECK(gemm_shape_factor(r, 1, 129, 128 * 132, 1e9) ==
        doctest::Approx(129.0 / 256.0 * (132 * 2.0) / (264.0)).epsilon(1e-6));
  // one tile past a wave: two waves for 133 tiles
  CHECK(gemm_shape_factor(r, 1, 128, 128 * 133, 1e9) == doctest::Approx(133.0 / 264.0).epsilon(1e-6));
  // a grouped GEMM schedules all groups' tiles together: 132 groups of one tile fill a wave
  CHECK(gemm_shape_factor(r, 132, 128, 128, 1e9) == doctest::Approx(1.0).epsilon(1e-6));
  // without an SM count waves are not modelled
  GemmRateModel no_sms = r;
  no_sms.sms = 0;
  CHECK(gemm_shape_factor(no_sms, 1, 128, 128 * 133, 1e9) == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("gemm rate: the achieved HBM fraction is the one measured on the H200") {
  // docs/measurements/h200-2026-11-26/sweep.csv, the 1 GiB copy row (bytes/s), over the H200's 4.8 TB/s
  std::ifstream in(MOEPLAN_TEST_DATA_DIR "/../../docs/measurements/h200-2026-11-26/sweep.csv");
  REQUIRE(in);
  double copy = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("copy,", 0) == 0) copy = std::stod(line.substr(line.rfind(',') + 1));
  }
  REQUIRE(copy > 0);
  CHECK(k_hbm_efficiency == doctest::Approx(copy / 4.8e12).epsilon(0.01));
}

TEST_CASE("gemm rate: HBM bounds a GEMM of low arithmetic intensity") {
  const GemmRateModel r = bf16();
  // 16384 rows reduced over 16384 into 128 columns: 128 FLOPs per operand value (2 bytes), under
  // the H100's 989e12 x 0.6 / 2.85e12 = 208 FLOPs per byte: moving the operands takes longer
  const double m = 16384, n = 128, k = 16384;
  const double bytes = (m * k + k * n) * 2 + m * n * 2;
  CHECK(gemm_seconds(r, 1, m, n, k) == doctest::Approx(bytes / (3.35e12 * k_hbm_efficiency)));
  // 8 rows against a 7168 x 7168 weight: a few percent of the peak either way
  CHECK(gemm_seconds(r, 1, 8, 7168, 7168) >= ((8.0 * 7168 + 7168.0 * 7168) * 2) / (3.35e12 * k_hbm_efficiency));
  CHECK(rate(r, 1, 8, 7168, 7168) < 0.05 * 989e12);
}

TEST_CASE("gemm rate: fp8 doubles the ceiling of a large GEMM, and halves its operand bytes") {
  const GemmRateModel b = bf16();
  const GemmRateModel f = GemmRateModel::of(h100_like(), Precision::fp8, 0.6);
  CHECK(f.peak == 1979e12);
  CHECK(f.operand_bytes == 1);
  const double big_b = rate(b, 1, 16384, 16384, 16384), big_f = rate(f, 1, 16384, 16384, 16384);
  CHECK(big_f / big_b > 1.9);
  CHECK(big_f / big_b < 2.0);  // fp8's fill is 128 values deep, bf16's 64
  // training = forward + data gradient + weight gradient
  CHECK(training_gemm_seconds(b, 2, 512, 1024, 4096) ==
        doctest::Approx(gemm_seconds(b, 2, 512, 1024, 4096) + gemm_seconds(b, 2, 512, 4096, 1024) +
                        gemm_seconds(b, 2, 1024, 4096, 512)));
  CHECK(parse_precision("fp8") == Precision::fp8);
  CHECK(parse_precision("bf16") == Precision::bf16);
  CHECK_FALSE(parse_precision("FP8").has_value());
  CHECK_FALSE(parse_precision("fp16").has_value());
}

TEST_CASE("cluster step time: finer experts at equal active FLOPs take longer, and fp8 is faster") {
  // the same active expert FLOPs per token: 16 experts of 4f top-2 against 256 of f/4 top-32
  // on 8 GPUs, EP 8: the fine ones get 16x fewer rows each, thinner GEMMs and 16x the
  // permuted copies
  ModelConfig coarse = moe_model(24, 16);
  coarse.num_experts_per_tok = 2;
  coarse.moe_intermediate_size = 2048;
  ModelConfig fine = moe_model(24, 256);
  fine.num_experts_per_tok = 32;
  fine.moe_intermediate_size = 128;
  const ParameterCounts pc = count_parameters(coarse), pf = count_parameters(fine);
  REQUIRE(pc.routed_active.value() == doctest::Approx(pf.routed_active.value()));
  StepTimeOptions o;
  o.seq_len = 4096;
  ParallelLayout l = layout_of(8, 1, 1, 8);
  l.global_batch = 64;
  const StepTime tc = step_time(coarse, pc, cluster_of(8), l, o);
  const StepTime tf = step_time(fine, pf, cluster_of(8), l, o);
  CHECK(tf.seconds_of("gemm") > tc.seconds_of("gemm"));
  CHECK(tf.seconds_of("memory_bound") > 3 * tc.seconds_of("memory_bound"));
  CHECK(tf.seconds_of("all_to_all") > 10 * tc.seconds_of("all_to_all"));
  CHECK(tf.step_seconds > 1.5 * tc.step_seconds);
  // fp8: faster GEMMs, an all-to-all whose forward dispatch is half the bytes, more memory-bound
  // work (the casts)
  StepTimeOptions f8 = o;
  f8.precision = Precision::fp8;
  const StepTime t8 = step_time(coarse, pc, cluster_of(8), l, f8);
  CHECK(t8.seconds_of("gemm") < 0.65 * tc.seconds_of("gemm"));
  CHECK(t8.seconds_of("attention") == doctest::Approx(tc.seconds_of("attention")));  // bf16 either way
  CHECK(t8.seconds_of("all_to_all") < tc.seconds_of("all_to_all"));
  CHECK(t8.seconds_of("memory_bound") > tc.seconds_of("memory_bound"));
  CHECK(t8.mfu > tc.mfu);  // MFU against the bf16 peak
}
