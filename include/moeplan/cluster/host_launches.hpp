#pragma once
/// What the host issues per layer and micro-batch of a Megatron-Core step, and what CUDA
/// graphs take off it (issue 48, "host time"; docs/step-model.md): the embedded data file
/// presets/hardware/host_launches.toml (engineering counts read from Megatron-Core 0.20's code
/// path, the per-call host seconds measured or published, each cited there) and Megatron's
/// --cuda-graph-impl / --cuda-graph-scope (--cuda-graph-modules since 0.20) with its rules.
#include <optional>
#include <string>
#include <vector>
#include <string_view>

namespace moeplan {

/// One region's calls per layer (or per micro-batch, for the embedding and the head).
struct HostRegion {
  double python_ops_forward = 0, launches_forward = 0;
  double python_ops_backward = 0, launches_backward = 0;
  double launches_forward_per_local_expert = 0, launches_backward_per_local_expert = 0;
  double host_syncs_forward = 0;  ///< device-to-host synchronizations (the dropless dispatcher's)
};

struct HostLaunches {
  std::string megatron_core;   ///< the version the counts are read from
  double python_op_seconds = 0;  ///< one Python call that launches a kernel (measured, an upper bound)
  double launch_seconds = 0;     ///< one more kernel issued from C++ (published)
  HostRegion attn, mlp, moe_router, shared_experts, moe_preprocess, moe, embedding, head;
  /// Gated attention's output gate (--attention-output-gate), in attn's graph scope.
  HostRegion attn_output_gate;
};

/// The embedded file, read once (a malformed one is a build defect and throws).
const HostLaunches& megatron_host_launches();

/// Megatron-LM's --cuda-graph-impl (megatron/core/transformer/transformer_config.py,
/// cuda_graph_impl, 0.20): none, per-layer graphs ("local": MCore's CudaGraphManager;
/// "transformer_engine": TE's make_graphed_callables), or the whole forward-backward
/// ("full_iteration"; before 0.20, --cuda-graph-impl local --cuda-graph-scope full_iteration).
enum class CudaGraphImpl { none, local, transformer_engine, full_iteration };
const char* to_string(CudaGraphImpl impl);
std::optional<CudaGraphImpl> parse_cuda_graph_impl(std::string_view text);
/// Every impl's name, in Megatron's order: the flag's choices (one list with to_string).
std::vector<std::string> cuda_graph_impl_names();

/// The per-layer capture regions (Megatron's CudaGraphModule), a bit set; empty with a
/// per-layer impl captures the whole layer.
enum CudaGraphModule : unsigned {
  cuda_graph_attn = 1u << 0,
  cuda_graph_mlp = 1u << 1,
  cuda_graph_moe = 1u << 2,
  cuda_graph_moe_router = 1u << 3,
  cuda_graph_moe_preprocess = 1u << 4,
};
/// One scope name: a region, or Megatron's deprecated "full" (the whole layer: no bit) and
/// "full_iteration" (an impl, not a region: returned as the flag k_cuda_graph_full_iteration).
inline constexpr unsigned k_cuda_graph_full_iteration = 1u << 8;
std::optional<unsigned> parse_cuda_graph_module(std::string_view name);
/// The set as Megatron spells it, names separated by `sep` ("" for an empty set).
std::string cuda_graph_modules_string(unsigned modules, std::string_view sep = " ");

/// What the graphs capture, as the step model uses it.
struct CudaGraphs {
  CudaGraphImpl impl = CudaGraphImpl::none;
  unsigned modules = 0;  ///< CudaGraphModule bits; 0 with a per-layer impl: the whole layer
  [[nodiscard]] bool per_layer() const {
    return impl == CudaGraphImpl::local || impl == CudaGraphImpl::transformer_engine;
  }
  /// Whether `region`'s kernels are inside a graph. The whole-layer capture (no module named)
  /// leaves a dropless MoE layer's experts out: their shapes change every step ("moe cuda
  /// graph is only supported with drop-padding MoE", transformer_config.py), and moeplan
  /// models dropless MoE only. full_iteration captures everything.
  [[nodiscard]] bool captures(CudaGraphModule region) const {
    if (impl == CudaGraphImpl::full_iteration) return true;
    if (!per_layer()) return false;
    if (modules == 0) return region != cuda_graph_moe;
    return (modules & region) != 0;
  }
};

}  // namespace moeplan
