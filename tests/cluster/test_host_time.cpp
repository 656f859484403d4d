// The step's host term (issue 48, docs/step-model.md "Host time"): the host's calls per layer
// from presets/hardware/host_launches.toml, max(GPU, host) per pass and micro-batch, the
// dropless dispatcher's syncs, and what CUDA graphs take off. Every expected figure is counted
// by hand from the data file's numbers, restated here.
#include <doctest/doctest.h>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/cluster/host_launches.hpp"
#include "moeplan/cluster/step_time.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {

constexpr int k_seq = 4096;

StepTime timed(const ModelConfig& m, int world, ParallelLayout l, long long batch, StepTimeOptions o) {
  l.global_batch = batch;
  o.seq_len = k_seq;
  return step_time(m, count_parameters(m), cluster_of(world), l, o);
}

/// The GPU's seconds of one micro-batch's forward and backward that the host races: a third of
/// the compute and collectives forward, the rest and the recompute backward.
struct GpuPasses {
  double forward, backward;
};
GpuPasses gpu_passes(const StepTime& t, double microbatches) {
  const double busy = (t.seconds_of("gemm") + t.seconds_of("attention") + t.seconds_of("memory_bound") +
                       t.seconds_of("tp_collectives") + t.seconds_of("all_to_all")) /
                      microbatches;
  return {busy / 3.0, 2.0 * busy / 3.0 + t.seconds_of("recompute") / microbatches};
}

std::string detail(const StepTime& t, const std::string& name) {
  for (const StepTerm& term : t.terms) {
    if (term.name == name) return term.detail;
  }
  return "";
}

}  // namespace

TEST_CASE("host term: a dense model's host time when the host binds, counted by hand") {
  // 4 dense layers, PP 1 (the embedding and the head on the one stage). With 10 ms a Python
  // call and no C++ launch cost, the host takes, per micro-batch,
  //   forward  4 x (attn 6 + mlp 4) + head 3 + embedding 1 = 44 calls = 0.44 s,
  //   backward 4 x (attn 5 + mlp 3) + head 2 + embedding 1 = 35 calls = 0.35 s,
  // far more than the GPU's (a 4-layer model on 8 GPUs): the term is what exceeds the GPU.
  const ModelConfig m = dense_model(4);
  StepTimeOptions o;
  o.host_python_op_seconds = 10e-3;
  o.host_launch_seconds = 0.0;
  const ParallelLayout l = layout_of(8, 1, 1);
  const long long batch = 16;  // micro-batch 1 on DP 8: 2 micro-batches
  const StepTime t = timed(m, 8, l, batch, o);
  const GpuPasses gpu = gpu_passes(t, 2);
  REQUIRE(gpu.backward < 0.35);  // the host binds both passes
  CHECK(t.seconds_of("host") == doctest::Approx(2 * ((0.44 - gpu.forward) + (0.35 - gpu.backward))));
  CHECK(t.step_seconds == doctest::Approx(t.seconds_of("host") + 2 * (gpu.forward + gpu.backward) +
                                          t.seconds_of("dp_reduction") + t.seconds_of("optimizer")));
}

TEST_CASE("host term: C++ launches beyond the Python calls, per local expert") {
  // The MoE fixture (24 layers, 1 dense, 288 experts, a shared expert) on EP 8 and EP 16: a
  // local expert's grouped GEMMs are 2 launches forward and 4 backward; only the launches
  // count (Python calls 0 s, 1 ms a launch), and a MoE layer holds 36 or 18 local experts.
  // Launches beyond the calls, forward, per micro-batch, EP 16 (18 local experts):
  //   attn 24 x (7 - 6) + mlp 1 x (5 - 4) + router 23 x 0 + shared 23 x 0 + preprocess 23 x 0
  //   + moe 23 x (10 + 2 x 18 - 10) + head (4 - 3) + embedding 0 = 24 + 1 + 828 + 1 = 854;
  // EP 8 adds 23 x 2 x 18 = 828 forward and 23 x 4 x 18 = 1,656 backward.
  const ModelConfig m = moe_model(24, 288);
  StepTimeOptions o;
  o.host_python_op_seconds = 0.0;
  o.host_launch_seconds = 1e-3;
  const long long batch = 16;  // micro-batch 1, DP 16: one micro-batch
  const StepTime ep16 = timed(m, 16, layout_of(16, 1, 1, 16), batch, o);
  const StepTime ep8 = timed(m, 16, layout_of(16, 1, 1, 8), batch, o);
  const GpuPasses gpu16 = gpu_passes(ep16, 1), gpu8 = gpu_passes(ep8, 1);
  // Backward launches beyond the calls, EP 16: attn 24 x 6 + mlp 1 x 5 + router 23 x 5 +
  // shared 23 x 2 + moe 23 x (12 + 4 x 18 - 7) + head 2 + embedding 1 = 144 + 5 + 115 + 46 + 1771 + 3 = 2,084.
  REQUIRE(gpu16.forward < 0.854);
  REQUIRE(gpu16.backward < 2.084);
  CHECK(ep16.seconds_of("host") == doctest::Approx((0.854 - gpu16.forward) + (2.084 - gpu16.backward)));
  CHECK(ep8.seconds_of("host") ==
        doctest::Approx((0.854 + 0.828 - gpu8.forward) + (2.084 + 1.656 - gpu8.backward)));
}

TEST_CASE("host term: the dropless dispatcher's syncs cost a call each though the GPU leads") {
  // The data file's own seconds on a step the GPU dominates (micro-batches of 4 x 4096
  // tokens): what stays is one Python call a MoE layer's forward, 23 MoE layers x 19.71 us per
  // micro-batch, 8 micro-batches.
  const ModelConfig m = moe_model(24, 288);
  ParallelLayout l = layout_of(16, 1, 1, 16);
  l.micro_batch = 4;
  const StepTime t = timed(m, 16, l, 16 * 4 * 8, {});
  CHECK(t.seconds_of("host") == doctest::Approx(8 * 23 * 19.71e-6));
  CHECK(detail(t, "host").find("23 device-to-host syncs") != std::string::npos);
  const StepTime dense = timed(dense_model(4), 8, layout_of(8, 1, 1), 64, {});
  CHECK(dense.seconds_of("host") == 0);  // no syncs, and the GPU leads
}

TEST_CASE("host term: the dispatcher's syncs cost nothing more where the host is already behind") {
  // The MoE fixture (24 layers, 1 dense, 23 MoE with a shared expert) on EP 16, one
  // micro-batch, 10 ms a Python call and no launch cost: the host issues, forward,
  //   attn 24 x 6 + mlp 1 x 4 + router 23 x 9 + shared 23 x 3 + preprocess 23 x 4 + moe 23 x 10
  //   + head 3 + embedding 1 = 144 + 4 + 207 + 69 + 92 + 230 + 4 = 750 calls = 7.50 s,
  // backward attn 24 x 5 + mlp 3 + router 23 x 4 + shared 23 x 3 + moe 23 x 7 + head 2 +
  // embedding 1 = 120 + 3 + 92 + 69 + 161 + 3 = 448 calls = 4.48 s, far behind the GPU. Its 23
  // syncs (0.23 s) are inside that lag: a pass takes max(GPU + syncs x call, host) = host.
  const ModelConfig m = moe_model(24, 288);
  StepTimeOptions o;
  o.host_python_op_seconds = 10e-3;
  o.host_launch_seconds = 0.0;
  const StepTime t = timed(m, 16, layout_of(16, 1, 1, 16), 16, o);
  const GpuPasses gpu = gpu_passes(t, 1);
  REQUIRE(gpu.forward + 0.23 < 7.50);
  CHECK(t.seconds_of("host") == doctest::Approx((7.50 - gpu.forward) + (4.48 - gpu.backward)));
}

TEST_CASE("host term: CUDA graphs replace a captured region's calls by one replay") {
  const ModelConfig m = dense_model(4);
  StepTimeOptions o;
  o.host_python_op_seconds = 10e-3;
  o.host_launch_seconds = 0.0;
  const ParallelLayout l = layout_of(8, 1, 1);
  const long long batch = 8;  // one micro-batch
  // Whole-layer graphs: a replay a layer and pass, the head and embedding outside, 10 ms a
  // call: forward 4 + 3 + 1 = 80 ms, backward 4 + 2 + 1 = 70 ms.
  o.cuda_graphs = CudaGraphs{CudaGraphImpl::transformer_engine, 0};
  const StepTime whole = timed(m, 8, l, batch, o);
  const GpuPasses gpu = gpu_passes(whole, 1);
  REQUIRE(gpu.backward < 0.07);
  CHECK(whole.seconds_of("host") == doctest::Approx((0.08 - gpu.forward) + (0.07 - gpu.backward)));
  // attn only: forward 4 x (1 + mlp 4) + 4 = 240 ms, backward 4 x (1 + 3) + 3 = 190 ms.
  o.cuda_graphs = CudaGraphs{CudaGraphImpl::local, cuda_graph_attn};
  const StepTime attn = timed(m, 8, l, batch, o);
  CHECK(attn.seconds_of("host") == doctest::Approx((0.24 - gpu.forward) + (0.19 - gpu.backward)));
  // A full iteration: nothing per micro-batch.
  o.cuda_graphs = CudaGraphs{CudaGraphImpl::full_iteration, 0};
  CHECK(timed(m, 8, l, batch, o).seconds_of("host") == 0);
}


TEST_CASE("host term: a GPU whose catalog entry gives its own host's seconds a call takes them, counted by hand") {
  // The catalog's GB200 (a Grace host): one torch.nn.Linear forward's CPU time there, 37.08 us
  // (TransformerEngine issue #2053); the x86 GPUs give none (the data file's 19.71 us).
  CHECK(embedded_gpu_catalog().find("gb200")->host_python_op_seconds == doctest::Approx(37.08e-6));
  CHECK(embedded_gpu_catalog().find("h100")->host_python_op_seconds == 0.0);
  // The dense fixture of the first case on a host of 10 ms a Python call, launches at the
  // file's 5 us beyond them: per micro-batch
  //   forward  44 calls x 10 ms + (53 - 44) launches x 5 us = 0.44 + 0.000045 = 0.440045 s,
  //     launches 4 x (attn 7 + mlp 5) + head 4 + embedding 1 = 53;
  //   backward 35 calls x 10 ms + (82 - 35) x 5 us = 0.35 + 0.000235 = 0.350235 s,
  //     launches 4 x (attn 11 + mlp 8) + head 4 + embedding 2 = 82.
  const ModelConfig m = dense_model(4);
  GpuSpec slow = h100_like();
  slow.host_python_op_seconds = 10e-3;
  ParallelLayout l = layout_of(8, 1, 1);
  l.global_batch = 16;  // micro-batch 1 on DP 8: 2 micro-batches
  StepTimeOptions o;
  o.seq_len = k_seq;
  const StepTime t = step_time(m, count_parameters(m), cluster_of(8, slow), l, o);
  const GpuPasses gpu = gpu_passes(t, 2);
  REQUIRE(gpu.backward < 0.35);
  CHECK(t.seconds_of("host") == doctest::Approx(2 * ((0.440045 - gpu.forward) + (0.350235 - gpu.backward))));
  CHECK(detail(t, "host").find("a Python call 1e+04 us on this GPU's own host") != std::string::npos);
  // A --host-op-us given is the user's own host: it wins, and the line does not name the catalog's.
  o.host_python_op_seconds = 19.71e-6;
  const StepTime given = step_time(m, count_parameters(m), cluster_of(8, slow), l, o);
  const StepTime x86 = step_time(m, count_parameters(m), cluster_of(8), l, o);
  CHECK(given.seconds_of("host") == doctest::Approx(x86.seconds_of("host")));
  CHECK(detail(given, "host").find("own host") == std::string::npos);
}

TEST_CASE("host term: gated attention's output gate adds its calls per layer, counted by hand") {
  // The dense model of the first case with gated attention (--attention-output-gate): each
  // layer adds the data file's [attn_output_gate], 2 Python calls forward (the gate's reshape
  // copy, the compiled _apply_output_gate) and 1 backward (the compiled backward):
  //   forward  4 x (attn 6 + gate 2 + mlp 4) + head 3 + embedding 1 = 52 calls = 0.52 s,
  //   backward 4 x (attn 5 + gate 1 + mlp 3) + head 2 + embedding 1 = 39 calls = 0.39 s.
  ModelConfig m = dense_model(4);
  m.gated_attention = true;
  StepTimeOptions o;
  o.host_python_op_seconds = 10e-3;
  o.host_launch_seconds = 0.0;
  const StepTime t = timed(m, 8, layout_of(8, 1, 1), 16, o);
  const GpuPasses gpu = gpu_passes(t, 2);
  REQUIRE(gpu.backward < 0.39);
  CHECK(t.seconds_of("host") == doctest::Approx(2 * ((0.52 - gpu.forward) + (0.39 - gpu.backward))));
  // Launches alone (1 ms each, no Python cost): 2 forward and 2 backward more a layer than ungated.
  o.host_python_op_seconds = 0.0;
  o.host_launch_seconds = 1e-3;
  ModelConfig plain = dense_model(4);
  const StepTime with_gate = timed(m, 8, layout_of(8, 1, 1), 16, o);
  const StepTime without = timed(plain, 8, layout_of(8, 1, 1), 16, o);
  CHECK(detail(with_gate, "host").find(" kernels") != std::string::npos);
  const auto kernels = [](const std::string& d) {
    const std::size_t at = d.find(" kernels");
    const std::size_t from = d.rfind(' ', at - 1) + 1;
    return std::stod(d.substr(from, at - from));
  };
  CHECK(kernels(detail(with_gate, "host")) - kernels(detail(without, "host")) == 4 * (2 + 2));
}
