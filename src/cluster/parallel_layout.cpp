#include "moeplan/cluster/parallel_layout.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace moeplan {

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

const char* to_string(DpSharding s) {
  switch (s) {
    case DpSharding::optim: return "optim";
    case DpSharding::optim_grads: return "optim_grads";
    case DpSharding::optim_grads_params: return "optim_grads_params";
  }
  return "?";
}

std::optional<DpSharding> dp_sharding_of(std::string_view name) {
  for (const DpSharding s : {DpSharding::optim, DpSharding::optim_grads, DpSharding::optim_grads_params}) {
    if (name == to_string(s)) return s;
  }
  return std::nullopt;
}

namespace {
// Megatron-LM's names (TransformerConfig.recompute_modules), in bit order.
constexpr std::array<std::pair<unsigned, std::string_view>, 6> k_module_names{{
    {recompute_core_attn, "core_attn"},
    {recompute_layernorm, "layernorm"},
    {recompute_moe_act, "moe_act"},
    {recompute_mla_up_proj, "mla_up_proj"},
    {recompute_mlp, "mlp"},
    {recompute_shared_experts, "shared_experts"},
}};
}  // namespace

std::string recompute_modules_string(unsigned modules, const char* sep) {
  std::string out;
  for (const auto& [bit, name] : k_module_names) {
    if ((modules & bit) == 0) continue;
    if (!out.empty()) out += sep;
    out += name;
  }
  return out;
}

std::optional<unsigned> recompute_module_of(std::string_view name) {
  for (const auto& [bit, known] : k_module_names) {
    if (known == name) return bit;
  }
  return std::nullopt;
}

std::string recompute_module_names() { return recompute_modules_string(~0u, ", "); }

unsigned ParallelLayout::recomputed_modules() const {
  switch (recompute) {
    case Recompute::none: return 0;
    case Recompute::selective: return recompute_modules;
    case Recompute::full: return ~0u;
  }
  return 0;
}

long long ParallelLayout::microbatches() const {
  const long long per_step = static_cast<long long>(micro_batch) * dp;
  return per_step > 0 ? global_batch / per_step : 0;
}

std::string ParallelLayout::describe() const {
  // Only the parallel dimensions in use, so a line stays short for small jobs.
  std::string out = fmt::format("TP {}", tp);
  if (tp > 1 && sequence_parallel) out += "+SP";
  if (cp > 1) out += fmt::format(" · CP {}", cp);
  if (pp > 1) {
    out += fmt::format(" · PP {}", pp);
    if (vpp > 1) out += fmt::format(" (v{})", vpp);
    if (dualpipe) out += " DualPipe";
    if (!pipeline_layout.empty()) {
      out += fmt::format(" [first {}, last {}: layout {}]", first_stage_layers, last_stage_layers, pipeline_layout);
    } else if (first_stage_layers > 0 || last_stage_layers > 0) {
      out += fmt::format(" [first {}, last {}{}]", first_stage_layers, last_stage_layers,
                         embedding_in_split && loss_in_split ? ": embedding, loss counted"
                         : embedding_in_split               ? ": embedding counted"
                         : loss_in_split                    ? ": loss counted"
                                                            : "");
    }
  }
  if (ep > 1) out += fmt::format(" · EP {}", ep);
  if (etp > 1) out += fmt::format(" · ETP {}", etp);
  out += fmt::format(" · DP {}", dp);
  if (edp != dp && (ep > 1 || etp > 1)) out += fmt::format(" · EDP {}", edp);
  out += fmt::format(" · mb {} · {}", micro_batch, to_string(recompute));
  if (recompute == Recompute::selective && recompute_modules != k_default_recompute_modules) {
    out += fmt::format(" ({})", recompute_modules_string(recompute_modules));
  }
  return out;
}

}  // namespace moeplan
