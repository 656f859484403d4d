// PLACEHOLDER (branch cluster-time): a rough memory_per_gpu so the cluster library links and
// the layout search has numbers to rank while step_time.cpp and layout_search.cpp are
// written. The real model (docs/cluster.md, "Memory") comes from the memory branch (wt-mem)
// at merge; nothing of step time or the layout search lives here, and no test relies on
// these figures beyond "a 1 GB GPU fits nothing, a 10 TB one fits everything".
#include "moeplan/cluster/memory_model.hpp"

#include <algorithm>

namespace moeplan {

double MemoryBreakdown::total() const {
  double sum = 0;
  for (const MemoryTerm& t : terms) sum += t.bytes;
  return sum;
}

double MemoryBreakdown::bytes_of(const std::string& name) const {
  for (const MemoryTerm& t : terms) {
    if (t.name == name) return t.bytes;
  }
  return 0;
}

MemoryBreakdown memory_per_gpu(const ModelConfig& m, const ParameterCounts& p,
                               const ParallelLayout& layout, const MemoryOptions& options) {
  const double L = m.num_hidden_layers;
  const int stage = std::max({layout.first_stage_layers, layout.last_stage_layers,
                              (m.num_hidden_layers + layout.pp - 1) / layout.pp});
  const double share = stage / L;
  const double dense = (p.attention + p.dense_ffn + p.shared).value() * share / layout.tp +
                       p.embedding.value() / layout.tp;
  const double experts = p.routed_total.value() * share / (layout.ep * layout.etp);
  const double opt_dense = layout.distributed_optimizer ? 12.0 / layout.dp : 12.0;
  const double opt_experts = layout.distributed_optimizer ? 12.0 / layout.edp : 12.0;
  const double s = static_cast<double>(options.seq_len) / layout.cp;
  const double sbh = s * layout.micro_batch * m.hidden_size;
  double per_layer = sbh * 34.0 / layout.tp;
  if (layout.recompute == Recompute::full) per_layer = 2.0 * sbh / layout.tp;
  const double moe_share = m.is_moe() ? double(m.moe_layers()) / L : 0.0;
  per_layer += moe_share * m.num_experts_per_tok * sbh * 4.0 * options.expert_load_factor /
               layout.etp * (layout.recompute == Recompute::full ? 0.0 : 1.0);
  const double in_flight = std::min<double>(layout.pp, double(std::max<long long>(1, layout.microbatches()))) *
                           (1.0 + (layout.pp - 1.0) / (layout.pp * layout.vpp));
  MemoryBreakdown b;
  b.params_on_gpu = dense + experts;
  b.stage_layers = stage;
  b.in_flight_microbatches = in_flight;
  b.terms = {
      {"weights", 2.0 * (dense + experts), "placeholder"},
      {"gradients", 4.0 * (dense + experts), "placeholder"},
      {"optimizer", opt_dense * dense + opt_experts * experts, "placeholder"},
      {"activations", per_layer * stage * in_flight, "placeholder"},
      {"all_to_all", m.is_moe() ? 4.0 * m.num_experts_per_tok * sbh * options.expert_load_factor : 0.0,
       "placeholder"},
      {"framework", options.framework_bytes, "placeholder"},
  };
  return b;
}

}  // namespace moeplan
