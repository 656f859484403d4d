#pragma once
/// The training precisions as data (issue 47, item 4): what a precision keeps per parameter
/// (weight, low-precision copies, gradient, optimizer state), what it moves (gathered weights,
/// casts, all-to-all values), what a linear layer caches for its backward and what its GEMMs run
/// at (operand bytes, the GPU catalog's peak). Every figure is in the embedded data file
/// presets/hardware/precisions.toml with its source; the memory model, the step terms and the
/// GEMM model read them from here. Adding a precision: its table there, its enum value here.
#include <array>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"

namespace moeplan {

/// The arithmetic of the linear layers' GEMMs (Transformer Engine's recipe: FP8 forward,
/// data-gradient and weight-gradient GEMMs; attention core and the rest bf16).
enum class Precision { bf16, fp8 };
/// Every precision, in the order of the enum (the data file holds one table of each).
inline constexpr std::array<Precision, 2> k_precisions = {Precision::bf16, Precision::fp8};
const char* to_string(Precision p);
/// "bf16" or "fp8" (case-sensitive, as the flag spells it); nullopt otherwise.
std::optional<Precision> parse_precision(std::string_view text);

/// One precision's bytes (presets/hardware/precisions.toml explains each key and its source).
struct PrecisionSpec {
  Precision precision = Precision::bf16;
  std::string name;               ///< as --precision spells it: the data file's table
  std::string gemm_peak_key;      ///< GPU catalog key of the dense peak: "bf16_dense_tflops"
  double GpuSpec::*gemm_peak = nullptr;  ///< the GpuSpec field that key fills
  double gemm_operand_bytes = 0;  ///< per GEMM input element
  double weight_bytes = 0;        ///< per parameter, the weight kept
  double copy_bytes = 0;          ///< per linear-layer parameter, low-precision copies beside it (0: none)
  double cast_bytes = 0;          ///< HBM bytes per element cast to the GEMM's type (0: no cast)
  double activation_bytes = 0;    ///< per element of a linear layer's input cached for the backward
  double gathered_bytes = 0;      ///< per parameter all-gathered by the distributed optimizer
  double gradient_bytes = 0;      ///< per gradient, kept and reduce-scattered
  double bf16_gradient_bytes = 0; ///< ... with --grad-reduce-in-bf16
  double master_bytes = 0;        ///< the optimizer's master weight
  double moment_bytes = 0;        ///< each of Adam's m and v
  double bf16_moment_bytes = 0;   ///< ... with --bf16-moments
  double all_to_all_bytes = 0;    ///< per value of the all-to-all's bf16 transfers and buffers
  double deepep_dispatch_bytes = 0;  ///< per value of the forward dispatch through DeepEP
  /// The linear layers' weights kept in this precision only (--fp8-param-gather).
  struct ParamGather {
    double weight_bytes = 0;    ///< a linear layer's weight, no bf16 copy
    double copy_bytes = 0;      ///< what is kept beside it (the transpose)
    double gathered_bytes = 0;  ///< all-gathered per linear-layer parameter
  };
  std::optional<ParamGather> param_gather;  ///< nullopt: the precision has no such mode

  /// FLOP/s, `gpu`'s dense peak of this precision (0 where the catalog has none).
  [[nodiscard]] double peak_flops(const GpuSpec& gpu) const { return gpu.*gemm_peak; }
  /// The param-gather mode when the run asks for it and the precision has one, else nullptr.
  [[nodiscard]] const ParamGather* gathers(bool param_gather_flag) const {
    return param_gather_flag && param_gather ? &*param_gather : nullptr;
  }
  /// Bytes per gradient: the main gradient's, or bf16's with --grad-reduce-in-bf16.
  [[nodiscard]] double gradient(bool grad_reduce_in_bf16) const {
    return grad_reduce_in_bf16 ? bf16_gradient_bytes : gradient_bytes;
  }
  /// Bytes of Adam's m or v (one of them).
  [[nodiscard]] double moment(bool bf16_moments) const { return bf16_moments ? bf16_moment_bytes : moment_bytes; }
  /// Optimizer state per parameter: the master weight, m and v (4 + 4 + 4 = 12; 8 with bf16 moments).
  [[nodiscard]] double optimizer_state(bool bf16_moments) const { return master_bytes + 2.0 * moment(bf16_moments); }
  /// Bytes per parameter all-gathered after the step: the linear layers' under param gather.
  [[nodiscard]] double gathered(bool param_gather_flag) const {
    const ParamGather* g = gathers(param_gather_flag);
    return g ? g->gathered_bytes : gathered_bytes;
  }
  /// HBM bytes per parameter of an Adam step (Megatron's distributed optimizer with its fused
  /// multi-tensor Adam and grad-norm kernels, NVIDIA/Megatron-LM d98e8a64 distrib_optimizer.py),
  /// each read or written once, on the fp32 main gradient (4 bytes): the gradient norm reads it
  /// (4); Adam reads it, the master, m and v and writes master, m and v; the weight is written
  /// from the master (read master, write weight): 2 x 4 + 3 master + weight + 4 moments = 38
  /// bytes, 8 fewer with bf16 moments. With --grad-reduce-in-bf16 the reduced bf16 gradient is
  /// first copied to an fp32 main gradient (_copy_model_grads_to_main_grads: .float(), read 2
  /// write 4): 44. Not counted: the next step's zeroing of the gradient buffer, over the rank's
  /// whole buffer before the reduce-scatter, not its shard (param_and_grad_buffer.py reset).
  [[nodiscard]] double adam_step_bytes(bool grad_reduce_in_bf16, bool bf16_moments) const {
    const double to_main = grad_reduce_in_bf16 ? bf16_gradient_bytes + gradient_bytes : 0.0;
    return to_main + 2.0 * gradient_bytes + (3.0 * master_bytes + weight_bytes) + 4.0 * moment(bf16_moments);
  }
};

/// The precisions of a data file, one per enum value.
struct PrecisionSpecs {
  std::array<PrecisionSpec, k_precisions.size()> specs;
  [[nodiscard]] const PrecisionSpec& of(Precision p) const { return specs[static_cast<std::size_t>(p)]; }
};

/// Reads a file in the precisions.toml schema from `text` (`source` names it in errors): a
/// table per precision, every key; errors name the line and the dotted key (a missing key or
/// table, an unknown one, a negative or non-numeric byte count, a peak key the GPU catalog has not).
std::expected<PrecisionSpecs, InputError> read_precision_specs(std::string_view text, const std::string& source);

/// `p`'s description from the embedded presets/hardware/precisions.toml (read once; a malformed
/// preset is a build defect and throws).
const PrecisionSpec& precision_spec(Precision p);

}  // namespace moeplan
