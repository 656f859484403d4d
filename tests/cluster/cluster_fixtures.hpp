#pragma once
// Hand-built GPUs, clusters, configs and layouts for the cluster tests: nothing here comes
// from the GPU catalog, so these tests hold whatever the catalog says.
#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan::test {

/// H100 SXM-like figures: 989 TFLOP/s dense bf16, 80 GB, NVLink 450 GB/s and a 400 Gb/s NIC
/// per direction, 8 per node.
inline GpuSpec h100_like() {
  GpuSpec g;
  g.id = "h100-test";
  g.name = "H100 SXM";
  g.bf16_dense_flops = 989e12;
  g.fp8_dense_flops = 1979e12;
  g.sms = 132;
  g.hbm_bytes = 80e9;
  g.hbm_bandwidth = 3.35e12;
  g.intra_node_bandwidth = 450e9;
  g.network_bandwidth = 50e9;
  g.gpus_per_node = 8;
  g.source = "tests";
  return g;
}

inline Cluster cluster_of(int gpus, GpuSpec g = h100_like()) {
  Cluster c;
  c.gpu = std::move(g);
  c.gpus = gpus;
  c.gpus_per_node = c.gpu.gpus_per_node;
  return c;
}

/// A mid-size MoE: d 2048, L layers (1 dense), 32 query and 4 kv heads, N_e experts top-8
/// plus one shared.
inline ModelConfig moe_model(int layers = 24, int experts = 288) {
  ModelConfig m;
  m.name = "test-moe";
  m.hidden_size = 2048;
  m.num_hidden_layers = layers;
  m.first_k_dense_replace = 1;
  m.intermediate_size = 6144;
  m.moe_intermediate_size = 512;
  m.n_routed_experts = experts;
  m.num_experts_per_tok = 8;
  m.n_shared_experts = 1;
  m.num_attention_heads = 32;
  m.num_key_value_heads = 4;
  m.head_dim = 128;
  m.vocab_size = 151936;
  return m;
}

/// A dense model of `layers` layers, d 4096, 32 heads (8 kv).
inline ModelConfig dense_model(int layers = 24) {
  ModelConfig m;
  m.name = "test-dense";
  m.hidden_size = 4096;
  m.num_hidden_layers = layers;
  m.intermediate_size = 12288;
  m.num_attention_heads = 32;
  m.num_key_value_heads = 8;
  m.head_dim = 128;
  m.vocab_size = 128256;
  return m;
}

/// A layout with dp and edp derived from the world size (0 when they do not come out whole).
inline ParallelLayout layout_of(int world, int tp, int pp, int ep = 1, int etp = 1, int cp = 1,
                                int vpp = 1) {
  ParallelLayout l;
  l.tp = tp;
  l.cp = cp;
  l.pp = pp;
  l.vpp = vpp;
  l.ep = ep;
  l.etp = etp;
  const int attention = tp * cp * pp;
  l.dp = world % attention == 0 ? world / attention : 0;
  const int experts = etp * ep * pp;
  l.edp = world % experts == 0 ? world / experts : 0;
  l.micro_batch = 1;
  l.global_batch = 0;
  return l;
}

/// TP x PP x DP with sequence parallelism, selective recompute and the distributed optimizer
/// (the layout tests and Korthikanti's memory checks).
inline ParallelLayout sp_selective_layout(int tp, int pp, int dp, int mb, long long gb) {
  ParallelLayout l;
  l.tp = tp;
  l.pp = pp;
  l.dp = dp;
  l.edp = dp;
  l.micro_batch = mb;
  l.global_batch = gb;
  l.sequence_parallel = true;
  l.recompute = Recompute::selective;
  l.distributed_optimizer = true;
  return l;
}

}  // namespace moeplan::test
