// The host's calls per layer of a Megatron-Core step, read from the embedded data file
// (presets/hardware/host_launches.toml, where every figure is cited), and Megatron's CUDA-graph
// names.
#include "moeplan/cluster/host_launches.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {

namespace {

constexpr std::string_view k_host_launches_path = "hardware/host_launches.toml";

double count_of(const toml::table& region, std::string_view key) {
  const auto v = region[key].value<double>();
  if (v && !(*v >= 0)) {
    throw std::logic_error("embedded preset hardware/host_launches.toml: " + std::string(key) + " must be >= 0");
  }
  return v.value_or(0);
}

HostRegion region_of(const toml::table& doc, std::string_view name) {
  const toml::table* t = doc[name].as_table();
  if (t == nullptr) throw std::logic_error("embedded preset hardware/host_launches.toml: no [" + std::string(name) + "]");
  HostRegion r;
  r.python_ops_forward = count_of(*t, "python_ops_forward");
  r.launches_forward = count_of(*t, "launches_forward");
  r.python_ops_backward = count_of(*t, "python_ops_backward");
  r.launches_backward = count_of(*t, "launches_backward");
  r.launches_forward_per_local_expert = count_of(*t, "launches_forward_per_local_expert");
  r.launches_backward_per_local_expert = count_of(*t, "launches_backward_per_local_expert");
  r.host_syncs_forward = count_of(*t, "host_syncs_forward");
  return r;
}

HostLaunches read_host_launches() {
  const auto text = find_embedded_preset(k_host_launches_path);
  if (!text) throw std::logic_error("embedded preset hardware/host_launches.toml is missing");
  auto doc = parse_toml(*text, "<embedded:hardware/host_launches.toml>");
  if (!doc) throw std::logic_error(doc.error().to_string());
  HostLaunches h;
  h.megatron_core = (*doc)["megatron_core"].value<std::string>().value_or("");
  h.python_op_seconds = (*doc)["python_op_seconds"].value<double>().value_or(0);
  h.launch_seconds = (*doc)["launch_seconds"].value<double>().value_or(0);
  if (!(h.python_op_seconds > 0) || !(h.launch_seconds > 0) || h.megatron_core.empty()) {
    throw std::logic_error("embedded preset hardware/host_launches.toml: megatron_core, python_op_seconds, launch_seconds");
  }
  h.attn = region_of(*doc, "attn");
  h.attn_output_gate = region_of(*doc, "attn_output_gate");
  h.mlp = region_of(*doc, "mlp");
  h.moe_router = region_of(*doc, "moe_router");
  h.shared_experts = region_of(*doc, "shared_experts");
  h.moe_preprocess = region_of(*doc, "moe_preprocess");
  h.moe = region_of(*doc, "moe");
  h.embedding = region_of(*doc, "embedding");
  h.head = region_of(*doc, "head");
  return h;
}

constexpr std::array<std::pair<std::string_view, CudaGraphModule>, 5> k_modules = {{
    {"attn", cuda_graph_attn},
    {"mlp", cuda_graph_mlp},
    {"moe", cuda_graph_moe},
    {"moe_router", cuda_graph_moe_router},
    {"moe_preprocess", cuda_graph_moe_preprocess},
}};

}  // namespace

const HostLaunches& megatron_host_launches() {
  static const HostLaunches launches = read_host_launches();
  return launches;
}

namespace {

// The impls and their names, one list: Megatron-Core 0.20's cuda_graph_impl choices
// (megatron/core/transformer/transformer_config.py), in its order.
constexpr std::pair<CudaGraphImpl, const char*> k_cuda_graph_impls[] = {
    {CudaGraphImpl::none, "none"},
    {CudaGraphImpl::local, "local"},
    {CudaGraphImpl::transformer_engine, "transformer_engine"},
    {CudaGraphImpl::full_iteration, "full_iteration"},
};

}  // namespace

const char* to_string(CudaGraphImpl impl) {
  for (const auto& [i, name] : k_cuda_graph_impls) {
    if (i == impl) return name;
  }
  return "none";
}

std::optional<CudaGraphImpl> parse_cuda_graph_impl(std::string_view text) {
  for (const auto& [i, name] : k_cuda_graph_impls) {
    if (text == name) return i;
  }
  return std::nullopt;
}

std::vector<std::string> cuda_graph_impl_names() {
  std::vector<std::string> names;
  for (const auto& [i, name] : k_cuda_graph_impls) names.emplace_back(name);
  return names;
}

std::optional<unsigned> parse_cuda_graph_module(std::string_view name) {
  for (const auto& [n, bit] : k_modules) {
    if (name == n) return bit;
  }
  if (name == "full") return 0u;  // deprecated: the whole layer, an empty list (arguments.py)
  if (name == "full_iteration") return k_cuda_graph_full_iteration;
  return std::nullopt;
}

std::string cuda_graph_modules_string(unsigned modules, std::string_view sep) {
  std::string s;
  for (const auto& [n, bit] : k_modules) {
    if ((modules & bit) == 0) continue;
    if (!s.empty()) s += sep;
    s += n;
  }
  return s;
}

}  // namespace moeplan
