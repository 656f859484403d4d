// The training precisions as data (presets/hardware/precisions.toml, precision_spec.hpp): the
// embedded description holds the published bytes (each expectation below is restated from its
// source by hand, not read back from the file), and a malformed file is refused with its key.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/base/presets.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/cluster/precision_spec.hpp"

using namespace moeplan;

namespace {

std::string embedded_precisions() { return std::string(find_embedded_preset("hardware/precisions.toml").value()); }

/// The embedded text with the first `from` after `section` replaced by `to`.
std::string edited(const std::string& section, const std::string& from, const std::string& to) {
  std::string text = embedded_precisions();
  const std::size_t at = text.find(from, text.find(section));
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

InputError refused(const std::string& text) {
  const auto specs = read_precision_specs(text, "precisions.toml");
  REQUIRE_FALSE(specs.has_value());
  return specs.error();
}

}  // namespace

TEST_CASE("precision spec: bf16 is Megatron-LM's mixed precision, 2 + 4 + 12 = 18 bytes a parameter") {
  const PrecisionSpec& b = precision_spec(Precision::bf16);
  CHECK(b.name == "bf16");
  // theoretical_memory_usage.py: bf16 weight 2, fp32 gradient 4, fp32 master + Adam m + v 12.
  CHECK(b.weight_bytes == 2);
  CHECK(b.gradient(false) == 4);
  CHECK(b.optimizer_state(false) == 4 + 4 + 4);
  CHECK(b.weight_bytes + b.gradient(false) + b.optimizer_state(false) == 18);
  // --grad-reduce-in-bf16: a bf16 gradient, 2 bytes; --bf16-moments: master 4 + m 2 + v 2.
  CHECK(b.gradient(true) == 2);
  CHECK(b.optimizer_state(true) == 4 + 2 + 2);
  // No fp8 copies, no casts, no fp8-only weights: --fp8-param-gather has nothing to act on.
  CHECK(b.copy_bytes == 0);
  CHECK(b.cast_bytes == 0);
  CHECK_FALSE(b.param_gather.has_value());
  CHECK(b.gathers(true) == nullptr);
  CHECK(b.gathered(true) == 2);
  // 16-bit GEMM operands and cached linear inputs; the all-to-all in bf16 whatever the dispatcher.
  CHECK(b.gemm_operand_bytes == 2);
  CHECK(b.activation_bytes == 2);
  CHECK(b.all_to_all_bytes == 2);
  CHECK(b.deepep_dispatch_bytes == 2);
  CHECK(b.gemm_peak_key == "bf16_dense_tflops");
}

TEST_CASE("precision spec: fp8 is Transformer Engine's recipe, the optimizer unchanged") {
  const PrecisionSpec& f = precision_spec(Precision::fp8);
  CHECK(f.name == "fp8");
  // The bf16 weight kept, an fp8 copy and its transpose beside it: 1 + 1 (TransformerEngine#1764).
  CHECK(f.weight_bytes == 2);
  CHECK(f.copy_bytes == 1 + 1);
  // A cast reads 2 bytes and writes 1 and its transpose 1.
  CHECK(f.cast_bytes == 2 + 1 + 1);
  CHECK(f.gemm_operand_bytes == 1);
  CHECK(f.activation_bytes == 1);
  // Gradients and optimizer as bf16's.
  CHECK(f.gradient(false) == 4);
  CHECK(f.gradient(true) == 2);
  CHECK(f.optimizer_state(false) == 12);
  CHECK(f.optimizer_state(true) == 8);
  // DeepEP's fp8 dispatch: 1 byte a value and a 4-byte scale per 128 values; NCCL's in bf16.
  CHECK(f.deepep_dispatch_bytes == 1.0 + 4.0 / 128.0);
  CHECK(f.all_to_all_bytes == 2);
  // --fp8-param-gather: the linear weight in fp8 only (1), its transpose (1), gathered in fp8 (1).
  REQUIRE(f.param_gather.has_value());
  CHECK(f.param_gather->weight_bytes == 1);
  CHECK(f.param_gather->copy_bytes == 1);
  CHECK(f.gathered(true) == 1);
  CHECK(f.gathered(false) == 2);
  CHECK(f.gemm_peak_key == "fp8_dense_tflops");
}

TEST_CASE("precision spec: the Adam step moves 38 bytes a parameter, 44 from bf16 gradients, 8 fewer in bf16 moments") {
  // Gradient norm reads the fp32 main gradient (4); Adam reads it, master, m, v (4 + 12) and
  // writes master, m, v (12); the bf16 weight is written from the master (read 4, write 2):
  // 2 x 4 + 4 + 4 + 4 + 2 + 4 x 4 = 38. A bf16-reduced gradient is copied to fp32 first
  // (read 2, write 4): 44. Moments in bf16: 4 x 2 instead of 4 x 4, 8 fewer.
  for (Precision p : k_precisions) {
    const PrecisionSpec& s = precision_spec(p);
    CHECK(s.adam_step_bytes(false, false) == 38);
    CHECK(s.adam_step_bytes(true, false) == 44);
    CHECK(s.adam_step_bytes(false, true) == 30);
    CHECK(s.adam_step_bytes(true, true) == 36);
  }
}

TEST_CASE("precision spec: the peak is the catalog figure its key names") {
  const GpuSpec* h100 = embedded_gpu_catalog().find("h100");
  const GpuSpec* a100 = embedded_gpu_catalog().find("a100");
  REQUIRE(h100 != nullptr);
  REQUIRE(a100 != nullptr);
  // NVIDIA H100 SXM5 datasheet: 989.5 TFLOP/s dense bf16, 1979 dense fp8; the A100 has no fp8.
  CHECK(precision_spec(Precision::bf16).peak_flops(*h100) == doctest::Approx(989.5e12));
  CHECK(precision_spec(Precision::fp8).peak_flops(*h100) == doctest::Approx(1979e12));
  CHECK(dense_peak(*h100, Precision::fp8) == precision_spec(Precision::fp8).peak_flops(*h100));
  CHECK(precision_spec(Precision::fp8).peak_flops(*a100) == 0);
  CHECK((gpu_peak_field("fp8_dense_tflops") == &GpuSpec::fp8_dense_flops));
  CHECK((gpu_peak_field("fp16_dense_tflops") == nullptr));
  // The GEMM model's operand bytes are the precision's.
  CHECK(GemmRateModel::of(*h100, Precision::fp8, 0.7).operand_bytes == 1);
  CHECK(GemmRateModel::of(*h100, Precision::bf16, 0.7).operand_bytes == 2);
}

TEST_CASE("precision spec: names parse and print as --precision spells them") {
  for (Precision p : k_precisions) CHECK(parse_precision(to_string(p)) == p);
  CHECK_FALSE(parse_precision("fp4").has_value());
}

TEST_CASE("precision spec: the embedded file reads back as the preset") {
  const auto specs = read_precision_specs(embedded_precisions(), "precisions.toml");
  REQUIRE(specs.has_value());
  CHECK(specs->of(Precision::fp8).cast_bytes == precision_spec(Precision::fp8).cast_bytes);
  CHECK(specs->of(Precision::bf16).precision == Precision::bf16);
}

TEST_CASE("precision spec: a malformed file is refused with its key") {
  SUBCASE("a missing key") {
    const InputError e = refused(edited("[fp8]", "master_bytes = 4\n", ""));
    CHECK(e.key == "fp8.master_bytes");
    CHECK(e.reason.find("missing") != std::string::npos);
    CHECK(e.source == "precisions.toml");
  }
  SUBCASE("negative bytes") {
    const InputError e = refused(edited("[bf16]", "copy_bytes = 0", "copy_bytes = -1"));
    CHECK(e.key == "bf16.copy_bytes");
    CHECK(e.reason.find(">= 0") != std::string::npos);
    CHECK(e.line > 0);
  }
  SUBCASE("zero where a value is needed") {
    const InputError e = refused(edited("[fp8]", "gemm_operand_bytes = 1", "gemm_operand_bytes = 0"));
    CHECK(e.key == "fp8.gemm_operand_bytes");
  }
  SUBCASE("bytes that are not a number") {
    const InputError e = refused(edited("[fp8.param_gather]", "gathered_bytes = 1", "gathered_bytes = \"1\""));
    CHECK(e.key == "fp8.param_gather.gathered_bytes");
  }
  SUBCASE("a peak the GPU catalog does not have") {
    const InputError e = refused(edited("[fp8]", "\"fp8_dense_tflops\"", "\"fp16_dense_tflops\""));
    CHECK(e.key == "fp8.gemm_peak_key");
    CHECK(e.reason.find("fp16_dense_tflops") != std::string::npos);
  }
  SUBCASE("an unknown key") {
    const InputError e = refused(edited("[bf16]", "cast_bytes = 0", "cast_bytes = 0\nkast_bytes = 0"));
    CHECK(e.key == "bf16.kast_bytes");
  }
  SUBCASE("a precision missing") {
    const std::string text = embedded_precisions();
    const InputError e = refused(text.substr(0, text.find("[fp8]")));
    CHECK(e.key == "fp8");
  }
}
