#pragma once
/// How a checkpoint stores its linear weights: config.json's `quantization_config`, read by
/// src/io/hf_quantization.cpp (docs/serving.md "Served weights"). It changes no count: the
/// serving section serves the weights as stored when --serve-weights is not given.
#include <string>

namespace moeplan {

struct CheckpointStorage {
  /// quant_method as the file writes it: "mxfp4", "fp8", "compressed-tensors", "awq", "gptq".
  std::string method;
  /// One line for the serving notes: what is quantized, how, and what stays bf16.
  std::string description;
  /// false: a quant_method moeplan does not read; serving refuses it by name (--serve-weights
  /// then says how the weights are stored). `description` says why.
  bool known = true;
  /// Bytes per weight, values and scales (and zero points) together; 2: kept in bf16.
  double routed = 2;     ///< routed experts
  double attention = 2;  ///< attention and linear-mixer projections
  double dense = 2;      ///< dense FFNs
  double shared = 2;     ///< shared experts
  /// The routed experts are MXFP4 (4-bit E2M1 values, an E8M0 scale per 32): an engine may
  /// pad their shapes to its kernels' tiles when it loads them (serving).
  bool mxfp4_experts = false;
  /// W8A8 in fp8 (the activations quantized too): FP8 tensor cores do the math where the GPU
  /// has them; every other method here is weight-only (bf16 math).
  bool fp8_math = false;
  /// fp8 weight_block_size [n, k]: one scale per n x k block; 0 without blocks. vLLM and SGLang
  /// refuse to load a tensor-parallel shard whose sizes are not multiples of them (fp8.py).
  int block_n = 0;
  int block_k = 0;
  bool operator==(const CheckpointStorage&) const = default;
};

}  // namespace moeplan
