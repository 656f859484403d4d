#include "moeplan/cluster/parallel_layout.hpp"

#include <fmt/format.h>

namespace moeplan {

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
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
    if (first_stage_layers > 0 || last_stage_layers > 0) {
      out += fmt::format(" [first {}, last {}]", first_stage_layers, last_stage_layers);
    }
  }
  if (ep > 1) out += fmt::format(" · EP {}", ep);
  if (etp > 1) out += fmt::format(" · ETP {}", etp);
  out += fmt::format(" · DP {}", dp);
  if (edp != dp && (ep > 1 || etp > 1)) out += fmt::format(" · EDP {}", edp);
  out += fmt::format(" · mb {} · {}", micro_batch, to_string(recompute));
  return out;
}

}  // namespace moeplan
