#pragma once
/// The accelerators a plan can be fitted onto: datasheet figures, each with its source.
/// The catalog is the embedded preset presets/hardware/gpus.toml; a user's TOML file in the
/// same schema (`--gpu-catalog FILE`) adds devices or replaces them by id (docs/cluster.md).
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"

namespace moeplan {

/// One accelerator kind. Bandwidths are per GPU and per direction, in bytes/s.
/// The most GPUs one NVLink/xGMI domain holds, for --gpus-per-node and a catalog's
/// gpus_per_node alike (an engineering bound: the largest NVLink domain built, the GB200 NVL576
/// design, has 576; a larger figure is a slip).
inline constexpr int k_max_gpus_per_node = 1024;

struct GpuSpec {
  std::string id;                     ///< catalog key, lower case: "h100-sxm", "mi300x"
  std::string name;                   ///< as the vendor writes it: "NVIDIA H100 SXM5 80GB"
  /// Other names find() accepts ("h100" for "h100-sxm"), lower case; `aliases = [...]` in the
  /// TOML, optional. An alias never shadows another GPU's id.
  std::vector<std::string> aliases;
  double bf16_dense_flops = 0;        ///< FLOP/s, dense bf16 tensor-core peak (no sparsity)
  double fp8_dense_flops = 0;         ///< FLOP/s, dense fp8 peak; 0: no FP8 tensor cores
  int sms = 0;                        ///< streaming multiprocessors (CUs); 0: not given
  /// Memory capacity planned with, bytes: the total the driver reports (nvidia-smi's
  /// memory.total, `hbm_driver_mib` in the TOML) where the catalog has a readout, else the
  /// datasheet's GB (1e9 bytes). The driver's is what an allocator can fill: an "80 GB" H100
  /// reports 81,559 MiB = 85.5e9 bytes, 6.9 % above the datasheet's decimal reading.
  double hbm_bytes = 0;
  double hbm_datasheet_bytes = 0;     ///< the datasheet's capacity, GB = 1e9 bytes
  bool hbm_from_driver = false;       ///< hbm_bytes is a driver readout, not the datasheet's GB
  double hbm_bandwidth = 0;           ///< bytes/s
  double intra_node_bandwidth = 0;    ///< NVLink / xGMI to the other GPUs of the node, bytes/s per direction
  double network_bandwidth = 0;       ///< scale-out NIC bandwidth per GPU, bytes/s per direction
  int gpus_per_node = 8;              ///< NVLink/xGMI domain size (GB200 NVL72: 72)
  std::string source;                 ///< datasheet or spec page the figures come from
  /// Seconds of one PyTorch call from Python to its kernel's launch on this GPU's own host,
  /// measured on that system (`host_python_op_us` in the TOML, optional); 0: not measured, the
  /// x86 figure of presets/hardware/host_launches.toml applies. A Grace CPU issues PyTorch's
  /// calls slower than an x86 host (NVIDIA/TransformerEngine issue #2053).
  double host_python_op_seconds = 0;
};

struct GpuCatalog {
  std::vector<GpuSpec> gpus;  ///< in file order
  /// The GPU with this id (case-insensitive), else the first whose aliases hold it, or nullptr.
  [[nodiscard]] const GpuSpec* find(std::string_view id) const;
  /// "h100-sxm, h100-pcie, …": the ids, for an error message or --help.
  [[nodiscard]] std::string ids() const;
};

/// Reads a catalog in the gpus.toml schema from `text` (`source` names it in errors) and
/// lays it over `base`: a GPU with a known id replaces it, a new id is appended. Errors name
/// the line and key: unknown keys, missing or non-positive fields, an id twice in one file.
std::expected<GpuCatalog, InputError> read_gpu_catalog(std::string_view text,
                                                       const std::string& source,
                                                       GpuCatalog base = {});

/// Whether a benchmark's device string ("cuda: NVIDIA H100 80GB HBM3, ...") is this GPU:
/// the id's model part ("H100" of "h100-sxm") appears in it, and a form factor or memory
/// qualifier of the id ("pcie", "40gb") does too; "sxm" is the default form and not asked.
bool gpu_is(std::string_view device, const GpuSpec& gpu);

/// The GpuSpec field a catalog peak key fills: "bf16_dense_tflops" the bf16_dense_flops,
/// "fp8_dense_tflops" the fp8_dense_flops; nullptr for any other key. What a precision's
/// `gemm_peak_key` (presets/hardware/precisions.toml) names.
double GpuSpec::*gpu_peak_field(std::string_view catalog_key);

/// The embedded catalog (presets/hardware/gpus.toml).
const GpuCatalog& embedded_gpu_catalog();

}  // namespace moeplan
