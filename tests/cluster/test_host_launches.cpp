// src/cluster/host_launches.cpp: the embedded host-launch counts (presets/hardware/
// host_launches.toml) and CUDA graph names (moved from test_host_time.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "moeplan/cluster/host_launches.hpp"

using namespace moeplan;

TEST_CASE("host launches: the embedded counts are Megatron-Core 0.20's, the seconds measured and published") {
  const HostLaunches& h = megatron_host_launches();
  CHECK(h.megatron_core.starts_with("0.20.0"));
  CHECK(h.python_op_seconds == doctest::Approx(19.71e-6));  // the H200 sweep's least single-call GEMM time
  CHECK(h.launch_seconds == doctest::Approx(5e-6));         // 4-6 us a launch, its middle
  CHECK(h.attn.python_ops_forward == 6);
  CHECK(h.moe.launches_backward_per_local_expert == 4);
  CHECK(h.moe_preprocess.host_syncs_forward == 1);
}

TEST_CASE("CUDA graph names: Megatron's impls and scopes, the deprecated ones read") {
  CHECK(parse_cuda_graph_impl("transformer_engine") == CudaGraphImpl::transformer_engine);
  CHECK_FALSE(parse_cuda_graph_impl("te").has_value());
  // One list: the flag's choices are the names to_string writes and the parser reads.
  CHECK(cuda_graph_impl_names() ==
        std::vector<std::string>{"none", "local", "transformer_engine", "full_iteration"});
  for (const std::string& name : cuda_graph_impl_names()) {
    REQUIRE(parse_cuda_graph_impl(name).has_value());
    CHECK(to_string(*parse_cuda_graph_impl(name)) == name);
  }
  CHECK(parse_cuda_graph_module("moe_router") == unsigned(cuda_graph_moe_router));
  CHECK(parse_cuda_graph_module("full") == 0u);  // the whole layer
  CHECK(parse_cuda_graph_module("full_iteration") == k_cuda_graph_full_iteration);
  CHECK_FALSE(parse_cuda_graph_module("router").has_value());
  CHECK(cuda_graph_modules_string(cuda_graph_attn | cuda_graph_moe_preprocess | cuda_graph_moe_router) ==
        "attn moe_router moe_preprocess");
  // A whole-layer capture leaves a dropless MoE layer's experts out.
  const CudaGraphs whole{CudaGraphImpl::local, 0};
  CHECK(whole.captures(cuda_graph_attn));
  CHECK_FALSE(whole.captures(cuda_graph_moe));
  CHECK(CudaGraphs{CudaGraphImpl::full_iteration, 0}.captures(cuda_graph_moe));
  CHECK_FALSE(CudaGraphs{}.captures(cuda_graph_attn));
}
