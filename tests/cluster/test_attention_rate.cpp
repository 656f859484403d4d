// src/cluster/attention_rate.cpp: the attention core's measured rates (presets/hardware/
// attention_rates.toml: FlashAttention-3's Fig. 5 and 6, cuDNN on an H100 SXM5) and the step's
// attention term at them (docs/step-model.md, "The attention core"). Numbers by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "cluster/cluster_fixtures.hpp"
#include "cluster/step_fixtures.hpp"
#include "moeplan/cluster/attention_rate.hpp"
#include "moeplan/cluster/step_time.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {
// An H100 SXM5 as the table's measurement: its catalog id and its 989.5 TFLOP/s peak.
GpuSpec h100_sxm() {
  GpuSpec g = h100_like();
  g.id = "h100-sxm";
  g.bf16_dense_flops = 989.5e12;
  return g;
}
// The step model's GEMM clocks against the microbenchmark's: --gemm-efficiency 0.6 over the
// measured 0.79 of the peak.
constexpr double k_clocks = 0.6 / 0.79;
}  // namespace

TEST_CASE("attention rates: cuDNN on an H100 at S 4096, head dim 128, at the GEMMs' clocks") {
  const auto r = attention_rates(h100_sxm(), 4096, 128, 989.5e12 * 0.6);
  REQUIRE(r.has_value());
  // Fig. 5, causal forward, hd 128, 4k: 518 TFLOP/s.
  CHECK(r->forward == doctest::Approx(518e12 * k_clocks));
  // Fig. 6 publishes the backward without the mask, 499; the causal one is 499 x 518 / 609
  // (the causal over the full forward at the same S): 424.4 TFLOP/s.
  CHECK(r->backward == doctest::Approx(499e12 * 518.0 / 609.0 * k_clocks));
  CHECK(r->kernel.find("cuDNN") != std::string::npos);
}

TEST_CASE("attention rates: linear in log2 S and log2 head dim between the table's points, clamped outside") {
  const GpuSpec g = h100_sxm();
  const double ceiling = 989.5e12 * 0.79;  // k_clocks = 1: the table's own TFLOP/s
  // halfway (in log2) between 2k and 4k at hd 128: (484 + 518) / 2 = 501
  CHECK(attention_rates(g, std::sqrt(2048.0 * 4096.0), 128, ceiling)->forward == doctest::Approx(501e12));
  // halfway between hd 64 and 128 at 4k: (363 + 518) / 2 = 440.5 forward; backward the mean of
  // 417 x 363 / 408 and 499 x 518 / 609
  const auto mid = attention_rates(g, 4096, std::sqrt(64.0 * 128.0), ceiling);
  CHECK(mid->forward == doctest::Approx(440.5e12));
  CHECK(mid->backward == doctest::Approx((417.0 * 363 / 408 + 499.0 * 518 / 609) / 2 * 1e12));
  // past 16k: the 16k column; above hd 256: hd 256's forward (509), hd 128's backward (no
  // published backward above it): 516 x 539 / 595
  const auto big = attention_rates(g, 131072, 512, ceiling);
  CHECK(big->forward == doctest::Approx(509e12));
  CHECK(big->backward == doctest::Approx(516.0 * 539 / 595 * 1e12));
  // below 512 and below hd 64: the first point, 225 and 266 x 225 / 335
  const auto small = attention_rates(g, 128, 32, ceiling);
  CHECK(small->forward == doctest::Approx(225e12));
  CHECK(small->backward == doctest::Approx(266.0 * 225 / 335 * 1e12));
}

TEST_CASE("attention rates: a GPU of the same die takes the fraction of its own peak, an unlisted one has none") {
  GpuSpec h20 = h100_sxm();
  h20.id = "h20";
  h20.bf16_dense_flops = 148e12;
  CHECK(attention_rates(h20, 4096, 128, 148e12 * 0.6)->forward == doctest::Approx(518.0 / 989.5 * 148e12 * k_clocks));
  GpuSpec b200 = h100_sxm();
  b200.id = "b200";
  CHECK_FALSE(attention_rates(b200, 4096, 128, 2250e12 * 0.6).has_value());
  CHECK_FALSE(attention_rates(h100_like(), 4096, 128, 989e12 * 0.6).has_value());  // "h100-test"
}

TEST_CASE("attention core seconds: the forward third at its rate, the backward 2.5 forwards' worth at its own") {
  double forward = 0;
  // 3e12 FLOPs of Eq. 11 = 1e12 forward: 1 s forward at 1e12, 2.5e12 FLOPs backward at 1e12
  CHECK(attention_core_seconds(3e12, AttentionRates{1e12, 1e12, ""}, &forward) == doctest::Approx(3.5));
  CHECK(forward == doctest::Approx(1.0));
  CHECK(attention_core_seconds(3e12, AttentionRates{2e12, 5e12, ""}) == doctest::Approx(0.5 + 0.5));
}

TEST_CASE("cluster step time: the attention term at the measured kernel, and a recompute re-runs its forward") {
  // The same dense model (hd 128, S 4096) on an H100 the table lists and on one it does not:
  // the unlisted one runs the core at the GEMM ceiling, 0.6 x 989.5 TFLOP/s.
  const ModelConfig m = dense_model();
  ParallelLayout l = layout_of(8, 1, 1);
  l.global_batch = 64;
  l.recompute = Recompute::selective;  // Megatron's default module: the attention core
  StepTimeOptions o;
  o.seq_len = k_seq_len;
  GpuSpec unlisted = h100_sxm();
  unlisted.id = "h100-test";
  const StepTime at_ceiling = step_time(m, count_parameters(m), cluster_of(8, unlisted), l, o);
  const StepTime measured = step_time(m, count_parameters(m), cluster_of(8, h100_sxm()), l, o);
  const double F = at_ceiling.seconds_of("attention") * 989.5e12 * 0.6;  // Eq. 11's FLOPs per GPU
  const double fwd = 518e12 * k_clocks, bwd = 499e12 * 518 / 609 * k_clocks;
  CHECK(measured.seconds_of("attention") == doctest::Approx(F / 3 / fwd + 2.5 * F / 3 / bwd));
  CHECK(measured.seconds_of("recompute") == doctest::Approx(F / 3 / fwd));
  CHECK(at_ceiling.seconds_of("recompute") == doctest::Approx(at_ceiling.seconds_of("attention") / 3));
  CHECK(measured.seconds_of("gemm") == doctest::Approx(at_ceiling.seconds_of("gemm")));
  CHECK(detail_of(measured, "attention").find("causal forward at 393 and backward at 322 TFLOP/s") != std::string::npos);
}
