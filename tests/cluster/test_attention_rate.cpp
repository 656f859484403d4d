// src/cluster/attention_rate.cpp: the attention core's measured rates (presets/hardware/
// attention_rates.toml: FlashAttention-3's Fig. 5 and 6, cuDNN on an H100 SXM5) and the step's
// attention term at them (docs/step-model.md, "The attention core"). Numbers by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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
}  // namespace

TEST_CASE("attention rates: cuDNN on an H100 at S 4096, head dim 128, as measured") {
  const auto r = attention_rates(h100_sxm(), 4096, 128);
  REQUIRE(r.has_value());
  // Fig. 5, forward, hd 128, 4k: 518 TFLOP/s causal, 609 without the mask; Fig. 6, backward
  // without the mask, 499; the causal backward 499 x 518 / 609 = 424.4.
  CHECK(r->forward_causal == doctest::Approx(518e12));
  CHECK(r->forward_full == doctest::Approx(609e12));
  CHECK(r->backward_full == doctest::Approx(499e12));
  CHECK(r->backward_causal == doctest::Approx(499e12 * 518.0 / 609.0));
  CHECK(r->kernel.find("cuDNN") != std::string_view::npos);
}

TEST_CASE("attention rates: linear in log2 S and log2 head dim between the table's points") {
  const GpuSpec g = h100_sxm();
  // halfway (in log2) between 2k and 4k at hd 128: (484 + 518) / 2 = 501
  CHECK(attention_rates(g, std::sqrt(2048.0 * 4096.0), 128)->forward_causal == doctest::Approx(501e12));
  // halfway between hd 64 and 128 at 4k: causal forward (363 + 518) / 2, full forward
  // (408 + 609) / 2, full backward (417 + 499) / 2, the causal backward from those three
  const auto mid = attention_rates(g, 4096, std::sqrt(64.0 * 128.0));
  CHECK(mid->forward_causal == doctest::Approx(440.5e12));
  CHECK(mid->forward_full == doctest::Approx(508.5e12));
  CHECK(mid->backward_full == doctest::Approx(458e12));
  CHECK(mid->backward_causal == doctest::Approx(458.0 * 440.5 / 508.5 * 1e12));
}

TEST_CASE("attention rates: above hd 128 the backward follows the causal forward, and outside the table the nearest point") {
  const GpuSpec g = h100_sxm();
  // hd 256 at 4k: causal forward 483 (Fig. 5); the rest hd 128's times 483 / 518
  const auto h256 = attention_rates(g, 4096, 256);
  CHECK(h256->forward_causal == doctest::Approx(483e12));
  CHECK(h256->backward_full == doctest::Approx(499.0 * 483 / 518 * 1e12));
  CHECK(h256->forward_full == doctest::Approx(609.0 * 483 / 518 * 1e12));
  CHECK(h256->backward_causal == doctest::Approx(499.0 * 483 / 609 * 1e12));
  // past 16k and above hd 256: hd 256 at 16k (509), the backward 516 x 509 / 595
  const auto big = attention_rates(g, 131072, 512);
  CHECK(big->forward_causal == doctest::Approx(509e12));
  CHECK(big->backward_causal == doctest::Approx(516.0 * 509 / 595 * 1e12));
  // below 512 and below hd 64: the first point, 225 and 266 x 225 / 335
  const auto small = attention_rates(g, 128, 32);
  CHECK(small->forward_causal == doctest::Approx(225e12));
  CHECK(small->backward_causal == doctest::Approx(266.0 * 225 / 335 * 1e12));
  // nothing odd comes out of odd inputs: the first point
  CHECK(attention_rates(g, 0, 0)->forward_causal == doctest::Approx(225e12));
  CHECK(attention_rates(g, std::nan(""), std::nan(""))->backward_causal == doctest::Approx(266.0 * 225 / 335 * 1e12));
}

TEST_CASE("attention rates: another GH100 part takes the measured fraction of its own peak, an unlisted GPU has none") {
  GpuSpec pcie = h100_sxm();
  pcie.id = "h100-pcie";
  pcie.bf16_dense_flops = 756.5e12;
  CHECK(attention_rates(pcie, 4096, 128)->forward_causal == doctest::Approx(518.0 / 989.5 * 756.5e12));
  for (const char* id : {"b200", "a100-80gb", "mi300x", "h20", "h100-test"}) {
    GpuSpec other = h100_sxm();
    other.id = id;
    CHECK_FALSE(attention_rates(other, 4096, 128).has_value());
  }
}

TEST_CASE("attention core seconds: forward and 2.5 forwards' worth of backward, causal and unmasked shares") {
  CHECK(attention_causal_share(1) == 1.0);
  CHECK(attention_causal_share(2) == 0.25);  // 2 of 8 chunk-pair units diagonal, half masked
  CHECK(attention_causal_share(4) == 0.125);
  double forward = 0;
  // 3e12 FLOPs of Eq. 11 = 1e12 forward: 1 s forward at 1e12, 2.5e12 FLOPs backward at 1e12
  const AttentionRates ones{1e12, 1e12, 1e12, 1e12, ""};
  CHECK(attention_core_seconds(3e12, ones, 1.0, &forward) == doctest::Approx(3.5));
  CHECK(forward == doctest::Approx(1.0));
  // a quarter causal at 1e12, the rest unmasked at 2e12: forward 0.25 + 0.375, backward 2.5x that
  const AttentionRates halves{1e12, 1e12, 2e12, 2e12, ""};
  CHECK(attention_core_seconds(3e12, halves, 0.25, &forward) == doctest::Approx(0.625 * 3.5));
  CHECK(forward == doctest::Approx(0.625));
  // a zero rate takes forever, never zero seconds
  CHECK(std::isinf(attention_core_seconds(3e12, AttentionRates{0, 1e12, 1e12, 1e12, ""}, 1.0)));
}

TEST_CASE("cluster step time: the attention term at the measured kernel, and a recompute re-runs its forward") {
  // The same dense model (hd 128, S 4096) on an H100 the table lists and on one it does not:
  // the unlisted one runs the core at the GEMM ceiling, 0.6 x 989.5 TFLOP/s, which gives F.
  const ModelConfig m = dense_model();
  StepTimeOptions o;
  o.seq_len = k_seq_len;
  GpuSpec unlisted = h100_sxm();
  unlisted.id = "h100-test";
  const auto both = [&](ParallelLayout l) {
    l.global_batch = 64;
    return std::pair{step_time(m, count_parameters(m), cluster_of(8, unlisted), l, o),
                     step_time(m, count_parameters(m), cluster_of(8, h100_sxm()), l, o)};
  };
  ParallelLayout l = layout_of(8, 1, 1);
  l.recompute = Recompute::selective;  // Megatron's default module: the attention core
  {
    const auto [at_ceiling, measured] = both(l);
    const double F = at_ceiling.seconds_of("attention") * 989.5e12 * 0.6;  // Eq. 11's FLOPs per GPU
    const double fwd = 518e12, bwd = 499e12 * 518 / 609;
    CHECK(measured.seconds_of("attention") == doctest::Approx(F / 3 / fwd + 2.5 * F / 3 / bwd));
    CHECK(measured.seconds_of("recompute") == doctest::Approx(F / 3 / fwd));
    CHECK(at_ceiling.seconds_of("recompute") == doctest::Approx(at_ceiling.seconds_of("attention") / 3));
    CHECK(measured.seconds_of("gemm") == doctest::Approx(at_ceiling.seconds_of("gemm")));
    CHECK(detail_of(measured, "attention").find("causal forward at 518 and backward at 424 TFLOP/s") !=
          std::string::npos);
  }
  l.recompute = Recompute::full;  // every layer's forward again: the core's forward part
  {
    const auto [at_ceiling, measured] = both(l);
    const double F = at_ceiling.seconds_of("attention") * 989.5e12 * 0.6;
    CHECK(measured.seconds_of("recompute") ==
          doctest::Approx((measured.seconds_of("gemm") + measured.seconds_of("memory_bound")) / 3 + F / 3 / 518e12));
  }
  ParallelLayout cp = layout_of(8, 1, 1, 1, 1, 2);  // CP 2: S/CP = 2048, a quarter of the work causal
  cp.recompute = Recompute::none;
  {
    const auto [at_ceiling, measured] = both(cp);
    const double F = at_ceiling.seconds_of("attention") * 989.5e12 * 0.6;
    const double fc = 484e12, ff = 617e12, bf = 465e12, bc = 465e12 * 484 / 617;  // Fig. 5-6 at 2k
    CHECK(measured.seconds_of("attention") ==
          doctest::Approx(F / 3 * (0.25 / fc + 0.75 / ff) + 2.5 * F / 3 * (0.25 / bc + 0.75 / bf)));
    CHECK(detail_of(measured, "attention").find("kernel at 2048 tokens (S/CP)") != std::string::npos);
  }
}

TEST_CASE("cluster step time: --attention-efficiency scales the attention core's rates, measured or at the ceiling") {
  const ModelConfig m = dense_model();
  ParallelLayout l = layout_of(8, 1, 1);
  l.global_batch = 64;
  l.recompute = Recompute::none;
  GpuSpec unlisted = h100_sxm();
  unlisted.id = "h100-test";
  for (const GpuSpec& g : {h100_sxm(), unlisted}) {
    CAPTURE(g.id);
    StepTimeOptions o;
    o.seq_len = k_seq_len;
    const StepTime full = step_time(m, count_parameters(m), cluster_of(8, g), l, o);
    o.attention_efficiency = 0.5;
    const StepTime half = step_time(m, count_parameters(m), cluster_of(8, g), l, o);
    CHECK(half.seconds_of("attention") == doctest::Approx(2 * full.seconds_of("attention")));
    CHECK(half.seconds_of("gemm") == doctest::Approx(full.seconds_of("gemm")));
  }
}
