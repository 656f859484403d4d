// Timing of the layout search (docs/cluster.md, "Layout search"): DeepSeek-V3.1 (the embedded
// preset) on 2048 H100-class GPUs, the search `suggest --gpus 2048 --gpu h100` runs. Prints
// milliseconds, layouts timed and memory counts; asserts nothing. Run via bench/run.sh.
// The GPU figures are written here, not read from the catalog, so the figure does not move
// when the catalog does.
#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "moeplan/cluster/layout_search.hpp"
#include "moeplan/io/model_loader.hpp"

using namespace moeplan;
using Clock = std::chrono::steady_clock;

int main() {
  const auto m = load_model_config("deepseek-v3.1");
  if (!m) {
    fmt::print(stderr, "moeplan_layout_bench: {}\n", m.error().to_string());
    return 1;
  }
  const ParameterCounts p = count_parameters(*m);
  Cluster cluster;
  cluster.gpu.id = "h100-sxm";
  cluster.gpu.name = "H100 SXM (bench figures)";
  cluster.gpu.bf16_dense_flops = 989e12;
  cluster.gpu.hbm_bytes = 80e9;
  cluster.gpu.hbm_bandwidth = 3.35e12;
  cluster.gpu.intra_node_bandwidth = 450e9;
  cluster.gpu.network_bandwidth = 50e9;
  cluster.gpus = 2048;
  cluster.gpus_per_node = 8;
  LayoutSearchOptions o;
  o.time.seq_len = 4096;
  o.global_batch_tokens = 15360LL * 4096;  // DeepSeek-V3's 15360 sequences of 4K

  std::vector<double> ms;
  std::expected<LayoutSearchResult, ConstraintViolation> r;
  for (int i = 0; i < 25; ++i) {
    const auto t0 = Clock::now();
    r = search_layouts(*m, p, cluster, o);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  fmt::print("layout search, {} on {} GPUs: median {:.2f} ms (min {:.2f}, max {:.2f}, 25 runs)\n",
             m->name, cluster.gpus, ms[ms.size() / 2], ms.front(), ms.back());
  if (!r) {
    fmt::print("  no layout: {}\n", r.error().to_string());
    return 0;
  }
  fmt::print("  {} layouts timed, {} memory counts, {} combinations illegal\n", r->evaluated,
             r->memory_evaluated, r->illegal);
  for (std::size_t i = 0; i < r->ranked.size(); ++i) {
    const LayoutCandidate& c = r->ranked[i];
    fmt::print("  {}. {}: {:.3f} s/step, {:.0f} tokens/s, MFU {:.1f} %, {:.1f} GiB\n", i + 1,
               c.layout.describe(), c.time.step_seconds, c.time.tokens_per_second, 100 * c.time.mfu,
               c.memory.total() / double(1ull << 30));
    if (i > 0) fmt::print("     {}\n", r->why_lost[i - 1]);
  }
  return 0;
}
