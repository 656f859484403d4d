// The step model's fittable quantities (docs/calibration.md): the bounds are physical (an
// efficiency is a fraction of a datasheet figure, an overlap a fraction of a transfer, a load
// factor at least 1), not fitted ranges; the values are StepTimeOptions' own.
#include "moeplan/calibration/step_parameters.hpp"

#include <array>

#include <fmt/format.h>

namespace moeplan::calibration {

namespace {

// The bounds are the flags' ranges too (add_cluster_flags reads them here). The efficiencies'
// lower bounds, 1-5 % of a datasheet figure, are below anything a working stack sustains (an
// engineering floor that keeps a fit off a zero rate, which times a step at infinity); the
// load factor's upper bound, 64, is a sanity range.
const std::array<StepParameter, 11> k_parameters{{
    {"gemm_efficiency", "--gemm-efficiency", 0.01, 1.0,
     "sustained bf16 GEMM rate over the dense peak (the attention core's too where no measured kernel times it)",
     [](const StepTimeOptions& o) { return o.gemm_efficiency; },
     [](StepTimeOptions& o, double v) { o.gemm_efficiency = v; }},
    {"fp8_gemm_efficiency", "--fp8-gemm-efficiency", 0.01, 1.0,
     "sustained fp8 GEMM rate over the fp8 dense peak (the linear layers of an fp8 run)",
     [](const StepTimeOptions& o) { return o.fp8_gemm_efficiency.value_or(o.gemm_efficiency); },
     [](StepTimeOptions& o, double v) { o.fp8_gemm_efficiency = v; }},
    // Its upper bound, 1.5, is an engineering one: 1 is the table's kernel (cuDNN's 2024
    // figures), and the same paper measures FlashAttention-3 up to 1.24x cuDNN's forward; 1.5 x
    // the GEMM ceiling (0.6 x peak) stays under the peak where no kernel is measured.
    {"attention_efficiency", "--attention-efficiency", 0.05, 1.5,
     "the attention core's rate over its measured kernel's (presets/hardware/attention_rates.toml), or over the "
     "bf16 GEMM ceiling where there is none",
     [](const StepTimeOptions& o) { return o.attention_efficiency; },
     [](StepTimeOptions& o, double v) { o.attention_efficiency = v; }},
    {"hbm_efficiency", "--hbm-efficiency", 0.2, 1.0, "achieved HBM bandwidth over the datasheet's",
     [](const StepTimeOptions& o) { return o.hbm_efficiency; },
     [](StepTimeOptions& o, double v) { o.hbm_efficiency = v; }},
    // Engineering bounds around what one H200 measured at hbm_efficiency 0.85
    // (docs/measurements/h200-2026-11-29): 1.38-2.56 with Inductor's fusions, 3.8-5.7 eager;
    // 0.5 leaves room for a stack that fuses more than the count assumes.
    {"memory_bound_scale", "--memory-bound-scale", 0.5, 10.0,
     "the memory-bound kernels' time over the fused count at the achieved HBM bandwidth (1: the count as stated "
     "for Megatron-Core's fused kernels; an unfused stack moves more bytes)",
     [](const StepTimeOptions& o) { return o.memory_bound_scale; },
     [](StepTimeOptions& o, double v) { o.memory_bound_scale = v; }},
    {"network_efficiency", "--network-efficiency", 0.01, 1.0,
     "achieved bandwidth of the TP, pipeline and data-parallel collectives over the link's",
     [](const StepTimeOptions& o) { return o.network_efficiency; },
     [](StepTimeOptions& o, double v) { o.network_efficiency = v; }},
    {"a2a_efficiency_intra", "--a2a-efficiency-intra", 0.05, 1.0,
     "achieved bandwidth of the expert all-to-all within a node over NVLink's",
     [](const StepTimeOptions& o) { return o.a2a_efficiency_intra; },
     [](StepTimeOptions& o, double v) { o.a2a_efficiency_intra = v; }},
    {"a2a_efficiency_inter", "--a2a-efficiency-inter", 0.05, 1.0,
     "achieved bandwidth of the expert all-to-all across nodes over the NIC's",
     [](const StepTimeOptions& o) { return o.a2a_efficiency_inter; },
     [](StepTimeOptions& o, double v) { o.a2a_efficiency_inter = v; }},
    {"dp_overlap", "--dp-overlap", 0.0, 1.0,
     "fraction of the data-parallel gradient reduction hidden behind the backward pass",
     [](const StepTimeOptions& o) { return o.dp_overlap; },
     [](StepTimeOptions& o, double v) { o.dp_overlap = v; }},
    {"a2a_overlap", "--a2a-overlap", 0.0, 1.0, "fraction of the expert all-to-all hidden behind computation",
     [](const StepTimeOptions& o) { return o.a2a_overlap; },
     [](StepTimeOptions& o, double v) { o.a2a_overlap = v; }},
    {"load_imbalance", "--load-imbalance", 1.0, 64.0,
     "busiest expert rank's routed tokens over the balanced share",
     [](const StepTimeOptions& o) { return o.expert_load_factor; },
     [](StepTimeOptions& o, double v) { o.expert_load_factor = v; }},
}};

}  // namespace

std::span<const StepParameter> step_parameters() { return k_parameters; }

const StepParameter* find_step_parameter(std::string_view name) {
  for (const StepParameter& p : k_parameters) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string step_parameter_names() {
  std::string s;
  for (const StepParameter& p : k_parameters) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

}  // namespace moeplan::calibration
